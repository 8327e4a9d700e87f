"""A deterministic OpenAI-compatible model server, for recording cassettes where no real provider
key exists (those cassettes say `recorded_from: reference-model`).

    python -m support.replay.reference_model --port 0
    -> REFERENCE_MODEL_READY {"url": "http://127.0.0.1:PORT/v1"}

Routes: `GET /v1/models` (`gpt-4o-mini`, `gpt-4o`, `whisper-1`), `POST /v1/chat/completions` (JSON,
or SSE with `stream: true`), `POST /v1/audio/transcriptions` (multipart `file`, `model=whisper-1`:
the text tone-coded in a WAV's samples, see `tone_audio.py`), and `POST /v1/search` `{query}`: a
deterministic web-search provider for the `web_search` tool. Every route requires
`Authorization: Bearer <anything non-empty>` (else a provider-style 401), so credential wiring is
exercised.

The reply is a pure function of the conversation (no clock, no randomness; ids are hashes):

0. `propose_draft` is offered (the build assistant) -> a `propose_draft` call built from the last
   user message, the agent's description (fields it gives no hint for are left out):
   - instructions: its first sentence;
   - opening_statement: the quoted text after `greet (users|people|visitors) with`;
   - suggested_questions: every quoted text that ends with `?`;
   - tools: every `backticked` name;
   - knowledge: the quoted names after `attach the knowledge`.
   - skills: for each `add the skill "NAME" that CLAUSE.`, a skill NAME described as CLAUSE
     (capitalised, with its end mark) whose SKILL.md body is `# NAME` and that description.
1. The last message is a tool result -> `Tool <name> returned: <content>` (content trimmed, at most
   500 characters).
2. Otherwise the last user message decides; a tool is only called when it is offered:
   - ``run the command `X` `` -> `sandbox_shell {"command": X}`;
   - `search the knowledge base for X` -> `knowledge_search {"query": X}`;
   - `search the web for X` -> `web_search {"query": X}`;
   - `set PATH to VALUE in this JSON: {...}` -> `json_replace {"json", "path", "value"}`;
   - `set the outputs to {...}` (a JSON object, sent as it is, fitting or not) -> `set_outputs {...}`
     (the agent's output variables; checked before the tools above).
   (X loses trailing whitespace and `.`, `?`, `!`; phrases match case-insensitively.)
3. `reply with exactly: X` -> `X`.
4. `what are your instructions` -> `My instructions: <the system message>` (what the product sent
   as instructions, after any substitution; `(none)` without a system message).
5. Anything else -> `You said: <last user message>`.

Streaming sends several chunks per reply, like OpenAI: the text in pieces of about three words, tool
call arguments in pieces of a few characters, then a usage chunk if `stream_options.include_usage`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import signal
import sys
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse

from support.replay.reference_rules import Reply, answer, message_text
from support.replay.server import serve
from support.replay.sse import END_OF_STREAM, sse_frame
from support.replay.tone_audio import decode

MODELS = ("gpt-4o-mini", "gpt-4o")
SPEECH_MODELS = ("whisper-1",)
READY_PREFIX = "REFERENCE_MODEL_READY"
_CREATED = 1_700_000_000  # a fixed timestamp: recordings must not differ between runs
_WORDS_PER_CHUNK = 3
_ARGUMENT_CHUNK_CHARS = 12


def _provider_error(status: int, message: str, kind: str, code: str | None) -> JSONResponse:
    return JSONResponse(
        {"error": {"message": message, "type": kind, "param": None, "code": code}}, status_code=status
    )


def _authorized(request: Request) -> bool:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return scheme.lower() == "bearer" and bool(token.strip())


_UNAUTHORIZED = (
    401,
    "You didn't provide an API key (Authorization: Bearer <key>).",
    "invalid_request_error",
    "invalid_api_key",
)


async def models(request: Request) -> Response:
    if not _authorized(request):
        return _provider_error(*_UNAUTHORIZED)
    data = [
        {"id": name, "object": "model", "created": _CREATED, "owned_by": "reference-model"}
        for name in (*MODELS, *SPEECH_MODELS)
    ]
    return JSONResponse({"object": "list", "data": data})


async def chat_completions(request: Request) -> Response:
    if not _authorized(request):
        return _provider_error(*_UNAUTHORIZED)
    try:
        body = json.loads(await request.body())
        messages = body["messages"]
        if not isinstance(messages, list) or not messages or not all(isinstance(m, dict) for m in messages):
            raise ValueError("messages must be a non-empty list of objects")
        offered = {tool["function"]["name"] for tool in body.get("tools") or []}
    except (ValueError, KeyError, TypeError) as error:
        return _provider_error(400, f"Invalid request: {error}", "invalid_request_error", None)
    model = body.get("model")
    if model not in MODELS:
        return _provider_error(
            404, f"The model `{model}` does not exist.", "invalid_request_error", "model_not_found"
        )
    completion = _Completion(body, answer(messages, offered))
    if body.get("stream"):
        include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
        return StreamingResponse(_sse(completion.chunks(include_usage)), media_type="text/event-stream")
    return JSONResponse(completion.whole())


async def transcriptions(request: Request) -> Response:
    if not _authorized(request):
        return _provider_error(*_UNAUTHORIZED)
    form = await request.form()
    upload, model = form.get("file"), form.get("model")
    if upload is None or isinstance(upload, str):
        return _provider_error(400, "Invalid request: expected a `file` part", "invalid_request_error", None)
    if model not in SPEECH_MODELS:
        message = f"The model `{model}` does not exist or does not transcribe audio."
        return _provider_error(404, message, "invalid_request_error", "model_not_found")
    try:
        text = decode(await upload.read())
    except ValueError as error:
        message = f"The reference model transcribes tone-coded WAV audio only: {error}"
        return _provider_error(400, message, "invalid_request_error", "unsupported_audio")
    return JSONResponse({"text": text})


async def search(request: Request) -> Response:
    if not _authorized(request):
        return _provider_error(*_UNAUTHORIZED)
    try:
        query = str(json.loads(await request.body())["query"])
    except (ValueError, KeyError, TypeError):
        return _provider_error(400, 'Invalid request: expected {"query": ...}', "invalid_request_error", None)
    results = [
        {
            "title": f"{query} ({n})",
            "url": f"https://example.com/search/{n}",
            "snippet": f"Reference search result {n} for {query}.",
        }
        for n in (1, 2)
    ]
    return JSONResponse({"query": query, "results": results})


def create_app() -> FastAPI:
    app = FastAPI(title="reference model", openapi_url=None, docs_url=None, redoc_url=None)
    app.add_api_route("/v1/models", models, methods=["GET"])
    app.add_api_route("/v1/chat/completions", chat_completions, methods=["POST"])
    app.add_api_route("/v1/audio/transcriptions", transcriptions, methods=["POST"])
    app.add_api_route("/v1/search", search, methods=["POST"])
    return app


class _Completion:
    """One reply rendered as a chat.completion or as its chunks, with ids derived from the request."""

    def __init__(self, body: dict[str, Any], reply: Reply) -> None:
        digest = hashlib.sha256(json.dumps(body["messages"], sort_keys=True).encode()).hexdigest()
        self.id = f"chatcmpl-ref{digest[:24]}"
        self.call_id = f"call_ref{digest[24:48]}"
        self.model = body["model"]
        self.reply = reply
        prompt = " ".join(message_text(message.get("content")) for message in body["messages"])
        self.usage = {"prompt_tokens": len(prompt.split()), "completion_tokens": len(self._output().split())}
        self.usage["total_tokens"] = self.usage["prompt_tokens"] + self.usage["completion_tokens"]

    def _output(self) -> str:
        call = self.reply.tool_call
        return self.reply.text or "" if call is None else json.dumps(call.arguments)

    def whole(self) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": self.reply.text, "refusal": None}
        if call := self.reply.tool_call:
            message["tool_calls"] = [
                {
                    "id": self.call_id,
                    "type": "function",
                    "function": {"name": call.name, "arguments": json.dumps(call.arguments)},
                }
            ]
        return {
            "id": self.id,
            "object": "chat.completion",
            "created": _CREATED,
            "model": self.model,
            "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": self._finish()}],
            "usage": self.usage,
        }

    def chunks(self, include_usage: bool) -> list[dict[str, Any]]:
        chunks = [self._chunk({"role": "assistant", "content": "" if self.reply.tool_call is None else None})]
        if call := self.reply.tool_call:
            arguments = json.dumps(call.arguments)
            chunks.append(
                self._chunk(
                    {
                        "tool_calls": [
                            {
                                "index": 0,
                                "id": self.call_id,
                                "type": "function",
                                "function": {"name": call.name, "arguments": ""},
                            }
                        ]
                    }
                )
            )
            for start in range(0, len(arguments), _ARGUMENT_CHUNK_CHARS):
                piece = arguments[start : start + _ARGUMENT_CHUNK_CHARS]
                chunks.append(self._chunk({"tool_calls": [{"index": 0, "function": {"arguments": piece}}]}))
        else:
            words = re.findall(r"\s*\S+\s*|\s+", self.reply.text or "")
            for start in range(0, len(words), _WORDS_PER_CHUNK):
                chunks.append(self._chunk({"content": "".join(words[start : start + _WORDS_PER_CHUNK])}))
        chunks.append(self._chunk({}, self._finish()))
        if include_usage:
            chunks.append({**self._envelope(), "choices": [], "usage": self.usage})
        return chunks

    def _finish(self) -> str:
        return "stop" if self.reply.tool_call is None else "tool_calls"

    def _envelope(self) -> dict[str, Any]:
        return {"id": self.id, "object": "chat.completion.chunk", "created": _CREATED, "model": self.model}

    def _chunk(self, delta: dict[str, Any], finish_reason: str | None = None) -> dict[str, Any]:
        return {
            **self._envelope(),
            "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}],
        }


async def _sse(chunks: list[dict[str, Any]]) -> AsyncIterator[bytes]:
    for chunk in chunks:
        yield sse_frame(json.dumps(chunk))
    yield sse_frame(END_OF_STREAM)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m support.replay.reference_model", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port (default)")
    args = parser.parse_args(argv)
    # uvicorn shuts down gracefully on SIGTERM/SIGINT, then re-raises the signal: make that a clean exit.
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, _exit_quietly)
    try:
        serve(create_app(), args.host, args.port, _announce)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    return 0


def _announce(url: str) -> None:
    # Only once the socket accepts connections: the reader starts calling right away.
    print(f"{READY_PREFIX} {json.dumps({'url': f'{url}/v1'})}", flush=True)


def _exit_quietly(signum: int, frame: object) -> None:
    raise SystemExit(0)


if __name__ == "__main__":
    sys.exit(main())
