"""The tests' one scripted OpenAI-compatible provider, plus the two other upstreams the product
calls out to: web search (`/search/...`, for the replay server and the runtime's web_search tool)
and the console's knowledge retrieval (`/internal/knowledge/retrieve`, for the runtime).

A test scripts the next answers with `reply(...)`. A call nothing was scripted for gets the echo
model's answer (`echo_answer`), so a test that only looks at what was sent scripts nothing. Every
request is kept in `seen`. Ids and timestamps are fresh per call: a replay that returns them
unchanged proves it served the recording.

`UpstreamServer` serves one on 127.0.0.1 for the whole session and `fresh()` gives each test a
new script and record on the same URL, so a provider a console registered once keeps working.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, Self

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse

from support.replay.server import BackgroundServer

MODEL = "scripted-chat"
USAGE = {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}


@dataclass(frozen=True)
class Text:
    """A reply; to /v1/audio/transcriptions, the transcript."""

    text: str


@dataclass(frozen=True)
class CallTool:
    name: str
    arguments: dict[str, Any] | str  # a string is sent as it is: malformed JSON on purpose


@dataclass(frozen=True)
class Status:
    """An HTTP error with an OpenAI-style error body."""

    status: int
    message: str = "scripted failure"


@dataclass(frozen=True)
class Stall:
    """A stream that sends `text_before`, then nothing until the client goes away."""

    text_before: str = ""


@dataclass(frozen=True)
class Raw:
    """Exactly this body and status: an answer no provider should give."""

    body: bytes
    status: int = 200


Answer = Text | CallTool | Status | Stall | Raw


@dataclass(frozen=True)
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    body: Any  # JSON (None if empty); a multipart upload: {"fields": {...}, "file": (name, type, bytes)}


@dataclass
class FakeUpstream:
    url: str = ""  # the server's root; `base_url` is what an OpenAI client is given
    models: list[str] = field(default_factory=lambda: [MODEL])
    api_key: str | None = None  # when set, /v1 calls with another bearer key get a 401...
    refusal: str = "Incorrect API key provided"  # ...with this message ("{authorization}": the header)
    models_answer: Raw | None = None  # what GET /v1/models answers instead of `models`
    models_delay_s: float = 0.0
    transcription_delay_s: float = 0.0  # how long /v1/audio/transcriptions waits before answering
    search_answer: Raw | None = None  # what /search/... answers instead of its results
    script: list[Answer] = field(default_factory=list)
    seen: list[Seen] = field(default_factory=list)
    disconnected: threading.Event = field(default_factory=threading.Event)  # a Stall's client left

    @property
    def base_url(self) -> str:
        return f"{self.url}/v1"

    def reply(self, *answers: Answer) -> None:
        """The next answers to chat completions and transcriptions, in order."""
        self.script.extend(answers)

    def calls(self, path_prefix: str = "/") -> list[Seen]:
        return [seen for seen in self.seen if seen.path.startswith(path_prefix)]

    async def answer(self, request: Request) -> Response:
        seen = await _read(request)
        self.seen.append(seen)
        authorization = seen.headers.get("authorization", "")
        if seen.path.startswith("/v1/") and self.api_key and authorization != f"Bearer {self.api_key}":
            return _error(Status(401, self.refusal.format(authorization=authorization)))
        if seen.path == "/v1/models":
            await asyncio.sleep(self.models_delay_s)
            return _raw(self.models_answer) if self.models_answer else _model_list(self.models)
        if seen.path == "/v1/chat/completions":
            return self._chat(seen.body, self._next(seen))
        if seen.path == "/v1/audio/transcriptions":
            await asyncio.sleep(self.transcription_delay_s)
            return _transcript(self._next(seen))
        if seen.path.startswith("/search/"):
            if self.search_answer:
                return _raw(self.search_answer)
            query = (seen.body or {}).get("query") or request.query_params.get("q", "")
            return JSONResponse(_search_results(query))
        if seen.path == "/internal/knowledge/retrieve":
            return JSONResponse(_passages(seen.body["query"]))
        return _error(Status(404, f"no route {seen.path}"))

    def _next(self, seen: Seen) -> Answer:
        return self.script.pop(0) if self.script else echo_answer(seen)

    def _chat(self, body: dict[str, Any], answer: Answer) -> Response:
        if isinstance(answer, Status):
            return _error(answer)
        if isinstance(answer, Raw):
            return _raw(answer)
        head = {"id": f"chatcmpl-{uuid.uuid4().hex[:12]}", "created": int(time.time())}
        head["model"] = body.get("model", MODEL)
        if body.get("stream"):
            usage = bool((body.get("stream_options") or {}).get("include_usage"))
            return StreamingResponse(self._stream(head, answer, usage), media_type="text/event-stream")
        assert not isinstance(answer, Stall), "a Stall answers streamed calls only"
        return JSONResponse(
            {**head, "object": "chat.completion", "choices": [_choice(answer)], "usage": USAGE},
            headers={"set-cookie": "session=upstream-cookie-secret-value"},
        )

    async def _stream(
        self, head: dict[str, Any], answer: Text | CallTool | Stall, include_usage: bool
    ) -> AsyncIterator[bytes]:
        def chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
            choice = {"index": 0, "delta": delta, "finish_reason": finish}
            return _event({**head, "object": "chat.completion.chunk", "choices": [choice]})

        yield chunk({"role": "assistant", "content": ""})
        if isinstance(answer, CallTool):
            call = _tool_call(answer)
            arguments, half = call["function"]["arguments"], len(call["function"]["arguments"]) // 2
            yield chunk(
                {"tool_calls": [{"index": 0, **call, "function": {"name": answer.name, "arguments": ""}}]}
            )
            for piece in (arguments[:half], arguments[half:]):  # arguments arrive in fragments
                yield chunk({"tool_calls": [{"index": 0, "function": {"arguments": piece}}]})
        else:
            text = answer.text if isinstance(answer, Text) else answer.text_before
            for word in text.split(" ") if text else []:
                yield chunk({"content": word + " "})
        if isinstance(answer, Stall):
            try:
                await asyncio.sleep(60)
            finally:
                self.disconnected.set()  # only a client disconnect ends the stall early
        yield chunk({}, "tool_calls" if isinstance(answer, CallTool) else "stop")
        if include_usage:
            yield _event({**head, "object": "chat.completion.chunk", "choices": [], "usage": USAGE})
        yield b"data: [DONE]\n\n"


def echo_answer(seen: Seen) -> Answer:
    """What a tiny deterministic model answers: a `get_weather` call when asked about the weather
    with that tool offered, a summary of a tool result, an echo otherwise."""
    if seen.path == "/v1/audio/transcriptions":
        return Text(f"heard {len(seen.body['file'][2])} bytes ({uuid.uuid4().hex[:8]})")
    last = seen.body["messages"][-1]
    offered = {tool["function"]["name"] for tool in seen.body.get("tools") or []}
    text = last.get("content") or ""
    if last["role"] == "tool":
        return Text(f"The tool said: {text}")
    if "weather" in text and "get_weather" in offered:
        return CallTool("get_weather", {"city": "Paris", "unit": "celsius"})
    if "echo your credentials" in text:  # a misbehaving provider, to prove responses are scrubbed
        return Text(f"I was called with {seen.headers.get('authorization', '')}")
    return Text(f"You said: {text}")


class UpstreamServer:
    """Serves the current FakeUpstream on 127.0.0.1; `fresh()` replaces it with a new one (take
    one before registering the server with a console: the last test's key or models may refuse it)."""

    def __init__(self) -> None:
        self.current = FakeUpstream()
        app = FastAPI()
        app.add_api_route("/{path:path}", self._answer, methods=["GET", "POST"])
        self._server = BackgroundServer(app)

    async def _answer(self, request: Request) -> Response:
        return await self.current.answer(request)

    def fresh(self) -> FakeUpstream:
        self.current = FakeUpstream(url=self._server.url)
        return self.current

    def __enter__(self) -> Self:
        self._server.__enter__()
        self.current.url = self._server.url
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.__exit__(*exc)


async def _read(request: Request) -> Seen:
    body: Any
    if request.headers.get("content-type", "").startswith("multipart/form-data"):
        form = await request.form()
        upload = form["file"]
        assert not isinstance(upload, str)
        fields = {key: value for key, value in form.items() if isinstance(value, str)}
        body = {"fields": fields, "file": (upload.filename, upload.content_type, await upload.read())}
    else:
        raw = await request.body()
        body = json.loads(raw) if raw else None
    return Seen(request.method, request.url.path, dict(request.headers), body)


def _tool_call(answer: CallTool) -> dict[str, Any]:
    arguments = answer.arguments if isinstance(answer.arguments, str) else json.dumps(answer.arguments)
    function = {"name": answer.name, "arguments": arguments}
    return {"id": f"call_{uuid.uuid4().hex[:8]}", "type": "function", "function": function}


def _choice(answer: Text | CallTool) -> dict[str, Any]:
    if isinstance(answer, Text):
        message: dict[str, Any] = {"role": "assistant", "content": answer.text}
        return {"index": 0, "message": message, "finish_reason": "stop"}
    message = {"role": "assistant", "content": None, "tool_calls": [_tool_call(answer)]}
    return {"index": 0, "message": message, "finish_reason": "tool_calls"}


def _transcript(answer: Answer) -> Response:
    if isinstance(answer, Status):
        return _error(answer)
    if isinstance(answer, Raw):
        return _raw(answer)
    assert isinstance(answer, Text), f"a transcription answers with Text, not {answer}"
    return JSONResponse({"text": answer.text})


def _model_list(models: list[str]) -> Response:
    data = [{"id": name, "object": "model", "created": 0, "owned_by": "test"} for name in models]
    return JSONResponse({"object": "list", "data": data})


def _search_results(query: str) -> dict[str, Any]:
    return {"query": query, "results": [{"title": f"Result for {query}", "url": "https://example.com/1"}]}


def _passages(query: str) -> dict[str, Any]:
    passage = {
        "segment_id": "s1",
        "document_id": "d1",
        "document_name": "handbook.md",
        "dataset_id": "ds-1",
        "dataset_name": "Station handbook",
        "content": f"The answer to {query} is KNOWLEDGE-TOKEN-7.",
        "score": 0.9,
    }
    return {"records": [passage]}


def _error(answer: Status) -> Response:
    error = {"message": answer.message, "type": "scripted", "code": None}
    return JSONResponse({"error": error}, status_code=answer.status)


def _raw(answer: Raw) -> Response:
    return Response(answer.body, status_code=answer.status, media_type="application/json")


def _event(data: dict[str, Any]) -> bytes:
    return f"data: {json.dumps(data)}\n\n".encode()
