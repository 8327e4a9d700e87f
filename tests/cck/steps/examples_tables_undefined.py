"""The kit's examples-tables-undefined samples: outlines whose examples leave steps undefined."""

from behave import step
from behave.cucumber_expression import use_step_matcher_for_cucumber_expressions
from behave.runner import Context

use_step_matcher_for_cucumber_expressions()


@step("there are {int} cucumbers")
def there_are(context: Context, count: int) -> None:
    context.count = count


@step("I eat {int} cucumbers")
def eat(context: Context, count: int) -> None:
    context.count -= count


@step("I should have {int} cucumbers")
def should_have(context: Context, count: int) -> None:
    assert context.count == count
