"""The kit's attachments sample: text, logs, bytes, a renamed PDF and a link, attached by steps
with behave's `context.attach` (text as is, bytes base64-encoded), the file name through the
suite's recorder (`context.recorder.attach`), which `context.attach` has no parameter for."""

from behave import step
from behave.cucumber_expression import use_step_matcher_for_cucumber_expressions
from behave.runner import Context
from cucumber_compatibility_kit import CompatibilityKit

use_step_matcher_for_cucumber_expressions()

SAMPLE = CompatibilityKit().feature_code_for("attachments")
LOG = "text/x.cucumber.log+plain"  # what Cucumber's `log` attaches
RAINBOW = (
    "This displays a \x1b[31mr\x1b[0m\x1b[91ma\x1b[0m\x1b[33mi\x1b[0m\x1b[32mn\x1b[0m\x1b[34mb\x1b[0m"
    "\x1b[95mo\x1b[0m\x1b[35mw\x1b[0m"
)


@step("the string {string} is attached as {string}")
def attach_string(context: Context, text: str, media_type: str) -> None:
    context.attach(media_type, text)


@step("the string {string} is logged")
def log_string(context: Context, text: str) -> None:
    context.attach(LOG, text)


@step("text with ANSI escapes is logged")
def log_ansi(context: Context) -> None:
    context.attach(LOG, RAINBOW)


@step("the following string is attached as {string}:")
def attach_doc_string(context: Context, media_type: str) -> None:
    context.attach(media_type, context.text)


@step("an array with {int} bytes is attached as {string}")
def attach_bytes(context: Context, size: int, media_type: str) -> None:
    context.attach(media_type, bytes(range(size)))


@step("a PDF document is attached and renamed")
def attach_pdf(context: Context) -> None:
    pdf = (SAMPLE / "document.pdf").read_bytes()
    context.recorder.attach(pdf, "application/pdf", file_name="renamed.pdf")


@step("a link to {string} is attached")
def attach_link(context: Context, uri: str) -> None:
    context.attach("text/uri-list", uri)


@step("the string {string} is attached as {string} before a failure")
def attach_then_fail(context: Context, text: str, media_type: str) -> None:
    context.attach(media_type, text)
    raise Exception("whoops")  # noqa: TRY002 - the reference throws a plain Error
