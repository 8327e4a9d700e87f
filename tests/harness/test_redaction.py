"""Redaction by value: known secrets anywhere, key-shaped values only where they are values."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support.reports import (
    LaneFailure,
    LaneReport,
    RunInfo,
    ScenarioResult,
    StepResult,
    redact,
    write_lane_reports,
)

# A feature and a scenario named like API keys: `app-` and `sk-` followed by 16+ name characters.
FEATURE_PATH = "features/agent/runtime-web-app-answers-typed-questions.feature"
SCENARIO = "app-store-connect-integration-is-listed with sk-learn-pipelines-enabled"
KNOWN_KEY = "app-Zq81KmN0pLx7RtY2vB4c"  # shown once to the scenario: the run knows it


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Authorization: Bearer eyJhbGciOi.payload.sig", "Authorization: Bearer [REDACTED]"),
        ("Authorization: Basic dXNlcjpwYXNz", "Authorization: Basic [REDACTED]"),
        ('{"api_key": "app-ABCDEFGHIJKLMNOPQRST"}', '{"api_key": "[REDACTED]"}'),
        ('{"name": "app-ABCDEFGHIJKLMNOPQRST"}', '{"name": "[REDACTED]"}'),
        ("GET /search?key=sk-proj_12345678&q=x", "GET /search?key=[REDACTED]&q=x"),
        ("token: app-ABCDEFGHIJKLMNOPQRST", "token: [REDACTED]"),
        ("x-api-key: abcdef123 password=hunter2", "x-api-key: [REDACTED] password=[REDACTED]"),
        ("Cookie: session=abc123; theme=dark", "Cookie: [REDACTED]; theme=dark"),
    ],
)
def test_values_in_credential_positions_are_redacted(text: str, expected: str) -> None:
    assert redact(text, []) == expected


@pytest.mark.parametrize(
    "text",
    [
        f"{FEATURE_PATH}:12",
        "artifacts/post-merge/scenarios/agent/runtime-web-app--app-store-connect-integration-is-listed/",
        SCENARIO,
        "prompt_tokens: 12, max_tokens=1024, sort_key=name, monkey: banana",
    ],
)
def test_key_shapes_inside_paths_and_names_survive(text: str) -> None:
    assert redact(text, []) == text


def test_a_known_secret_is_redacted_anywhere() -> None:
    assert redact(f"the page showed {KNOWN_KEY}.", [KNOWN_KEY]) == "the page showed [REDACTED]."


def test_every_writer_keeps_a_key_like_feature_path_and_drops_the_secrets(tmp_path: Path) -> None:
    error = f"the key {KNOWN_KEY} was refused; request header Authorization: Bearer tok.en.value"
    result = ScenarioResult(
        feature_name="app-store-connect-integrations-feature",
        feature_path=FEATURE_PATH,
        name=SCENARIO,
        line=7,
        tags=["@core"],
        status="failed",
        duration_s=1.0,
        steps=[StepResult("Then", f'the page shows "{KNOWN_KEY}"', "failed", 1.0, error, line=9)],
        error=error,
    )
    run = RunInfo("pr", "ab12cd34", None, "2025-01-01T10:00:00+00:00", 1.0)
    failure = LaneFailure("leftovers", f"agent E2E-ab12cd34-w1-x-1 (created by {FEATURE_PATH}:7)")
    paths = write_lane_reports(LaneReport(run, [result], [failure]), tmp_path, secrets=[KNOWN_KEY])
    files = [path for written in paths for path in (written.rglob("*") if written.is_dir() else [written])]
    assert {path.name for path in files} >= {"report.json", "report.html", "pr.xml", "rerun.txt"}
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert KNOWN_KEY not in text and "tok.en.value" not in text, path
        assert "runtime-web-app-answers-typed-questions" in text, path
    scenario = json.loads((tmp_path / "report.json").read_text())["scenarios"][0]
    assert (scenario["feature_path"], scenario["name"]) == (FEATURE_PATH, SCENARIO)
