"""A correction to behave 1.3.3's result model, applied by `environment.py` (so by every run).

behave's `ScenarioOutline.compute_status` calls an outline whose examples are all *untested*
(what `--dry-run` leaves them) "passed"; a feature then sees a passed outline followed by an
untested scenario, reads it as an aborted run and reports the feature *failed*: `behave --dry-run`
printed "0 features passed, 1 failed" for any feature with an outline before a plain scenario.
An outline is untested exactly when none of its examples ran; that is what this says.
`tests/harness/test_behave_fixes.py` shows the bug on plain behave, so the day a release fixes it,
that test fails and this module can go.
"""

from __future__ import annotations

from collections.abc import Callable

from behave.model import ScenarioOutline
from behave.model_type import Status

_behave_outline_status: Callable[[ScenarioOutline], Status] = ScenarioOutline.compute_status


def _outline_status(outline: ScenarioOutline) -> Status:
    status: Status = _behave_outline_status(outline)
    examples = outline._scenarios  # behave's own compute_status reads them so, to avoid building them
    if status == Status.passed and examples and all(e.status == Status.untested for e in examples):
        return Status.untested
    return status


def apply() -> None:
    """Idempotent: environment.py is loaded once per behave process."""
    ScenarioOutline.compute_status = _outline_status  # type: ignore[method-assign]  # this module's one patch
