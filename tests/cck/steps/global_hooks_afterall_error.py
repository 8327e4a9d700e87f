"""The kit's global-hooks-afterall-error sample: an AfterAll hook fails; the others still run."""

from behave import step
from behave.cucumber_expression import use_step_matcher_for_cucumber_expressions
from behave.runner import Context

from tests.cck.hooks import after_all, before_all

use_step_matcher_for_cucumber_expressions()


@before_all()
def first_before_all(context: Context) -> None:
    pass


@before_all()
def second_before_all(context: Context) -> None:
    pass


@step("a step passes")
def passes(context: Context) -> None:
    pass


@after_all()
def first_after_all(context: Context) -> None:
    pass


@after_all()
def failing_after_all(context: Context) -> None:
    raise Exception("AfterAll hook went wrong")  # noqa: TRY002 - the reference throws a plain Error


@after_all()
def last_after_all(context: Context) -> None:
    pass
