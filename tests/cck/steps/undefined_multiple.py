"""The kit's undefined samples: undefined steps, alone, after a defined one, before a skipped one."""

from behave import step
from behave.cucumber_expression import use_step_matcher_for_cucumber_expressions
from behave.runner import Context

use_step_matcher_for_cucumber_expressions()


@step("an implemented step")
def implemented(context: Context) -> None:
    pass


@step("a step that will be skipped")
def will_be_skipped(context: Context) -> None:
    pass
