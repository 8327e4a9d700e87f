"""The kit's examples-tables sample: an outline whose examples pass, fail an assertion, or fail
to convert ("there are {int} cucumbers" with a word for the number does not match: undefined)."""

from behave import step
from behave.cucumber_expression import use_step_matcher_for_cucumber_expressions
from behave.runner import Context

use_step_matcher_for_cucumber_expressions()


@step("there are {int} cucumbers")
def there_are(context: Context, count: int) -> None:
    context.count = count


@step("there are {int} friends")
def friends(context: Context, count: int) -> None:
    context.friends = count


@step("I eat {int} cucumbers")
def eat(context: Context, count: int) -> None:
    context.count -= count


@step("I should have {int} cucumbers")
def should_have(context: Context, count: int) -> None:
    assert context.count == count


@step("each person can eat {int} cucumbers")
def share(context: Context, count: int) -> None:
    assert context.count // (1 + context.friends) == count
