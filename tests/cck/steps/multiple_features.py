"""The kit's multiple-features samples: three feature files in one run (reversed: in reverse order)."""

from behave import step
from behave.cucumber_expression import use_step_matcher_for_cucumber_expressions
from behave.runner import Context

use_step_matcher_for_cucumber_expressions()


@step("an order for {string}")
def an_order(context: Context, item: str) -> None:
    pass
