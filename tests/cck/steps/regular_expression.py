"""The kit's regular-expression sample: one regex with optional groups."""

from behave import step, use_step_matcher
from behave.runner import Context

use_step_matcher("re")  # behave adds the ^ and $ the kit's pattern has


@step(r"a (.*?)(?: and a (.*?))?(?: and a (.*?))?")
def vegetables(context: Context, first: str, second: str | None, third: str | None) -> None:
    pass
