"""Run events, one constructor per event name: the single place that defines their shapes.

On the wire each is `event: <name>\\ndata: <json>\\n\\n` (docs/runtime.md lists them)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

TERMINAL = frozenset({"run.completed", "run.failed", "run.cancelled"})


@dataclass(frozen=True)
class Event:
    name: str
    data: dict[str, Any]

    @property
    def terminal(self) -> bool:
        return self.name in TERMINAL

    def sse(self) -> bytes:
        return f"event: {self.name}\ndata: {json.dumps(self.data, ensure_ascii=False)}\n\n".encode()


def run_started(run_id: str) -> Event:
    return Event("run.started", {"run_id": run_id})


def message_delta(text: str) -> Event:
    return Event("message.delta", {"text": text})


def tool_call(call_id: str, name: str, arguments: dict[str, Any] | str) -> Event:
    # `arguments` is the raw string only when the model sent something that is not a JSON object.
    return Event("tool.call", {"id": call_id, "name": name, "arguments": arguments})


def tool_result(
    call_id: str, name: str, output: str, is_error: bool, citations: list[dict[str, str]] | None = None
) -> Event:
    # `citations`: where each knowledge passage in `output` comes from (empty for other tools).
    data = {"id": call_id, "name": name, "output": output, "is_error": is_error, "citations": citations or []}
    return Event("tool.result", data)


def retry(attempt: int, delay_ms: int, status: int | None, error: str) -> Event:
    reason: dict[str, Any] = {"status": status} if status is not None else {"error": error}
    return Event("retry", {"attempt": attempt, **reason, "delay_ms": delay_ms})


def run_completed(message: str, prompt_tokens: int, completion_tokens: int) -> Event:
    usage = {
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + completion_tokens,
    }
    return Event("run.completed", {"message": message, "usage": usage})


def run_failed(code: str, message: str, status: int | None = None) -> Event:
    data: dict[str, Any] = {"code": code, "message": message}
    if status is not None:
        data["status"] = status
    return Event("run.failed", data)


def run_cancelled(partial_message: str) -> Event:
    return Event("run.cancelled", {"partial_message": partial_message})
