"""The kit's pending-exception sample: pending with a message, by behave's PendingStepError."""

from behave import step
from behave.api.pending_step import PendingStepError
from behave.cucumber_expression import use_step_matcher_for_cucumber_expressions
from behave.runner import Context

use_step_matcher_for_cucumber_expressions()


@step("an unimplemented pending step")
def pending(context: Context) -> None:
    raise PendingStepError("TODO")
