"""What step bodies share that is neither a page object nor API setup.

- `need(value, hint)`: what an earlier step must have given (a resolved fixture, "the agent", a
  held request, the replay server), or an AssertionError whose hint names the step that gives it;
- `LONG_WAIT_MS`: how long an assertion (or a page object's in-page wait) waits on the product's
  slow work: a reply from the runtime and the model (or its replay), a build assistant proposal,
  a transcription, indexing. Every other wait is `E2E_TIMEOUT_MS` (Playwright's default here).

It imports nothing of the suite: page objects (`support/ui/voice.py`) and API setup use it too.
"""

from __future__ import annotations

from typing import TypeVar

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
