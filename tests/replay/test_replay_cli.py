from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from support.replay.__main__ import main
from support.replay.cassette import Cassette, Entry, SseResponse, write_cassette
from support.replay.matching import chat_request, key_of

ROOT = Path(__file__).resolve().parents[2]


def test_serve_on_port_zero_prints_one_ready_line_and_stops_on_sigterm(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key != "E2E_STABLE_MODEL_API_KEY"}
    process = subprocess.Popen(
        [sys.executable, "-m", "support.replay", "serve", "--port", "0", "--cassettes", str(tmp_path)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert select.select([process.stdout], [], [], 15)[0], "no ready line within 15s"
        assert process.stdout is not None
        prefix, payload = process.stdout.readline().rstrip("\n").split(" ", 1)
        assert prefix == "REPLAY_READY"
        url = json.loads(payload)["url"]
        assert url.startswith("http://127.0.0.1:") and not url.endswith(":0")
        assert httpx.get(f"{url}/__replay/healthz").json() == {"ok": True, "mode": "replay"}
    finally:
        process.send_signal(signal.SIGTERM)
        stdout, stderr = process.communicate(timeout=10)
    assert process.returncode == -signal.SIGTERM  # uvicorn re-raises the signal after its graceful shutdown
    assert "Traceback" not in stderr
    assert stdout == ""  # the ready line is the only thing on stdout


def test_serve_refuses_record_mode_without_upstream_and_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["serve", "--cassettes", str(tmp_path), "--mode", "record"])
    assert exit_info.value.code == 2
    assert (
        "mode record forwards to the provider: it needs --upstream and E2E_STABLE_MODEL_API_KEY"
        in capsys.readouterr().err
    )


def recorded(tmp_path: Path) -> Path:
    request = chat_request({"messages": [{"role": "user", "content": "hi"}], "stream": True}, "title")
    entry = Entry(
        key=key_of(request),
        call_site="title",
        request=request,
        response=SseResponse(chunks=[{"choices": []}, "[DONE]"]),
    )
    path = tmp_path / "agent" / "chat" / "ask.json"
    write_cassette(
        path,
        Cassette(
            scenario="Ask",
            feature="features/agent/chat.feature",
            recorded_at="2025-03-01T00:00:00",
            recorded_from="reference-model",
            model="m",
            entries=[entry],
        ),
    )
    return path


def test_inspect_lists_entries_and_keys(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = recorded(tmp_path)
    assert main(["inspect", str(path)]) == 0
    out = capsys.readouterr().out
    key = json.loads(path.read_text())["entries"][0]["key"]
    assert "  scenario:      Ask\n" in out and "  recorded_from: reference-model\n" in out
    assert f"[0] {key}  -> sse 200, 2 chunks\n    call_site: title\n    stream: true\n    user: hi" in out


def test_verify_reports_every_problem_and_exits_non_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recorded(tmp_path)
    assert main(["verify", str(tmp_path)]) == 0
    broken = tmp_path / "agent" / "broken.json"
    broken.write_text("[]")
    assert main(["verify", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert f"FAIL {broken}: (top level): Input should be a valid dictionary" in out
    assert out.rstrip().endswith("2 cassette(s), 1 problem(s)")
