"""The kit's hooks-conditional sample: hooks that run only for scenarios with their tags."""

from behave import step
from behave.cucumber_expression import use_step_matcher_for_cucumber_expressions
from behave.runner import Context

use_step_matcher_for_cucumber_expressions()

from tests.cck.hooks import after, before


@before(tags="@passing-hook")
def passing_before(context: Context) -> None:
    pass


@before(tags="@fail-before")
def failing_before(context: Context) -> None:
    raise Exception("Exception in conditional hook")  # noqa: TRY002 - the reference throws a plain Error


@step("a step passes")
def passes(context: Context) -> None:
    pass


@after(tags="@fail-after")
def failing_after(context: Context) -> None:
    raise Exception("Exception in conditional hook")  # noqa: TRY002 - the reference throws a plain Error


@after(tags="@passing-hook")
def passing_after(context: Context) -> None:
    pass
