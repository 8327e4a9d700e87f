"""JUnit XML for CI: one test suite per feature file, plus a `lane` suite for lane-level failures.

Written from our results rather than by behave's reporter, so that a pooled or merged run gets
one report for the whole lane and a lane failure (leftovers, a dead worker) is a failed test.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable
from itertools import groupby
from pathlib import Path

from support.reports.model import LaneReport, ScenarioResult
from support.reports.redact import redact


def write_junit(report: LaneReport, folder: Path, *, secrets: Iterable[str] = ()) -> Path:
    known = list(secrets)
    root = ET.Element("testsuites", name=f"lane {report.run.lane}", time=f"{report.run.duration_s:.3f}")
    ordered = sorted(report.results, key=lambda result: (result.feature_path, result.line, result.attempt))
    for feature_path, group in groupby(ordered, key=lambda result: result.feature_path):
        results = list(group)
        suite = _suite(root, feature_path, results)
        for result in results:
            _case(suite, result, known)
    if report.lane_failures:
        _lane_suite(root, report, known)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{report.run.lane.replace('/', '-')}.xml"
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)
    return path


def _lane_suite(root: ET.Element, report: LaneReport, secrets: list[str]) -> None:
    """Lane failures are found once the scenarios ran (leftovers, a dead worker): they take no time
    of their own, and say so (`time="0.000"`), as readers that sum test times expect one."""
    count = str(len(report.lane_failures))
    suite = ET.SubElement(
        root, "testsuite", name="lane", tests=count, failures=count, errors="0", skipped="0", time="0.000"
    )
    for failure in report.lane_failures:
        case = ET.SubElement(suite, "testcase", classname="lane", name=failure.kind, time="0.000")
        text = failure.message + (f"\nFix: {failure.fix}" if failure.fix else "")
        message = redact(failure.message.splitlines()[0], secrets)
        element = ET.SubElement(case, "failure", message=message, type=failure.kind)
        element.text = redact(text, secrets)


def _failure_type(result: ScenarioResult) -> str:
    """The class of the exception that failed the scenario, else what failed it (`undefined`)."""
    step = result.failing_step()
    if step is None:
        return result.status
    return step.exception_type or step.status


def _suite(root: ET.Element, feature_path: str, results: list[ScenarioResult]) -> ET.Element:
    return ET.SubElement(
        root,
        "testsuite",
        name=feature_path,
        tests=str(len(results)),
        failures=str(sum(result.status == "failed" for result in results)),
        errors=str(sum(result.failed and result.status != "failed" for result in results)),
        skipped=str(sum(result.status in ("skipped", "untested") for result in results)),
        time=f"{sum(result.duration_s for result in results):.3f}",
    )


def _case(suite: ET.Element, result: ScenarioResult, secrets: list[str]) -> None:
    name = result.name if result.attempt == 1 else f"{result.name} (attempt {result.attempt})"
    case = ET.SubElement(
        suite,
        "testcase",
        classname=result.feature_name,
        name=name,
        time=f"{result.duration_s:.3f}",
        file=result.feature_path,
        line=str(result.line),
    )
    if result.status in ("skipped", "untested"):
        ET.SubElement(case, "skipped")
    elif result.failed:
        tag = "failure" if result.status == "failed" else "error"
        error = redact(result.error or result.status, secrets)
        first_line = error.splitlines()[0] if error else result.status
        element = ET.SubElement(case, tag, message=first_line, type=_failure_type(result))
        element.text = error
    steps = "\n".join(
        f"{step.status:>9} {step.keyword} {redact(step.name, secrets)} ({step.duration_s:.2f}s)"
        for step in result.steps
    )
    ET.SubElement(case, "system-out").text = steps
