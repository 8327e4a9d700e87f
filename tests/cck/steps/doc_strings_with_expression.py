"""The kit's doc-strings-with-expression sample: a Cucumber expression's argument and a doc string."""

from behave import step
from behave.cucumber_expression import use_step_matcher_for_cucumber_expressions
from behave.runner import Context

use_step_matcher_for_cucumber_expressions()


@step("a {string} with a doc string:")
def with_a_doc_string(context: Context, name: str) -> None:
    assert name == "Cucumber"
    assert context.text == "Cucumis sativus"
