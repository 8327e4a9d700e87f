"""A service's error logged while a scenario ran fails that scenario (support/run/service_logs.py)."""

from __future__ import annotations

from pathlib import Path

from support.run.service_logs import ServiceLogs

BEFORE = "2026-12-02 21:17:28,711 ERROR agent_builder: an error of an earlier scenario\n"


def _logs(tmp_path: Path) -> tuple[Path, ServiceLogs]:
    folder = tmp_path / "services"
    folder.mkdir()
    (folder / "console.log").write_text(BEFORE + "2026-12-02 21:17:29,000 INFO agent_builder: ready\n")
    return folder, ServiceLogs.mark(folder)


def test_lines_logged_before_the_mark_and_warnings_are_no_errors(tmp_path: Path) -> None:
    folder, logs = _logs(tmp_path)
    with (folder / "console.log").open("a") as log:
        log.write("2026-12-02 21:17:30,000 WARNING agent_builder: run r1: lost the runtime's stream\n")
        log.write("2026-12-02 21:17:30,001 INFO uvicorn.error: Shutting down\n")
    assert logs.errors_since_mark() == []


def test_an_error_and_its_traceback_are_named_with_their_service(tmp_path: Path) -> None:
    folder, logs = _logs(tmp_path)
    with (folder / "console.log").open("a") as log:
        log.write(
            "2026-12-02 21:17:30,000 ERROR agent_builder.console.chat_runs.runs: run r1: the reply could not be stored\n"
        )
        log.write(
            "Traceback (most recent call last):\n  File \"runs.py\", line 235\nAttributeError: 'NoneType'\n"
        )
    [error] = logs.errors_since_mark()
    assert error.startswith("console logged an error (services/console.log):")
    assert "the reply could not be stored" in error and "AttributeError: 'NoneType'" in error
    assert "an earlier scenario" not in error


def test_a_bare_traceback_and_a_log_started_after_the_mark_count_too(tmp_path: Path) -> None:
    folder, logs = _logs(tmp_path)
    (folder / "runtime.log").write_text("Traceback (most recent call last):\n  ...\nKeyError: 'x'\n")
    (folder / "replay.log").write_text("ERROR:    Exception in ASGI application\n")
    errors = logs.errors_since_mark()
    assert [error.split(" ")[0] for error in errors] == ["replay", "runtime"]
