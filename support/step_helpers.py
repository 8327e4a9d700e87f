"""What step bodies share that is neither a page object nor API setup.

- `need(value, hint)`: what an earlier step must have given (a resolved fixture, "the agent", a
  held request, the replay server), or an AssertionError whose hint names the step that gives it;
- `data_table(context)`, `doc_string(context)`: the step's own arguments under its sentence
  (behave gives both as None when the feature file has none: the step then fails saying so);
- `LONG_WAIT_MS`: how long an assertion (or a page object's in-page wait) waits on the product's
  slow work: a reply from the runtime and the model (or its replay), a build assistant proposal,
  a transcription, indexing. Every other wait is `E2E_TIMEOUT_MS` (Playwright's default here).

It imports nothing of the suite (behave only): page objects (`support/ui/voice.py`) and API setup use it too.
"""

from __future__ import annotations

from typing import TypeVar

from behave.model import Table
from behave.runner import Context

T = TypeVar("T")

# A reply waits on the runtime, the model (or its replay) and tools; a proposal on the decision
# model; a document on indexing. Longer than an ordinary UI assertion, the same for all of them.
LONG_WAIT_MS = 30_000


def need(value: T | None, hint: str) -> T:
    """`value`, which an earlier step was to give; when it did not, fail with `hint`: what the
    scenario lacks and the step (or run) that gives it."""
    if value is None:
        raise AssertionError(hint)
    return value


def data_table(context: Context) -> Table:
    """The data table under the current step."""
    table: Table | None = context.table
    if table is None:
        raise AssertionError("this step needs a data table under it in the feature file")
    return table


def doc_string(context: Context) -> str:
    """The doc string (between triple quotes) under the current step."""
    text = context.text
    if text is None:
        raise AssertionError("this step needs a doc string under it in the feature file")
    return text
