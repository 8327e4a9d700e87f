"""Report writers: JSON round-trips, HTML is self-contained with evidence, secrets are redacted."""

from __future__ import annotations

import base64
import re
from dataclasses import replace
from pathlib import Path

import pytest

from support.reports import (
    Attachment,
    Definition,
    LaneFailure,
    LaneReport,
    RunInfo,
    ScenarioResult,
    StepResult,
    read_json,
    redact,
    summary_text,
    write_html,
    write_json,
)

PNG = b"\x89PNG\r\n\x1a\n fake screenshot bytes"
RUN = RunInfo(
    lane="@core",
    run_id="ab12cd34",
    base_url="http://127.0.0.1:43121",
    started_at="2025-01-01T10:00:00+00:00",
    duration_s=42.5,
    stage_durations={"console start": 1.25, "browser launch": 0.5},
)


def results(evidence_dir: Path, error: str = "AssertionError: expected Saved") -> list[ScenarioResult]:
    return [
        ScenarioResult(
            feature_name="Roster",
            feature_path="features/agent/roster.feature",
            name="Create an agent",
            line=7,
            tags=["@core"],
            status="passed",
            duration_s=1.5,
            steps=[StepResult("Given", "a basic configured agent has been created via API", "passed", 0.2)],
        ),
        ScenarioResult(
            feature_name="Configure",
            feature_path="features/agent/configure.feature",
            name="Refresh keeps instructions",
            line=12,
            tags=["@core"],
            status="failed",
            duration_s=3.0,
            steps=[
                StepResult("Given", "a basic configured agent has been created via API", "passed", 0.2),
                StepResult("Then", "the configuration should be saved automatically", "failed", 2.5, error),
                StepResult("And", "the instructions are shown", "skipped", 0.0),
            ],
            error=error,
            evidence={
                "screenshot": evidence_dir / "screenshot.png",
                "trace": evidence_dir / "trace.zip",
                "html": evidence_dir / "page.html",
                "console": evidence_dir / "console.log",
            },
        ),
    ]


@pytest.fixture
def evidence_dir(tmp_path: Path) -> Path:
    directory = tmp_path / "artifacts" / "scenarios" / "refresh-keeps-instructions"
    directory.mkdir(parents=True)
    (directory / "screenshot.png").write_bytes(PNG)
    return directory


def test_json_round_trips(tmp_path: Path, evidence_dir: Path) -> None:
    path = tmp_path / "artifacts" / "report.json"
    written = results(evidence_dir)
    failures = [LaneFailure("leftovers", "agent E2E-x left behind", "register a cleanup")]
    definitions = [
        Definition("step", "I publish {string}", "steps/publish.py:12"),
        Definition("step", "a (.*) step", "steps/any.py:3", regex=True),
        Definition("before", "before_scenario", "support/hooks.py:215"),
        Definition("parameter-type", "flight", "steps/flights.py:9", patterns=["([A-Z]{3})-([A-Z]{3})"]),
    ]
    written[1] = replace(
        written[1],
        steps=[
            replace(
                step,
                exception_type="AssertionError",
                source="steps/x.py:4",
                attachments=[Attachment("text/plain", "hi")],
            )
            for step in written[1].steps
        ],
    )
    write_json(LaneReport(RUN, written, failures, definitions), path)
    assert read_json(path) == LaneReport(RUN, written, failures, definitions)


def test_html_is_self_contained_with_embedded_screenshot(tmp_path: Path, evidence_dir: Path) -> None:
    path = tmp_path / "artifacts" / "report.html"
    write_html(LaneReport(RUN, results(evidence_dir)), path)
    html = path.read_text()
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html, re.IGNORECASE)
    assert "<link" not in html and "@import" not in html and "url(" not in html
    assert f'src="data:image/png;base64,{base64.b64encode(PNG).decode()}"' in html


def test_html_links_evidence_relative_to_the_report(tmp_path: Path, evidence_dir: Path) -> None:
    path = tmp_path / "artifacts" / "report.html"
    write_html(LaneReport(RUN, results(evidence_dir)), path)
    html = path.read_text()
    assert 'href="scenarios/refresh-keeps-instructions/trace.zip"' in html
    assert f".venv/bin/playwright show-trace {evidence_dir / 'trace.zip'}" in html
    assert 'href="scenarios/refresh-keeps-instructions/page.html"' in html
    assert 'href="scenarios/refresh-keeps-instructions/console.log"' in html


def test_html_summary_filters_and_expanded_failures(tmp_path: Path, evidence_dir: Path) -> None:
    path = tmp_path / "report.html"
    write_html(LaneReport(RUN, results(evidence_dir)), path)
    html = path.read_text()
    assert '<span class="count passed">1 passed</span> <span class="count failed">1 failed</span>' in html
    assert 'data-filter="all" aria-pressed="true">All (2)' in html
    assert 'data-filter="failed" aria-pressed="false">Failed (1)' in html
    passed, failed = re.findall(r"<details[^>]*>", html)
    assert " open" not in passed and 'data-failed="false"' in passed
    assert failed.endswith(" open>") and 'data-failed="true"' in failed
    assert "Failing step: <code>Then the configuration should be saved automatically</code>" in html
    assert "AssertionError: expected Saved" in html


