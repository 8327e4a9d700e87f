"""The kit's skipped-failing-hook sample: a skipped step, then an After hook that fails."""

from behave import step
from behave.cucumber_expression import use_step_matcher_for_cucumber_expressions
from behave.runner import Context

use_step_matcher_for_cucumber_expressions()

from tests.cck.hooks import after


@step("a step that skips")
def skips(context: Context) -> None:
    context.scenario.skip()


@after()
def failing_after(context: Context) -> None:
    raise Exception("whoops")  # noqa: TRY002 - the reference throws a plain Error
