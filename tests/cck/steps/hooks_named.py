"""The kit's hooks-named sample: a Before and an After hook with names."""

from behave import step
from behave.cucumber_expression import use_step_matcher_for_cucumber_expressions
from behave.runner import Context

use_step_matcher_for_cucumber_expressions()

from tests.cck.hooks import after, before


@before(name="A named before hook")
def before_hook(context: Context) -> None:
    pass


@step("a step passes")
def passes(context: Context) -> None:
    pass


@after(name="A named after hook")
def after_hook(context: Context) -> None:
    pass