def test_html_escapes_text(tmp_path: Path, evidence_dir: Path) -> None:
    path = tmp_path / "report.html"
    write_html(LaneReport(RUN, results(evidence_dir, error="<script>alert(1)</script>")), path)
    html = path.read_text()
    assert "<script>alert(1)" not in html and "&lt;script&gt;alert(1)" in html


def test_html_notes_a_missing_screenshot(tmp_path: Path, evidence_dir: Path) -> None:
    (evidence_dir / "screenshot.png").unlink()
    path = tmp_path / "report.html"
    write_html(LaneReport(RUN, results(evidence_dir)), path)
    assert "Screenshot missing" in path.read_text()


SECRET_ERROR = (
    "login failed for password hunter2-secret; key app-ABCDEFGHIJKLMNOPQRST rejected; "
    "provider said sk-proj_12345678; header Authorization: Bearer eyJhbGciOi.payload.sig"
)
LEAKS = ("hunter2-secret", "app-ABCDEFGHIJKLMNOPQRST", "sk-proj_12345678", "eyJhbGciOi")
# What the run knows: the password, and the keys a scenario was shown or configured.
KNOWN = {"hunter2-secret", "app-ABCDEFGHIJKLMNOPQRST", "sk-proj_12345678"}


def test_writers_redact_errors(tmp_path: Path, evidence_dir: Path) -> None:
    written = results(evidence_dir, error=SECRET_ERROR)
    write_json(LaneReport(RUN, written), tmp_path / "report.json", secrets=KNOWN)
    write_html(LaneReport(RUN, written), tmp_path / "report.html", secrets=KNOWN)
    for name in ("report.json", "report.html"):
        text = (tmp_path / name).read_text()
        assert "[REDACTED]" in text
        for leak in LEAKS:
            assert leak not in text, (name, leak)


def test_redact_known_secrets_and_patterns() -> None:
    assert redact(SECRET_ERROR, KNOWN) == (
        "login failed for password [REDACTED]; key [REDACTED] rejected; "
        "provider said [REDACTED]; header Authorization: Bearer [REDACTED]"
    )


def test_redact_replaces_the_longest_secret_whole_and_ignores_empty_ones() -> None:
    assert redact("token abcdef", ["abc", "abcdef", ""]) == "token [REDACTED]"


def test_redact_leaves_ordinary_words_alone() -> None:
    text = "webapp-configuration-settings task-management-01 app-short sk-1"
    assert redact(text, []) == text


def test_summary_counts_failures_and_reports(evidence_dir: Path) -> None:
    text = summary_text(LaneReport(RUN, results(evidence_dir)), reports=[Path("artifacts/report.html")])
    assert text.splitlines() == [
        "lane @core (run ab12cd34): 2 scenarios: 1 passed, 1 failed in 42.5s",
        "failed:",
        "  features/agent/configure.feature:12 Refresh keeps instructions",
        "reports: artifacts/report.html",
    ]


def test_summary_of_an_empty_lane() -> None:
    assert summary_text(LaneReport(RUN, [])) == "lane @core (run ab12cd34): 0 scenarios: none ran in 42.5s"


def test_html_shows_a_step_error_once_unless_it_differs(tmp_path: Path, evidence_dir: Path) -> None:
    written = results(evidence_dir, error="AssertionError: expected Saved")
    write_html(LaneReport(RUN, written), tmp_path / "same.html")
    assert (tmp_path / "same.html").read_text().count("AssertionError: expected Saved") == 1
    hygiene = [
        *written[:1],
        replace(written[1], error="AssertionError: expected Saved\nuncaught page error: boom"),
    ]
    write_html(LaneReport(RUN, hygiene), tmp_path / "differs.html")
    html = (tmp_path / "differs.html").read_text()
    assert html.count("AssertionError: expected Saved") == 2 and "uncaught page error: boom" in html


def test_attachments_are_inline_and_their_text_redacted(tmp_path: Path, evidence_dir: Path) -> None:
    note = Attachment("text/plain", f"signed in with {SECRET_ERROR}")
    image = Attachment("image/png", base64.b64encode(PNG).decode(), "base64", "shot.png")
    step = StepResult("When", "it attaches", "passed", 0.1, attachments=[note, image])
    written = [replace(results(evidence_dir)[0], steps=[step])]
    write_html(LaneReport(RUN, written), tmp_path / "report.html", secrets=KNOWN)
    write_json(LaneReport(RUN, written), tmp_path / "report.json", secrets=KNOWN)
    html = (tmp_path / "report.html").read_text()
    assert f'src="data:image/png;base64,{base64.b64encode(PNG).decode()}"' in html
    assert "signed in with login failed for password [REDACTED]" in html
    [kept] = read_json(tmp_path / "report.json").results
    assert kept.steps[0].attachments[1] == image  # bytes are kept whole
    for text in (html, (tmp_path / "report.json").read_text()):
        assert not any(leak in text for leak in LEAKS)
