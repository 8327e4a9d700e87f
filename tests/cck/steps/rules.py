"""The kit's rules sample: scenarios grouped by Rule, with a feature Background."""

from behave import step
from behave.cucumber_expression import use_step_matcher_for_cucumber_expressions
from behave.runner import Context

use_step_matcher_for_cucumber_expressions()


@step("the customer has {int} cents")
def has_cents(context: Context, money: int) -> None:
    context.money = money


@step("there are chocolate bars in stock")
def in_stock(context: Context) -> None:
    context.stock = ["Mars"]


@step("there are no chocolate bars in stock")
def none_in_stock(context: Context) -> None:
    context.stock = []


@step("the customer tries to buy a {int} cent chocolate bar")
def buy(context: Context, price: int) -> None:
    # like the reference's `stock.pop()`: nothing when the stock is empty
    context.chocolate = context.stock.pop() if context.money >= price and context.stock else None


@step("the sale should not happen")
def no_sale(context: Context) -> None:
    assert context.chocolate is None


@step("the sale should happen")
def sale(context: Context) -> None:
    assert context.chocolate
