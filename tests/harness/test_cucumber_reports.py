"""Cucumber Messages NDJSON and Cucumber JSON, built from the lane report (merged shards too) and
parsed back with the `cucumber-messages` models."""

from __future__ import annotations

import json
import textwrap
from dataclasses import fields, replace
from pathlib import Path

import cucumber_messages as cm
import pytest

from support.reports import (
    Attachment,
    LaneFailure,
    LaneReport,
    RunInfo,
    ScenarioResult,
    StepResult,
    merge_reports,
)
from support.reports.cucumber_messages import read_cucumber_messages
from support.reports.lane import write_lane_reports

FEATURE = """
@core
Feature: Publish
  Background:
    Given a basic configured agent has been created via API

  Scenario: Publish shows up to date
    When I publish the agent
    Then the publish bar shows "Published"

  Scenario Outline: Publish <what>
    When I publish <what>

    Examples:
      | what  |
      | twice |
"""
PNG = b"\x89PNG\r\n\x1a\n fake"
RUN = RunInfo("pr", "ab12cd34", None, "2025-01-01T10:00:00+00:00", 9.0, workers=2)


def step(keyword: str, name: str, status: str, line: int, error: str | None = None) -> StepResult:
    return StepResult(keyword, name, status, 0.5, error, line=line)


@pytest.fixture
def results(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[ScenarioResult]:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "features" / "agent").mkdir(parents=True)
    (tmp_path / "features" / "agent" / "publish.feature").write_text(textwrap.dedent(FEATURE).lstrip())
    (tmp_path / "shot.png").write_bytes(PNG)
    setup = step("Given", "a basic configured agent has been created via API", "passed", 4)
    common = {"feature_name": "Publish", "feature_path": "features/agent/publish.feature", "tags": ["@core"]}
    return [
        ScenarioResult(
            **common, name="Publish shows up to date", line=6, status="failed", duration_s=1.5,
            steps=[
                setup,
                step("When", "I publish the agent", "passed", 7),
                step("Then", 'the publish bar shows "Published"', "failed", 8, "expected Published"),
                StepResult("After", "cleanup", "failed", 0.0, "cleanup failed: agent 1: 500", hook=True),
            ],
            error="expected Published", evidence={"screenshot": tmp_path / "shot.png"},
            started_at="2025-01-01T10:00:01+00:00", worker_id="w2",
        ),
        ScenarioResult(
            **common, name="Publish twice -- @1.1 ", line=15, status="passed", duration_s=1.0,
            steps=[setup, step("When", "I publish twice", "passed", 11)], started_at="2025-01-01T10:00:03+00:00",
        ),
        ScenarioResult(
            "Gone", "features/agent/gone.feature", "A scenario whose worker died", 3, [], "error", 0.0, [],
            error="worker w1 was killed",
        ),
    ]  # fmt: skip


def written(report: LaneReport, folder: Path) -> list[cm.Envelope]:
    write_lane_reports(report, folder)
    return read_cucumber_messages(folder / "cucumber-messages.ndjson")


def of(envelopes: list[cm.Envelope], kind: str) -> list:  # type: ignore[type-arg]
    return [getattr(envelope, kind) for envelope in envelopes if getattr(envelope, kind) is not None]


def test_every_line_is_one_envelope_that_parses_back(tmp_path: Path, results: list[ScenarioResult]) -> None:
    envelopes = written(LaneReport(RUN, results, [LaneFailure("leftovers", "agent x left")]), tmp_path / "pr")
    for envelope in envelopes:
        assert sum(getattr(envelope, f.name) is not None for f in fields(envelope)) == 1
    kinds = [next(f.name for f in fields(e) if getattr(e, f.name) is not None) for e in envelopes]
    assert kinds[:4] == ["meta", "source", "gherkin_document", "pickle"]
    assert kinds.count("test_case") == 3 and kinds[-1] == "test_run_finished"
    [finished] = of(envelopes, "test_run_finished")
    assert finished.success is False and "[leftovers] agent x left" in finished.message


def test_test_cases_point_at_their_pickles_and_the_screenshot_at_the_failing_step(
    tmp_path: Path, results: list[ScenarioResult]
) -> None:
    envelopes = written(LaneReport(RUN, results), tmp_path / "pr")
    pickles = {pickle.id: pickle for pickle in of(envelopes, "pickle")}
    cases = of(envelopes, "test_case")
    for case in cases:
        steps = {s.id for s in pickles[case.pickle_id].steps}
        assert all(t.pickle_step_id in steps for t in case.test_steps if t.hook_id is None)
    failed_case = cases[0]
    assert pickles[failed_case.pickle_id].name == "Publish shows up to date"
    assert pickles[cases[1].pickle_id].name == "Publish twice"  # the outline's example, from the feature file
    hooks = {hook.id: hook for hook in of(envelopes, "hook")}
    assert [t.hook_id and hooks[t.hook_id].name for t in failed_case.test_steps] == [
        None,
        None,
        None,
        "cleanup",
    ]
    finished = {f.test_step_id: f.test_step_result for f in of(envelopes, "test_step_finished")}
    statuses = [finished[t.id].status for t in failed_case.test_steps]
    assert statuses == [cm.TestStepResultStatus.passed] * 2 + [cm.TestStepResultStatus.failed] * 2
    [attachment] = of(envelopes, "attachment")
    assert attachment.test_step_id == failed_case.test_steps[2].id and attachment.media_type == "image/png"
    [hook] = hooks.values()
    assert (hook.name, hook.type) == ("cleanup", cm.HookType.after_test_case)
    started = {s.test_case_id: s for s in of(envelopes, "test_case_started")}
    assert (started[failed_case.id].worker_id, started[failed_case.id].timestamp.seconds) == (
        "w2",
        1735725601,
    )


