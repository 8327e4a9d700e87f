"""The kit's hooks sample: an unconditional Before and After hook around a passing and a failing step."""

from behave import step
from behave.cucumber_expression import use_step_matcher_for_cucumber_expressions
from behave.runner import Context

use_step_matcher_for_cucumber_expressions()

from tests.cck.hooks import after, before


@before()
def before_hook(context: Context) -> None:
    pass


@step("a step passes")
def passes(context: Context) -> None:
    pass


@step("a step fails")
def fails(context: Context) -> None:
    raise Exception("Exception in step")  # noqa: TRY002 - the reference throws a plain Error


@after()
def after_hook(context: Context) -> None:
    pass
