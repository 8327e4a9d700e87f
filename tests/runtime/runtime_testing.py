"""Helpers for the runtime tests: a scripted OpenAI-compatible provider whose next answers a test
chooses (text, an HTTP error, a stall, a tool call), a fake knowledge retrieval endpoint, and a
reader for the runtime's SSE stream."""

from __future__ import annotations

import asyncio
import json
import threading
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse

MODEL_KEY = "sk-test-model-key-DO-NOT-LOG-4242"
KNOWLEDGE_TOKEN = "kt-short-lived-token-DO-NOT-LOG-77"
SEARCH_KEY = "ws-search-key-DO-NOT-LOG-99"


@dataclass(frozen=True)
class Text:
    text: str


@dataclass(frozen=True)
class Status:
    status: int
    message: str = "scripted failure"


@dataclass(frozen=True)
class Stall:
    """Streams `text_before`, then sends nothing until the client goes away."""

    text_before: str = ""


@dataclass(frozen=True)
class CallTool:
    name: str
    arguments: dict[str, Any]


Answer = Text | Status | Stall | CallTool


@dataclass
class Seen:
    path: str
    headers: dict[str, str]
    body: Any


@dataclass
class ScriptedProvider:
    script: list[Answer] = field(default_factory=list)
    seen: list[Seen] = field(default_factory=list)
    disconnected: threading.Event = field(default_factory=threading.Event)

    def reset(self, *answers: Answer) -> None:
        self.script[:] = answers
        self.seen.clear()
        self.disconnected.clear()

    def chat_calls(self) -> list[Seen]:
        return [seen for seen in self.seen if seen.path.endswith("/chat/completions")]

    def app(self) -> FastAPI:
        app = FastAPI()

        @app.post("/v1/chat/completions")
        async def chat(request: Request) -> Response:
            body = await self._record(request)
            answer = self.script.pop(0) if self.script else Text("unscripted")
            if isinstance(answer, Status):
                error = {"error": {"message": answer.message, "type": "scripted", "code": None}}
                return JSONResponse(error, status_code=answer.status)
            return StreamingResponse(self._stream(body, answer), media_type="text/event-stream")

        @app.post("/knowledge/retrieve")
        async def retrieve(request: Request) -> dict[str, Any]:
            body = await self._record(request)
            return {
                "records": [
                    {
                        "segment_id": "s1",
                        "document_id": "d1",
                        "document_name": "handbook.md",
                        "dataset_id": "ds-1",
                        "dataset_name": "Station handbook",
                        "content": f"The answer to {body['query']} is KNOWLEDGE-TOKEN-7.",
                        "score": 0.9,
                    }
                ]
            }

        return app

    async def _record(self, request: Request) -> Any:
        body = json.loads(await request.body())
        self.seen.append(Seen(request.url.path, dict(request.headers), body))
        return body

    async def _stream(self, body: dict[str, Any], answer: Answer) -> AsyncIterator[bytes]:
        def chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
            data = {
                "id": "c",
                "object": "chat.completion.chunk",
                "created": 0,
                "model": body["model"],
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
            }
            return f"data: {json.dumps(data)}\n\n".encode()

        text = (
            answer.text
            if isinstance(answer, Text)
            else answer.text_before
            if isinstance(answer, Stall)
            else ""
        )
        for word in text.split(" ") if text else []:
            yield chunk({"content": word + " "})
        if isinstance(answer, Stall):
            try:
                await asyncio.sleep(60)
            finally:
                self.disconnected.set()  # only a client disconnect ends the stall early
        if isinstance(answer, CallTool):
            arguments = json.dumps(answer.arguments)
            yield chunk(
                {
                    "tool_calls": [
                        {
                            "index": 0,
                            "id": f"call_{uuid.uuid4().hex[:6]}",
                            "type": "function",
                            "function": {"name": answer.name, "arguments": arguments[:5]},
                        }
                    ]
                }
            )
            yield chunk({"tool_calls": [{"index": 0, "function": {"arguments": arguments[5:]}}]})
        yield chunk({}, "tool_calls" if isinstance(answer, CallTool) else "stop")
        usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
        yield f"data: {json.dumps({'id': 'c', 'choices': [], 'usage': usage})}\n\n".encode()
        yield b"data: [DONE]\n\n"


@dataclass(frozen=True)
class Event:
    name: str
    data: dict[str, Any]


def read_events(lines: Iterator[str]) -> Iterator[Event]:
    name, data = None, []
    for line in lines:
        if line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: "):
            data.append(line[6:])
        elif not line and name:
            yield Event(name, json.loads("\n".join(data)))
            name, data = None, []


def run_events(client: httpx.Client, body: dict[str, Any]) -> list[Event]:
    with client.stream("POST", "/runs", json=body) as response:
        assert response.status_code == 200, response.read()
        assert response.headers["content-type"].startswith("text/event-stream")
        return list(read_events(response.iter_lines()))


def run_body(
    base_url: str,
    query: str,
    tools: tuple[str, ...] = (),
    services: dict[str, Any] | None = None,
    history: list[dict[str, str]] | None = None,
    model: str = "gpt-4o-mini",
    **agent: Any,
) -> dict[str, Any]:
    return {
        "run_id": f"run-{uuid.uuid4().hex[:12]}",
        "agent": {
            "name": "E2E agent",
            "instructions": "You are a careful test agent.",
            "model": {"base_url": base_url, "api_key": MODEL_KEY, "name": model},
            "parameters": {"temperature": 0.2, "max_tokens": 256},
            "tools": [{"name": name, "enabled": True} for name in tools],
            **agent,
        },
        "conversation_id": f"conv-{uuid.uuid4().hex[:12]}",
        "history": history or [],
        "query": query,
        "services": services or {},
    }


def names(events: list[Event]) -> list[str]:
    return [event.name for event in events]


def message_text(events: list[Event]) -> str:
    return "".join(event.data["text"] for event in events if event.name == "message.delta")
