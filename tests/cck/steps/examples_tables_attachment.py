"""The kit's examples-tables-attachment sample: each example attaches an image."""

from behave import step
from behave.cucumber_expression import use_step_matcher_for_cucumber_expressions
from behave.runner import Context
from cucumber_compatibility_kit import CompatibilityKit

use_step_matcher_for_cucumber_expressions()


SAMPLE = CompatibilityKit().feature_code_for("examples-tables-attachment")


@step("a JPEG image is attached")
def jpeg(context: Context) -> None:
    context.attach("image/jpeg", (SAMPLE / "cucumber.jpeg").read_bytes())


@step("a PNG image is attached")
def png(context: Context) -> None:
    context.attach("image/png", (SAMPLE / "cucumber.png").read_bytes())
