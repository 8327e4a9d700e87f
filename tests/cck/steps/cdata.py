"""The kit's cdata sample: a step text with XML CDATA markup in it, matched as is."""

from behave import step
from behave.cucumber_expression import use_step_matcher_for_cucumber_expressions
from behave.runner import Context

use_step_matcher_for_cucumber_expressions()


@step("I have {int} <![CDATA[cukes]]> in my belly")
def have_cukes(context: Context, cuke_count: int) -> None:
    pass
