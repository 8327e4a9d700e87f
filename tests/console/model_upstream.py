"""A scripted OpenAI-compatible provider for the console's own model calls (build assistant,
speech to text), served on 127.0.0.1 in this process: it records each request and answers what
the test put in its queue."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from support.replay.server import BackgroundServer

MODELS = ("gpt-4o-mini", "gpt-4o")


@dataclass
class Seen:
    path: str
    headers: dict[str, str]
    body: Any  # JSON, or for multipart {"fields": {...}, "file": (name, content type, bytes)}


@dataclass
class ModelUpstream:
    url: str = ""
    answers: list[tuple[int, Any]] = field(default_factory=list)  # (status, JSON body), in order
    seen: list[Seen] = field(default_factory=list)

    def answer(self, body: Any, status: int = 200) -> None:
        self.answers.append((status, body))

    def app(self) -> FastAPI:
        app = FastAPI()

        @app.get("/v1/models")
        async def models() -> dict[str, Any]:
            return {"object": "list", "data": [{"id": name, "object": "model"} for name in MODELS]}

        @app.post("/v1/chat/completions")
        async def chat(request: Request) -> JSONResponse:
            self.seen.append(Seen(request.url.path, dict(request.headers), json.loads(await request.body())))
            return self._next()

        @app.post("/v1/audio/transcriptions")
        async def transcriptions(request: Request) -> JSONResponse:
            form = await request.form()
            upload = form["file"]
            assert not isinstance(upload, str)
            fields = {key: value for key, value in form.items() if isinstance(value, str)}
            body = {"fields": fields, "file": (upload.filename, upload.content_type, await upload.read())}
            self.seen.append(Seen(request.url.path, dict(request.headers), body))
            return self._next()

        return app

    def _next(self) -> JSONResponse:
        status, body = self.answers.pop(0) if self.answers else (500, {"error": {"message": "unscripted"}})
        return JSONResponse(body, status_code=status)


@contextmanager
def model_upstream() -> Iterator[ModelUpstream]:
    upstream = ModelUpstream()
    with BackgroundServer(upstream.app()) as server:
        upstream.url = f"{server.url}/v1"
        yield upstream


def tool_call_answer(name: str, arguments: dict[str, Any] | str) -> dict[str, Any]:
    """A chat.completion whose message calls one tool."""
    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    call = {"id": "call_1", "type": "function", "function": {"name": name, "arguments": text}}
    message = {"role": "assistant", "content": None, "tool_calls": [call]}
    return {"id": "c", "object": "chat.completion", "choices": [{"index": 0, "message": message}]}
