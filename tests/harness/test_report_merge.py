"""Lane reports: JUnit with lane failures, merging shards into one report, the lanes index."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from support.reports import (
    LaneFailure,
    LaneReport,
    RunInfo,
    ScenarioResult,
    StepResult,
    merge_reports,
    read_json,
    write_index,
    write_junit,
    write_lane_reports,
)
from support.reports.__main__ import main as reports_main


def run(shard: str | None = None, run_id: str = "r1") -> RunInfo:
    return RunInfo("pr", run_id, None, "2026-01-01T00:00:00+00:00", 10.0, workers=2, shard=shard)


def result(
    name: str, line: int, status: str = "passed", evidence: dict[str, Path] | None = None
) -> ScenarioResult:
    steps = [StepResult("Given", "it runs", status, 0.1, None if status == "passed" else "boom")]
    return ScenarioResult(
        "Demo", "features/agent/demo.feature", name, line, ("@core",), status, 1.0, steps,  # type: ignore[arg-type]
        error=None if status == "passed" else "boom", evidence=evidence or {},
    )  # fmt: skip


def test_junit_has_a_suite_per_feature_and_a_lane_suite_for_lane_failures(tmp_path: Path) -> None:
    failure = LaneFailure("leftovers", "agent E2E-r1-w1-x-1 left behind", "register a cleanup")
    report = LaneReport(run(), [result("A", 3), result("B", 9, "failed")], [failure])
    root = ET.parse(write_junit(report, tmp_path)).getroot()
    suites = {suite.get("name"): suite for suite in root.iter("testsuite")}
    assert set(suites) == {"features/agent/demo.feature", "lane"}
    feature = suites["features/agent/demo.feature"]
    assert (feature.get("tests"), feature.get("failures")) == ("2", "1")
    failed = feature.find("testcase[@name='B']/failure")
    assert failed is not None and failed.text == "boom"
    lane_case = suites["lane"].find("testcase[@name='leftovers']/failure")
    assert lane_case is not None and "Fix: register a cleanup" in (lane_case.text or "")
    assert lane_case.get("type") == "leftovers"
    assert suites["lane"].get("time") == "0.000"
    assert suites["lane"].find("testcase[@name='leftovers']").get("time") == "0.000"  # type: ignore[union-attr]


def test_junit_failures_and_errors_name_the_exception_class(tmp_path: Path) -> None:
    def failed(name: str, status: str, step_status: str, exception: str | None) -> ScenarioResult:
        step = StepResult("When", "it runs", step_status, 0.1, "boom", exception_type=exception)
        return ScenarioResult("Demo", "features/a.feature", name, 3, (), status, 1.0, [step], error="boom")  # type: ignore[arg-type]

    results = [
        failed("asserted", "failed", "failed", "AssertionError"),
        failed("raised", "error", "error", "KeyError"),
        failed("undefined", "error", "undefined", None),
    ]
    root = ET.parse(write_junit(LaneReport(run(), results), tmp_path)).getroot()
    types = {case.get("name"): (case[0].tag, case[0].get("type")) for case in root.iter("testcase")}
    assert types == {
        "asserted": ("failure", "AssertionError"),
        "raised": ("error", "KeyError"),
        "undefined": ("error", "undefined"),
    }


def test_merging_shards_counts_every_scenario_once_and_keeps_their_evidence(tmp_path: Path) -> None:
    for index, (name, line) in enumerate([("A", 3), ("B", 9)], start=1):
        folder = tmp_path / f"shard{index}" / "pr"
        evidence = folder / "scenarios" / "agent" / f"demo--{name.lower()}" / "screenshot.png"
        evidence.parent.mkdir(parents=True)
        evidence.write_bytes(b"png")
        write_lane_reports(
            LaneReport(
                run(f"{index}/2", f"r{index}"), [result(name, line, evidence={"screenshot": evidence})]
            ),
            folder,
        )
    out = tmp_path / "merged" / "pr"
    code = reports_main(
        ["merge", str(tmp_path / "shard1" / "pr"), str(tmp_path / "shard2" / "pr"), "--out", str(out)]
    )
    assert code == 0
    merged = read_json(out / "report.json")
    assert [r.name for r in merged.results] == ["A", "B"] and merged.lane_failures == ()
    assert merged.run.workers == 4 and merged.run.run_id == "r1,r2"
    assert all(r.evidence["screenshot"].is_file() for r in merged.results)  # paths still resolve
    assert (out / "report.html").is_file() and (out / "junit" / "pr.xml").is_file()
    assert 'href="pr/report.html"' in (tmp_path / "merged" / "index.html").read_text()


def test_merging_overlapping_or_empty_shards_fails(tmp_path: Path) -> None:
    same = merge_reports([LaneReport(run(), [result("A", 3)]), LaneReport(run(), [result("A", 3)])])
    assert [f.kind for f in same.lane_failures] == ["shard-overlap"] and same.failed
    empty = merge_reports([LaneReport(run(), []), LaneReport(run(), [])])
    assert [f.kind for f in empty.lane_failures] == ["zero-scenarios"]
    with pytest.raises(ValueError, match="different lanes"):
        merge_reports([LaneReport(run(), []), LaneReport(RunInfo("post-merge", "r", None, "t", 1.0), [])])


def test_the_merge_command_refuses_a_folder_without_a_report(tmp_path: Path) -> None:
    assert reports_main(["merge", str(tmp_path)]) == 2


def test_the_index_lists_every_lane_with_its_outcome(tmp_path: Path) -> None:
    write_lane_reports(LaneReport(run(), [result("A", 3)]), tmp_path / "pr")
    post = RunInfo("post-merge", "r1", None, "2026-01-01T00:01:00+00:00", 5.0)
    write_lane_reports(LaneReport(post, [result("B", 9, "failed")]), tmp_path / "post-merge")
    (tmp_path / "mutants").mkdir()
    (tmp_path / "mutants" / "report.json").write_text('{"wall_s": 1.0, "mutants": []}')  # no lane's
    html = write_index(tmp_path).read_text()
    assert 'href="pr/report.html">pr</a></td><td class="passed">passed' in html
    assert 'href="post-merge/report.html">post-merge</a></td><td class="FAILED">FAILED' in html
    # When and how long, as a person reads them (the ISO time stays machine-readable).
    assert '<time datetime="2026-01-01T00:01:00+00:00">2026-01-01 00:01:00 UTC</time>' in html
    assert '<td class="num">10.0s</td><td class="num">2</td>' in html
    assert "mutants" not in html
