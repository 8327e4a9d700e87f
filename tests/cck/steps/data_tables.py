"""The kit's data-tables sample: a step's table, transposed, compared with the next step's."""

from behave import step
from behave.cucumber_expression import use_step_matcher_for_cucumber_expressions
from behave.runner import Context

use_step_matcher_for_cucumber_expressions()


def _raw(context: Context) -> list[list[str]]:
    return [list(context.table.headings), *(list(row) for row in context.table.rows)]


@step("the following table is transposed:")
def transpose(context: Context) -> None:
    context.transposed = [list(column) for column in zip(*_raw(context), strict=True)]


@step("it should be:")
def it_should_be(context: Context) -> None:
    assert context.transposed == _raw(context)
