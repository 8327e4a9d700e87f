"""The kit's stack-traces sample: a step that raises an exception (not an assertion)."""

from behave import step
from behave.cucumber_expression import use_step_matcher_for_cucumber_expressions
from behave.runner import Context

use_step_matcher_for_cucumber_expressions()


@step("a step throws an exception")
def throws(context: Context) -> None:
    raise Exception("BOOM")  # noqa: TRY002 - the kit's reference throws a plain Error
