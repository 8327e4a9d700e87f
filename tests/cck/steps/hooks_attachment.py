"""The kit's hooks-attachment sample: a Before and an After hook each attach an SVG image."""

from behave import step
from behave.cucumber_expression import use_step_matcher_for_cucumber_expressions
from behave.runner import Context
from cucumber_compatibility_kit import CompatibilityKit

use_step_matcher_for_cucumber_expressions()

from tests.cck.hooks import after, before

IMAGE = CompatibilityKit().feature_code_for("hooks-attachment") / "cucumber.svg"


@before()
def before_hook(context: Context) -> None:
    context.attach("image/svg+xml", IMAGE.read_bytes())


@step("a step passes")
def passes(context: Context) -> None:
    pass


@after()
def after_hook(context: Context) -> None:
    context.attach("image/svg+xml", IMAGE.read_bytes())
