"""The kit's global-hooks-attachments sample: BeforeAll and AfterAll hooks attach text."""

from behave import step
from behave.cucumber_expression import use_step_matcher_for_cucumber_expressions
from behave.runner import Context

from tests.cck.hooks import after_all, before_all

use_step_matcher_for_cucumber_expressions()


@before_all()
def attach_before(context: Context) -> None:
    context.attach("text/plain", "Attachment from BeforeAll hook")


@step("a step passes")
def passes(context: Context) -> None:
    pass


@after_all()
def attach_after(context: Context) -> None:
    context.attach("text/plain", "Attachment from AfterAll hook")
