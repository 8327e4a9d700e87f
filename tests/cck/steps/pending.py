"""The kit's pending sample: a step signals it is not implemented yet (in Python, by raising)."""

from behave import step
from behave.api.pending_step import StepNotImplementedError
from behave.cucumber_expression import use_step_matcher_for_cucumber_expressions
from behave.runner import Context

use_step_matcher_for_cucumber_expressions()


@step("an implemented non-pending step")
def implemented(context: Context) -> None:
    pass


@step("an implemented step that is skipped")
def skipped(context: Context) -> None:
    pass


@step("an unimplemented pending step")
def pending(context: Context) -> None:
    raise StepNotImplementedError
