"""A generated report.html, opened in headless Chromium: a failed scenario's evidence is visible."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from support.reports import LaneFailure, LaneReport, RunInfo, ScenarioResult, StepResult, write_lane_reports


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    page = browser.new_page()
    yield page
    page.close()


def report(folder: Path, screenshot: Path) -> Path:
    evidence = {
        "screenshot": screenshot,
        "trace": folder / "scenarios" / "agent" / "publish--x" / "trace.zip",
    }
    failed = ScenarioResult(
        "Publish", "features/agent/publish.feature", "Publishing says up to date", 12, ["@core"], "failed", 3.0,
        [
            StepResult("Given", "a basic configured agent has been created via API", "passed", 0.4, line=13),
            StepResult("When", "I publish the agent", "passed", 0.6, line=14),
            StepResult("Then", 'the publish bar shows "Published v1"', "failed", 2.0, "expected Published v1", line=15),
            StepResult("After", "cleanup", "failed", 0.0, "cleanup failed: agent 7: 500", hook=True),
        ],
        error="expected Published v1", evidence=evidence,
    )  # fmt: skip
    passed = ScenarioResult(
        "Roster", "features/agent/roster.feature", "The roster lists agents", 5, ["@core"], "passed", 1.0,
        [StepResult("Then", "the roster lists the agent", "passed", 1.0, line=6)],
    )  # fmt: skip
    failure = LaneFailure(
        "leftovers",
        "agent E2E-ab12-w1-x-1 (created by features/agent/roster.feature:5)",
        "register a cleanup",
    )
    run = RunInfo("pr", "ab12cd34", None, "2025-01-01T10:00:00+00:00", 4.0)
    write_lane_reports(LaneReport(run, [failed, passed], [failure]), folder)
    return folder / "report.html"


def test_a_failed_scenario_shows_its_screenshot_failing_step_trace_command_and_the_lane_failure(
    page: Page, tmp_path: Path
) -> None:
    page.set_content("<h1 style='color:red'>Save failed</h1>")
    page.screenshot(path=tmp_path / "screenshot.png")
    page.goto((report(tmp_path / "pr", tmp_path / "screenshot.png")).as_uri())

    lane = page.get_by_role("region", name="Lane failures (1)")
    expect(lane).to_be_visible()
    expect(lane).to_contain_text("leftovers")
    expect(lane).to_contain_text("created by features/agent/roster.feature:5")
    scenario = page.locator("details.scenario", has_text="Publishing says up to date")
    screenshot = scenario.get_by_role("img", name="Screenshot of Publishing says up to date at failure")
    expect(screenshot).to_be_visible()
    assert screenshot.evaluate("image => image.complete && image.naturalWidth > 0")
    failing = scenario.locator("li.step.bad", has_text='the publish bar shows "Published v1"')
    expect(failing).to_be_visible()
    expect(failing).to_have_css("background-color", "rgb(255, 245, 245)")
    expect(scenario.locator("li.step.hook", has_text="cleanup failed: agent 7: 500")).to_be_visible()
    bars = scenario.locator(".timeline .bar")
    expect(bars).to_have_count(4)
    assert bars.nth(2).evaluate("bar => bar.getBoundingClientRect().width") > bars.nth(0).evaluate(
        "bar => bar.getBoundingClientRect().width"
    )  # the 2 s step's bar is longer than the 0.4 s one's
    expect(scenario.locator("code.show-trace")).to_have_text(
        f".venv/bin/playwright show-trace {tmp_path / 'pr' / 'scenarios' / 'agent' / 'publish--x' / 'trace.zip'}"
    )
    passing = page.locator("details.scenario", has_text="The roster lists agents")
    page.get_by_role("button", name="Failed (1)").click()
    expect(passing).to_be_hidden()
    expect(scenario).to_be_visible()
