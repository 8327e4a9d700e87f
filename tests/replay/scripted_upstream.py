"""A deterministic OpenAI-compatible provider (plus a web-search endpoint) that logs every request.

It answers like a tiny model: a tool call when the last user message asks about the weather and
`get_weather` is offered, a summary after a tool result, an echo otherwise. Ids and timestamps are
fresh per call, so a replay that returns them unchanged proves it served the recording.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse

MODEL = "scripted-model"


@dataclass
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    body: Any


@dataclass
class ScriptedUpstream:
    requests: list[Seen] = field(default_factory=list)

    def app(self) -> FastAPI:
        app = FastAPI()

        @app.get("/v1/models")
        async def models(request: Request) -> dict[str, Any]:
            await self._log(request)
            return {
                "object": "list",
                "data": [{"id": MODEL, "object": "model", "created": 0, "owned_by": "test"}],
            }

        @app.post("/v1/chat/completions")
        async def chat(request: Request) -> Response:
            body = await self._log(request)
            text, tool_call = _answer(body, request.headers.get("authorization", ""))
            completion_id, created = f"chatcmpl-{uuid.uuid4().hex[:12]}", int(time.time())
            if body.get("stream"):
                chunks = _stream_chunks(body, completion_id, created, text, tool_call)
                return StreamingResponse(_sse(chunks), media_type="text/event-stream")
            message: dict[str, Any] = {"role": "assistant", "content": text}
            if tool_call:
                message["tool_calls"] = [tool_call]
            return JSONResponse(
                {
                    "id": completion_id,
                    "object": "chat.completion",
                    "created": created,
                    "model": body.get("model", MODEL),
                    "choices": [
                        {
                            "index": 0,
                            "message": message,
                            "finish_reason": "tool_calls" if tool_call else "stop",
                        }
                    ],
                    "usage": _USAGE,
                },
                headers={"set-cookie": "session=upstream-cookie-secret-value"},
            )

        @app.api_route("/search/{path:path}", methods=["GET", "POST"])
        async def search(path: str, request: Request) -> dict[str, Any]:
            body = await self._log(request)
            query = (body or {}).get("query") or request.query_params.get("q", "")
            return {
                "query": query,
                "results": [{"title": f"Result for {query}", "url": "https://example.com/1"}],
            }

        app.add_api_route("/v1/audio/transcriptions", self._transcribe, methods=["POST"])
        return app

    async def _transcribe(self, request: Request) -> dict[str, Any]:
        form = await request.form()
        upload = form["file"]
        assert not isinstance(upload, str)
        audio = await upload.read()
        fields = {key: value for key, value in form.items() if isinstance(value, str)}
        self.requests.append(Seen(request.method, request.url.path, dict(request.headers), fields))
        # Fresh per call, like the other answers: a replay that returns it unchanged served the recording.
        return {"text": f"heard {len(audio)} bytes ({uuid.uuid4().hex[:8]})"}

    def count(self, path_prefix: str = "/") -> int:
        return sum(seen.path.startswith(path_prefix) for seen in self.requests)

    async def _log(self, request: Request) -> Any:
        raw = await request.body()
        body = json.loads(raw) if raw else None
        self.requests.append(Seen(request.method, request.url.path, dict(request.headers), body))
        return body


_USAGE = {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}


def _answer(body: dict[str, Any], authorization: str) -> tuple[str | None, dict[str, Any] | None]:
    last = body["messages"][-1]
    offered = {tool["function"]["name"] for tool in body.get("tools") or []}
    text = last.get("content") or ""
    if last["role"] == "tool":
        return f"The tool said: {text}", None
    if "weather" in text and "get_weather" in offered:
        arguments = json.dumps({"city": "Paris", "unit": "celsius"})
        call = {
            "id": f"call_{uuid.uuid4().hex[:8]}",
            "type": "function",
            "function": {"name": "get_weather", "arguments": arguments},
        }
        return None, call
    if "echo your credentials" in text:  # a misbehaving provider, to prove responses are scrubbed
        return f"I was called with {authorization}", None
    return f"You said: {text}", None


def _stream_chunks(
    body: dict[str, Any], completion_id: str, created: int, text: str | None, tool_call: dict[str, Any] | None
) -> list[Any]:
    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {
            "id": completion_id,
            "object": "chat.completion.chunk",
            "created": created,
            "model": body.get("model", MODEL),
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }

    chunks = [chunk({"role": "assistant", "content": ""})]
    if tool_call:
        arguments = tool_call["function"]["arguments"]
        half = len(arguments) // 2
        chunks.append(
            chunk(
                {
                    "tool_calls": [
                        {
                            "index": 0,
                            "id": tool_call["id"],
                            "type": "function",
                            "function": {"name": "get_weather", "arguments": ""},
                        }
                    ]
                }
            )
        )
        for piece in (arguments[:half], arguments[half:]):
            chunks.append(chunk({"tool_calls": [{"index": 0, "function": {"arguments": piece}}]}))
        chunks.append(chunk({}, "tool_calls"))
    else:
        words = (text or "").split(" ")
        third = max(1, len(words) // 3)
        for start in range(0, len(words), third):
            chunks.append(chunk({"content": " ".join(words[start : start + third]) + " "}))
        chunks.append(chunk({}, "stop"))
    if (body.get("stream_options") or {}).get("include_usage"):
        chunks.append(
            {
                "id": completion_id,
                "object": "chat.completion.chunk",
                "created": created,
                "model": body.get("model", MODEL),
                "choices": [],
                "usage": _USAGE,
            }
        )
    return [*chunks, "[DONE]"]


async def _sse(chunks: list[Any]) -> AsyncIterator[bytes]:
    for item in chunks:
        data = item if isinstance(item, str) else json.dumps(item)
        yield f"data: {data}\n\n".encode()
