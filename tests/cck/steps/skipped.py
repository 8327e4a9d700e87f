"""The kit's skipped sample: a step skips the rest of its scenario (behave's `scenario.skip`)."""

from behave import step
from behave.cucumber_expression import use_step_matcher_for_cucumber_expressions
from behave.runner import Context

use_step_matcher_for_cucumber_expressions()


@step("a step that does not skip")
def does_not_skip(context: Context) -> None:
    pass


@step("a step that is skipped")
def is_skipped(context: Context) -> None:
    pass


@step("I skip a step")
def skip(context: Context) -> None:
    context.scenario.skip()
