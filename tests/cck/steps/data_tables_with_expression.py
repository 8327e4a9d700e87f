"""The kit's data-tables-with-expression sample: a Cucumber expression's argument and a table."""

from behave import step
from behave.cucumber_expression import use_step_matcher_for_cucumber_expressions
from behave.runner import Context

use_step_matcher_for_cucumber_expressions()


@step("a {string} with a table")
def with_a_table(context: Context, name: str) -> None:
    assert name == "Cucumber"
    assert [list(context.table.headings), *(list(row) for row in context.table.rows)] == [
        ["Species", "Cucumis sativus"]
    ]
