"""The Cucumber Compatibility Kit (`cucumber-compatibility-kit`, the samples cucumber-js and
cucumber-jvm are held to), run with behave through the lanes' own report writers.

Each sample the suite can express is a test: its feature files and Python step definitions
equivalent to the kit's reference ones (tests/cck/steps/<sample>.py) run in a behave process whose
environment records the run as a lane does (tests/cck/environment.py), and the lane's
`cucumber-messages.ndjson` must match the sample's messages the way the kit prescribes
(tests/cck/compare.py): types, counts and partial order, statuses, exception classes,
attachments; not ids, times or URIs. The stream rebuilt from the run's `report.json` (how a
merged report of shards gets its messages) must match too.

The samples left out, and why, are `LEFT_OUT`; a kit release with a new sample fails
`test_every_sample_is_run_or_left_out_with_a_reason` until it is one or the other.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import cucumber_messages as cm
import pytest
from cucumber_compatibility_kit import CompatibilityKit

from support.reports import read_json
from support.reports.cucumber_messages import envelopes
from tests.cck.compare import order_problems, shape

ROOT = Path(__file__).resolve().parents[2]
STEPS = ROOT / "tests" / "cck" / "steps"
KIT = CompatibilityKit()
_AMBIGUOUS = (
    "has an ambiguous step: behave runs the first definition that matches a step and has no "
    "ambiguous status (`make lint` reports overlapping sentences before a run instead)"
)
_BACKTICKS = 'doc strings delimited by ```: behave\'s parser accepts only """'
_RETRY = (
    "retries a failed scenario: the lanes never retry (a flaky scenario must fail; --repeat N runs "
    "each N times to find one), so no report row is 'to be retried'; behave's contrib autoretry "
    "reruns a scenario whatever made it fail, pending and undefined too, which the kit does not retry"
)
LEFT_OUT = {
    "ambiguous": _AMBIGUOUS,
    "all-statuses": _AMBIGUOUS,
    "failedish-combinations": _AMBIGUOUS,
    "retry-ambiguous": _AMBIGUOUS,
    "retry": _RETRY,
    "retry-pending": _RETRY,
    "retry-undefined": _RETRY,
    "markdown": "Markdown with Gherkin (.feature.md): behave parses only .feature files",
    "doc-strings": _BACKTICKS,
    "data-tables-doc-strings": (
        "a doc string after a table: behave keeps that doc string's indentation ('      world'), "
        "so the reference step's equality fails"
    ),
    "hooks-skipped": (
        "a scenario description line starting with 'but': behave's parser reads it as a But step "
        "and refuses the feature"
    ),
    "multiple-features-reversed": (
        "--order reverse: behave runs a feature's scenarios in file order (a lane orders scenarios "
        "itself, longest first, through the worker pool)"
    ),
    "skipped-exception": (
        "skips a step by raising an exception: behave skips only through `scenario.skip()`, and an "
        "exception other than an assertion or StepNotImplementedError is an error"
    ),
    "unknown-parameter-type": (
        "a step expression naming an unknown parameter type: behave refuses to load the step "
        "module, so the run stops before any step could be undefined"
    ),
    "test-run-exception": (
        "an exception in the runner itself (fake-cucumber's --error): behave has no such switch; a "
        "lane's own equivalent, a lane failure, ends testRunFinished (test_cucumber_reports.py)"
    ),
    "global-hooks-beforeall-error": (
        "a failing BeforeAll hook: behave then runs no scenario, and a lane's report holds the "
        "pickles of the scenarios that ran, so its stream lacks the pickle the kit's has"
    ),
}
# A sample run with its feature files changed, and why the change does not touch what it checks.
ADAPTED = {
    "attachments": (
        'its one ``` doc string is delimited with """ (behave parses only those): the sample checks '
        "attachments, and the messages compared do not include the Gherkin document's delimiters"
    ),
}
SAMPLES = sorted(folder.name for folder in KIT.cck_features_folder_location.iterdir() if folder.is_dir())
RUN = [sample for sample in SAMPLES if sample not in LEFT_OUT]


def test_every_sample_is_run_or_left_out_with_a_reason() -> None:
    with_steps = {path.stem.replace("_", "-") for path in STEPS.glob("*.py")}
    assert set(RUN) <= with_steps, "write step definitions for these, or leave them out with a reason"
    assert not set(LEFT_OUT) & with_steps
    assert set(LEFT_OUT) <= set(SAMPLES), "left out, yet no longer in the kit"
    arguments = {
        folder.name: path.read_text().strip()
        for folder in KIT.cck_features_folder_location.iterdir()
        for path in folder.glob("*.arguments.txt")
        if folder.name in RUN
    }
    assert arguments == {}, "a sample run has arguments now: express them in `run_sample`"


def run_sample(sample: str, folder: Path) -> Path:
    """The sample's features and steps in `folder`, run by behave; returns the report folder."""
    source = KIT.feature_code_for(sample)
    features = folder / "features"
    (features / "steps").mkdir(parents=True)
    names = sorted(path.name for path in source.glob("*.feature"))
    for name in names:
        text = (source / name).read_text(encoding="utf-8")
        if sample in ADAPTED:
            text = text.replace("```", '"""')
        (features / name).write_text(text, encoding="utf-8")
    step_module = STEPS / f"{sample.replace('-', '_')}.py"
    (features / "steps" / step_module.name).write_text(step_module.read_text())
    (features / "environment.py").write_text("from tests.cck.environment import *  # noqa: F403\n")
    report_dir = folder / "report"
    command = [sys.executable, "-m", "behave", *(f"features/{name}" for name in names)]
    command += ["-D", f"report_dir={report_dir}", "--format", "null", "--no-summary", "--no-snippets"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    # A sample fails on purpose (failed, pending, undefined steps): its exit code says nothing here.
    ran = subprocess.run(
        command, check=False, cwd=folder, env=env, capture_output=True, text=True, timeout=120
    )
    assert (report_dir / "cucumber-messages.ndjson").is_file(), ran.stdout + ran.stderr
    assert "Traceback" not in ran.stdout + ran.stderr, ran.stdout + ran.stderr  # behave itself did not crash
    return report_dir


def read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


@pytest.mark.parametrize("sample", RUN)
def test_the_lane_messages_of_a_sample_are_the_kits(
    sample: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    report_dir = run_sample(sample, tmp_path)
    actual = read(report_dir / "cucumber-messages.ndjson")
    [expected_path] = KIT.feature_code_for(sample).glob("*.ndjson")
    expected = read(expected_path)
    assert order_problems(actual) == []
    assert shape(actual) == shape(expected, reference=True)
    for envelope in actual:  # each line is an Envelope of the pinned cucumber-messages models
        cm.message_converter.from_dict(envelope, cm.Envelope)
    monkeypatch.chdir(tmp_path)  # where the feature files are, as for a merge of shards
    rebuilt = [cm.message_converter.to_dict(e) for e in envelopes(read_json(report_dir / "report.json"))]
    assert shape(rebuilt) == shape(actual)