def test_a_merged_report_of_shards_gets_both_formats(tmp_path: Path, results: list[ScenarioResult]) -> None:
    merged = merge_reports([LaneReport(RUN, results[:1]), LaneReport(RUN, results[1:])])
    envelopes = written(merged, tmp_path / "merged")
    assert len(of(envelopes, "test_case")) == 3
    features = json.loads((tmp_path / "merged" / "cucumber.json").read_text())
    publish = next(feature for feature in features if feature["uri"] == "features/agent/publish.feature")
    assert (publish["keyword"], publish["line"], publish["tags"]) == (
        "Feature",
        2,
        [{"name": "@core", "line": 1}],
    )
    failed = next(element for element in publish["elements"] if element["line"] == 6)
    assert [s["result"]["status"] for s in failed["steps"]] == ["passed", "passed", "failed"]
    assert failed["steps"][2]["embeddings"][0]["mime_type"] == "image/png"
    assert failed["steps"][2]["result"]["duration"] == 500_000_000
    assert failed["after"][0]["result"] == {
        "status": "failed",
        "duration": 0,
        "error_message": "cleanup failed: agent 1: 500",
    }


def test_a_step_says_what_failed_it_and_the_other_evidence_is_linked_once(
    tmp_path: Path, results: list[ScenarioResult]
) -> None:
    traceback = "Traceback (most recent call last):\n  File \"steps/x.py\", line 3, in f\nKeyError: 'agent'\n"
    failing = StepResult(
        "Then",
        'the publish bar shows "Published"',
        "error",
        0.5,
        traceback,
        line=8,
        exception_type="KeyError",
    )
    trace = tmp_path / "trace.zip"
    trace.write_bytes(b"zip")
    evidence = {**results[0].evidence, "trace": trace}
    steps = [*results[0].steps[:2], failing, results[0].steps[3]]
    report = LaneReport(RUN, [replace(results[0], steps=steps, evidence=evidence)])
    envelopes = written(report, tmp_path / "pr")
    [case] = of(envelopes, "test_case")
    finished = {f.test_step_id: f.test_step_result for f in of(envelopes, "test_step_finished")}
    exception = finished[case.test_steps[2].id].exception
    assert (exception.type, exception.message) == ("KeyError", "KeyError: 'agent'")
    where = {(a.test_step_id, a.media_type, a.url) for a in of(envelopes, "attachment")}
    assert where == {
        (case.test_steps[2].id, "image/png", None),  # the screenshot, inline, on the failing step
        (case.test_steps[3].id, "application/zip", "../trace.zip"),  # by reference, on the last entry
    }
    [case_finished] = of(envelopes, "test_case_finished")
    last = max(f.timestamp.seconds + f.timestamp.nanos / 1e9 for f in of(envelopes, "test_step_finished"))
    assert case_finished.timestamp.seconds + case_finished.timestamp.nanos / 1e9 == pytest.approx(last)


def test_cucumber_json_has_before_hooks_step_locations_and_attachments(
    tmp_path: Path, results: list[ScenarioResult]
) -> None:
    before = StepResult("Before", "before_scenario", "passed", 0.1, hook=True, source="support/hooks.py:215")
    note = Attachment("text/plain", "hello")
    first, *rest = results[1].steps
    attaching = replace(first, source="steps/agent_setup.py:12", attachments=[note])
    write_lane_reports(
        LaneReport(RUN, [replace(results[1], steps=[before, attaching, *rest])]), tmp_path / "pr"
    )
    [feature] = json.loads((tmp_path / "pr" / "cucumber.json").read_text())
    [element] = feature["elements"]
    assert element["before"] == [
        {
            "match": {"location": "support/hooks.py:215"},
            "result": {"status": "passed", "duration": 100_000_000},
        }
    ]
    step = element["steps"][0]
    assert step["match"] == {"location": "steps/agent_setup.py:12"}
    assert step["embeddings"] == [{"mime_type": "text/plain", "data": "aGVsbG8="}]


def test_cucumber_json_ids_are_unicode_safe_and_distinct(
    tmp_path: Path, results: list[ScenarioResult]
) -> None:
    chinese = [
        replace(results[1], feature_name="保存智能体", name="保存草稿", line=5),
        replace(results[1], feature_name="保存智能体", name="发布草稿", line=9),
    ]
    write_lane_reports(LaneReport(RUN, chinese), tmp_path / "pr")
    [feature] = json.loads((tmp_path / "pr" / "cucumber.json").read_text())
    ids = [element["id"] for element in feature["elements"]]
    assert feature["id"].startswith("保存智能体")
    assert len(set(ids)) == 2 and all(
        id_.startswith(feature["id"] + ";") and len(id_) > len(feature["id"]) + 1 for id_ in ids
    )
