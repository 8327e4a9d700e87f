"""A lane's report folder: write every report at once, merge shards, index the lanes of a run."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from urllib.parse import quote

from support.reports.cucumber_json import write_cucumber_json
from support.reports.cucumber_messages import write_cucumber_messages
from support.reports.html_report import render, write_html
from support.reports.json_report import write_json
from support.reports.junit_report import write_junit
from support.reports.model import LaneFailure, LaneReport, RunInfo
from support.reports.rerun import RERUN_FILE, write_rerun

CUCUMBER_MESSAGES = "cucumber-messages.ndjson"
CUCUMBER_JSON = "cucumber.json"


def write_lane_reports(report: LaneReport, folder: Path, *, secrets: Iterable[str] = ()) -> list[Path]:
    """report.json, report.html, junit/, rerun.txt, Cucumber Messages NDJSON and Cucumber JSON in
    `folder`; returns their paths for the summary."""
    known = list(secrets)
    write_json(report, folder / "report.json", secrets=known)
    write_html(report, folder / "report.html", secrets=known)
    write_junit(report, folder / "junit", secrets=known)
    write_rerun(report, folder / RERUN_FILE)
    write_cucumber_messages(report, folder / CUCUMBER_MESSAGES, secrets=known)
    write_cucumber_json(report, folder / CUCUMBER_JSON, secrets=known)
    names = ["report.json", "report.html", "junit", RERUN_FILE, CUCUMBER_MESSAGES, CUCUMBER_JSON]
    return [folder / name for name in names]


def publish_lane(
    report: LaneReport, folder: Path, artifacts_dir: Path, *, secrets: Iterable[str] = ()
) -> list[Path]:
    """A finished lane: its reports in `folder`, its rerun file also as `<artifacts>/rerun.txt`
    (the last lane's, what `make rerun` reads by default), and the index of every lane."""
    paths = write_lane_reports(report, folder, secrets=secrets)
    latest = artifacts_dir / RERUN_FILE
    if latest.resolve() != (folder / RERUN_FILE).resolve():
        shutil.copyfile(folder / RERUN_FILE, latest)  # a copy: CI artifact uploads drop symlinks
    write_index(artifacts_dir)
    return paths


def zero_scenarios_failure(lane: str) -> LaneFailure:
    return LaneFailure(
        "zero-scenarios",
        f"The lane executed zero scenarios (tags: {lane}). A lane that runs nothing proves nothing.",
        "check the tag expression and that the features carry the lane's tags: "
        f"`python -m support.lanes {lane} --dry-run` lists what it selects.",
    )


def merge_reports(reports: Sequence[LaneReport]) -> LaneReport:
    """One report for a lane run as shards; the zero-scenario gate applies to the whole."""
    if not reports:
        raise ValueError("nothing to merge: give at least one report folder")
    lanes = sorted({report.run.lane for report in reports})
    if len(lanes) > 1:
        raise ValueError(f"cannot merge reports of different lanes: {', '.join(lanes)}")
    results = sorted(
        (result for report in reports for result in report.results),
        key=lambda result: (result.feature_path, result.line, result.attempt),
    )
    failures = [failure for report in reports for failure in report.lane_failures]
    twice = [
        location
        for (location, _), count in Counter((r.location, r.attempt) for r in results).items()
        if count > 1
    ]
    if twice:
        failures.append(
            LaneFailure(
                "shard-overlap",
                f"{len(twice)} scenario(s) ran in more than one shard: {', '.join(sorted(twice))}",
                "shards must be disjoint: run every shard from the same commit and ci/durations.json",
            )
        )
    if not results:
        failures.append(zero_scenarios_failure(lanes[0]))
    first = min(reports, key=lambda report: report.run.started_at).run
    run = RunInfo(
        lane=first.lane,
        run_id=",".join(sorted({report.run.run_id for report in reports})),
        base_url=first.base_url,
        started_at=first.started_at,
        duration_s=max(report.run.duration_s for report in reports),  # shards run side by side
        stage_durations={},
        workers=sum(report.run.workers for report in reports),
        repeat=first.repeat,
        settings=first.settings,
        excluded=first.excluded,  # every shard counts the lane's whole selection
    )
    # A failure seen by two shards (e.g. the same leftover audit message) is reported once.
    definitions = [definition for report in reports for definition in report.definitions]
    run_hooks = [hook for report in reports for hook in report.run_hooks]  # each shard's own
    return LaneReport(run, results, list(dict.fromkeys(failures)), definitions, run_hooks)


def write_index(artifacts_dir: Path) -> Path:
    """artifacts/index.html: a link to every lane report in the folder, with its outcome and when
    it ran, in words a person reads."""
    lanes = []
    for path in sorted(artifacts_dir.glob("*/report.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        if "scenarios" not in document:
            continue  # not a lane's report: the mutation lane's kill table (artifacts/mutants/)
        statuses = Counter(scenario["status"] for scenario in document["scenarios"])
        failures = len(document.get("lane_failures", []))
        bad = failures or any(status not in ("passed", "skipped", "untested") for status in statuses)
        counts = ", ".join(f"{count} {status}" for status, count in sorted(statuses.items())) or "none ran"
        if failures:
            counts += f", {failures} lane failure(s)"
        run = document["run"]
        lanes.append(
            {
                "name": path.parent.name,
                "href": f"{quote(path.parent.name)}/report.html",
                "outcome": "FAILED" if bad else "passed",
                "counts": counts,
                "started_at": run["started_at"],
                "duration_s": run.get("duration_s", 0.0),
                "workers": run.get("workers", 1),
            }
        )
    index = artifacts_dir / "index.html"
    index.parent.mkdir(parents=True, exist_ok=True)
    index.write_text(render("index.html", lanes=lanes), encoding="utf-8")
    return index
