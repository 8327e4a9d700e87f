"""The kit's backgrounds samples: steps of a feature's and a rule's Background before each scenario's."""

from behave import step
from behave.cucumber_expression import use_step_matcher_for_cucumber_expressions
from behave.runner import Context

use_step_matcher_for_cucumber_expressions()


@step("an order for {string}")
def an_order(context: Context, item: str) -> None:
    pass


@step("an action")
def an_action(context: Context) -> None:
    pass


@step("an outcome")
def an_outcome(context: Context) -> None:
    pass
