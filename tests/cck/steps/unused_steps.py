"""The kit's unused-steps sample: a definition no step uses is still in the messages."""

from behave import step
from behave.cucumber_expression import use_step_matcher_for_cucumber_expressions
from behave.runner import Context

use_step_matcher_for_cucumber_expressions()


@step("a step that is used")
def used(context: Context) -> None:
    pass


@step("a step that is not used")
def not_used(context: Context) -> None:
    pass
