"""A generated report.html, opened in headless Chromium: a failed scenario's evidence is visible;
scenarios are grouped by feature and found by text, tag and status; the timeline shows each
worker's scenarios where and as long as they ran; attachments show inline."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from support.reports import (
    Attachment,
    LaneFailure,
    LaneReport,
    RunInfo,
    ScenarioResult,
    StepResult,
    write_lane_reports,
)


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


def lane(folder: Path, png: bytes) -> Path:
    """Four scenarios of two feature files on two workers, one attaching an image and a note."""

    def scenario(
        feature: str, name: str, line: int, status: str, start: float, took: float, **kw: object
    ) -> ScenarioResult:
        steps = kw.pop("steps", None) or [StepResult("Given", f"{name} runs", status, took, line=line + 1)]
        return ScenarioResult(
            feature.title(), f"features/{feature}.feature", name, line, kw.pop("tags", ["core"]), status, took,  # type: ignore[arg-type]
            steps, error=None if status == "passed" else "boom", worker_id=str(kw.pop("worker")),
            started_at=f"2025-01-01T10:00:{start:06.3f}+00:00",
        )  # fmt: skip

    attached = [
        StepResult("Before", "before_scenario", "passed", 0.1, hook=True, source="support/hooks.py:215"),
        StepResult(
            "When", "a screenshot is attached", "passed", 0.5, line=4,
            attachments=[
                Attachment("image/png", base64.b64encode(png).decode(), "base64"),
                Attachment("text/plain", "a note for the reader"),
            ],
        ),
    ]  # fmt: skip
    results = [
        scenario("cart", "Adding shows the item", 3, "passed", 1, 2.0, worker="w1", steps=attached),
        scenario("cart", "Checkout is slow", 9, "failed", 1, 6.0, worker="w2", tags=["core", "slow"]),
        scenario("search", "Searching finds pencils", 3, "passed", 3.5, 1.0, worker="w1"),
        scenario("search", "Searching for nothing", 8, "skipped", 5, 0.5, worker="w1"),
    ]
    run = RunInfo("pr", "ab12cd34", None, "2025-01-01T10:00:00+00:00", 8.0, workers=2)
    write_lane_reports(LaneReport(run, results), folder)
    return folder / "report.html"


def test_scenarios_are_grouped_by_feature_and_found_by_text_tag_and_status(
    page: Page, tmp_path: Path
) -> None:
    page.set_content("<p>hi</p>")
    page.goto(lane(tmp_path / "pr", page.screenshot()).as_uri())
    scenarios = page.get_by_role("region", name="Scenarios")
    expect(scenarios.locator("section.feature h3")).to_have_count(2)
    cart = scenarios.locator("section.feature", has=page.get_by_text("features/cart.feature", exact=True))
    expect(cart.locator("details.scenario")).to_have_count(2)
    shown = page.locator("output[name=shown]")
    page.get_by_role("searchbox", name="Search").fill("pencils")
    expect(page.locator("details.scenario:visible")).to_have_count(1)
    expect(page.locator("details.scenario:visible")).to_contain_text("Searching finds pencils")
    expect(cart).to_be_hidden()  # no scenario of it is shown
    expect(shown).to_have_text("1 of 4 scenarios shown")
    page.get_by_role("searchbox", name="Search").fill("")
    page.get_by_label("Tag").select_option("@slow")
    expect(page.locator("details.scenario:visible")).to_have_count(1)
    page.get_by_label("Tag").select_option("")
    page.get_by_role("checkbox", name="passed (2)").uncheck()
    expect(page.locator("details.scenario:visible")).to_have_count(2)
    expect(shown).to_have_text("2 of 4 scenarios shown")


def test_the_timeline_has_a_row_per_worker_and_attachments_show_inline(page: Page, tmp_path: Path) -> None:
    page.set_content("<p>hi</p>")
    page.goto(lane(tmp_path / "pr", page.screenshot()).as_uri())
    timeline = page.get_by_role("region", name="Timeline")
    w1, w2 = (
        timeline.get_by_role("list", name="Scenarios of w1"),
        timeline.get_by_role("list", name="Scenarios of w2"),
    )
    expect(w1.get_by_role("listitem")).to_have_count(3)
    expect(w2.get_by_role("listitem")).to_have_count(1)
    lane_box = w2.bounding_box()
    slow = w2.get_by_role("listitem").bounding_box()
    assert lane_box and slow
    # Checkout started 1 s into an 8 s lane and took 6 s: from 1/8 of the row for 6/8 of it.
    assert abs((slow["x"] - lane_box["x"]) / lane_box["width"] - 1 / 8) < 0.02
    assert abs(slow["width"] / lane_box["width"] - 6 / 8) < 0.02
    rows = page.get_by_role("region", name="Slowest scenarios").get_by_role("row")
    expect(rows.nth(1)).to_contain_text("Checkout is slow")  # after the header row, slowest first
    expect(rows.nth(2)).to_contain_text("Adding shows the item")
    w1.get_by_role("listitem").first.click()
    scenario = page.locator("details.scenario", has_text="Adding shows the item")
    expect(scenario).to_have_attribute("open", "")
    image = scenario.get_by_role("img", name="image/png")
    expect(image).to_be_visible()
    assert image.evaluate("image => image.complete && image.naturalWidth > 0")
    expect(scenario.locator("pre.attached")).to_have_text("a note for the reader")
    expect(scenario.locator("li.step.hook", has_text="before_scenario")).to_be_visible()
