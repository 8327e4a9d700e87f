"""The match key: the ONE place where recorder and replayer decide that two calls are the same.

A key is the call site plus the normalized conversation, rendered as readable text (so a miss can
be shown as a diff) and hashed into a short id (`<call_site>#<12 hex>`).

What is in the key, and why:
- the call site (`X-Model-Caller` header, else `default`), so two model users with the same
  conversation text do not compete for one recording;
- `stream`, because a recorded JSON body cannot answer a streaming call (or the reverse);
- the names of the offered tools and `tool_choice`: a recorded answer that calls a tool is only
  valid while that tool is offered, and `tool_choice` changes what the model may answer;
- every non-system message: role, text, tool-call names with canonical JSON arguments, tool
  results (with the tool's name, resolved from `tool_call_id`).

What is not, and why:
- system/developer messages and tool schemas: living, frequently edited prompt text; keying on
  them would turn every prompt edit into a red build. Their digests are kept as drift metadata;
- the model name and sampling parameters: they depend on the environment's configuration;
- ids the client invents (`tool_call_id`) and everything normalized below.

Normalization (in this order, on all keyed text, tool arguments included):
- run-unique E2E names `E2E-<run>-<worker>-<label>-<n>` (see `support/naming.py`) -> `E2E-<label>`;
- temp paths `/tmp/...`, `/var/folders/...`, `/private/...` of either -> `<tmp>` (the whole path:
  its random segments can sit anywhere);
- loopback host:port (`127.0.0.1:N`, `localhost:N`, `0.0.0.0:N`, `[::1]:N`) -> `<loopback>`;
- UUIDs -> `<uuid>`; ISO timestamps -> `<timestamp>`; ISO (`2025-03-01`, `2025/03/01`) and
  written (`March 1, 2025`) dates -> `<date>`;
- credential-shaped text (`sk-...`, bearer tokens, `api_key=...`) and credential-named JSON fields
  -> `<scrubbed>`, so a cassette stays consistent with its keys after scrubbing.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    SerializerFunctionWrapHandler,
    model_serializer,
)

from support.replay.scrub import SCRUBBED, is_secret_field, scrub_text

DEFAULT_CALL_SITE = "default"
CALLER_HEADER = "x-model-caller"
WEB_SEARCH_CALL_SITE = "tool:web_search"

# Run and worker ids are alphanumeric (no hyphen), so the label is everything between them and
# the trailing counter. Case-insensitive because products may lowercase names into slugs.
E2E_NAME = re.compile(
    r"\b(?P<prefix>E2E)-[a-z0-9]{1,12}-[a-z0-9]{1,8}-(?P<label>[a-z0-9_]+(?:-[a-z0-9_]+)*)-\d+\b",
    re.IGNORECASE,
)
TEMP_PATH = re.compile(r"(?:/private)?/(?:tmp|var/folders)/[^\s\"'`<>()\[\]{},;]*")
LOOPBACK = re.compile(r"(?:\b127\.0\.0\.1|\blocalhost|\b0\.0\.0\.0|\[::1\]):\d{1,5}\b")
UUID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", re.IGNORECASE)
TIMESTAMP = re.compile(r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2}\b)?")
DATE = re.compile(
    r"\b\d{4}[-/]\d{2}[-/]\d{2}\b"
    r"|\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.? \d{1,2}(?:st|nd|rd|th)?, \d{4}\b"
)
_SUBSTITUTIONS: tuple[tuple[re.Pattern[str], str], ...] = (
    (E2E_NAME, r"\g<prefix>-\g<label>"),
    (TEMP_PATH, "<tmp>"),
    (LOOPBACK, "<loopback>"),
    (UUID, "<uuid>"),
    (TIMESTAMP, "<timestamp>"),
    (DATE, "<date>"),
)
_SYSTEM_ROLES = frozenset({"system", "developer"})


class _Strict(BaseModel):
    # Cassettes are hand-reviewed and sometimes hand-edited: a misspelt field must fail loudly.
    model_config = ConfigDict(extra="forbid")

    @model_serializer(mode="wrap")
    def _omit_defaults(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # Keeps cassettes short to review; `kind` stays because it discriminates request types.
        fields = type(self).model_fields
        return {
            name: value
            for name, value in handler(self).items()
            if name == "kind" or getattr(self, name) != fields[name].default
        }


class ToolCall(_Strict):
    name: str
    arguments: str


class Message(_Strict):
    role: str
    content: str = ""
    tool_calls: list[ToolCall] = []
    tool_name: str | None = None


class ChatRequest(_Strict):
    """A normalized `POST /v1/chat/completions` body; the model and digests are metadata."""

    kind: Literal["chat"] = "chat"
    call_site: str
    stream: bool
    tools: list[str] = []
    tool_choice: str | None = None
    messages: list[Message]
    model: str | None = None
    system_prompt_digest: str | None = None
    tools_digest: str | None = None


class HttpRequest(_Strict):
    """A normalized call to a JSON tool provider (e.g. web search) relayed through `/search/...`."""

    kind: Literal["http"] = "http"
    call_site: str
    method: str
    path: str
    query: str = ""
    body: Any = None


class AudioRequest(_Strict):
    """A normalized `POST /v1/audio/transcriptions` (multipart): the audio is keyed by a hash of
    its bytes, so the same recording matches and any other one misses; the model name is metadata."""

    kind: Literal["audio"] = "audio"
    call_site: str
    audio_sha256: str
    audio_bytes: int
    media_type: str
    fields: dict[str, str] = {}  # the other form fields (language, prompt, response_format, ...)
    model: str | None = None
    # The audio itself, for a miss to say what it carries: never in the key or a cassette.
    _audio: bytes = PrivateAttr(default=b"")

    @property
    def audio(self) -> bytes:
        return self._audio


AnyRequest = ChatRequest | HttpRequest | AudioRequest
NormalizedRequest = Annotated[AnyRequest, Field(discriminator="kind")]


def normalize_text(text: str) -> str:
    text = scrub_text(text.replace("\r\n", "\n"))
    for pattern, replacement in _SUBSTITUTIONS:
        text = pattern.sub(replacement, text)
    return text


def normalize_json(value: Any) -> Any:
    """Normalizes every string in a JSON value and blanks credential fields (keys differ per run)."""
    if isinstance(value, str):
        return normalize_text(value)
    if isinstance(value, dict):
        return {
            str(key): SCRUBBED if is_secret_field(str(key)) else normalize_json(item)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [normalize_json(item) for item in value]
    return value


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def call_site_of(headers: Mapping[str, str]) -> str:
    return headers.get(CALLER_HEADER) or DEFAULT_CALL_SITE


def chat_request(body: Mapping[str, Any], call_site: str) -> ChatRequest:
    tool_names: dict[str, str] = {}
    messages: list[Message] = []
    system_parts: list[str] = []
    for raw in body.get("messages") or []:
        role = str(raw.get("role", ""))
        content = _content_text(raw.get("content"))
        if role in _SYSTEM_ROLES:
            system_parts.append(content)
            continue
        calls = []
        for call in raw.get("tool_calls") or []:
            function = call.get("function") or {}
            name = str(function.get("name", ""))
            tool_names[str(call.get("id", ""))] = name
            calls.append(ToolCall(name=name, arguments=_canonical_arguments(function.get("arguments"))))
        tool_name = tool_names.get(str(raw.get("tool_call_id"))) if role == "tool" else None
        messages.append(Message(role=role, content=content, tool_calls=calls, tool_name=tool_name))
    tools = body.get("tools") or []
    return ChatRequest(
        call_site=call_site,
        stream=bool(body.get("stream")),
        tools=sorted(_tool_name(tool) for tool in tools),
        tool_choice=_tool_choice(body.get("tool_choice")),
        messages=messages,
        model=body.get("model"),
        system_prompt_digest=_digest("\n".join(system_parts)) if system_parts else None,
        tools_digest=_digest(canonical_json(normalize_json(tools))) if tools else None,
    )


def http_request(
    method: str, path: str, query: list[tuple[str, str]], body: Any, call_site: str
) -> HttpRequest:
    pairs = sorted((key, SCRUBBED if is_secret_field(key) else normalize_text(value)) for key, value in query)
    return HttpRequest(
        call_site=call_site,
        method=method.upper(),
        path=normalize_text(path),
        query="&".join(f"{key}={value}" for key, value in pairs),
        body=normalize_json(body),
    )


def audio_request(
    fields: list[tuple[str, str]], audio: bytes, media_type: str, call_site: str
) -> AudioRequest:
    """A transcription call: its audio file and its other form fields (`model` kept as metadata)."""
    model = next((value for key, value in fields if key == "model"), None)
    kept = {
        key: SCRUBBED if is_secret_field(key) else normalize_text(value)
        for key, value in fields
        if key != "model"
    }
    request = AudioRequest(
        call_site=call_site,
        audio_sha256=hashlib.sha256(audio).hexdigest(),
        audio_bytes=len(audio),
        media_type=media_type,
        fields=dict(sorted(kept.items())),
        model=model,
    )
    request._audio = audio
    return request


def key_text(request: AnyRequest) -> str:
    """The readable form of the key: what a miss report shows and diffs. One fact per line."""
    lines = [f"call_site: {request.call_site}"]
    if isinstance(request, AudioRequest):
        lines.append(
            f"audio: sha256 {request.audio_sha256} ({request.audio_bytes} bytes, {request.media_type})"
        )
        lines.extend(f"{key}: {value}" for key, value in request.fields.items())
        return "\n".join(lines)
    if isinstance(request, HttpRequest):
        lines.append(f"{request.method} {request.path}" + (f"?{request.query}" if request.query else ""))
        if request.body is not None:
            lines.append(f"body: {canonical_json(request.body)}")
        return "\n".join(lines)
    lines.append(f"stream: {str(request.stream).lower()}")
    if request.tools:
        lines.append(f"tools: {', '.join(request.tools)}")
    if request.tool_choice:
        lines.append(f"tool_choice: {request.tool_choice}")
    for message in request.messages:
        label = f"{message.role}[{message.tool_name}]" if message.tool_name else message.role
        if message.content or not message.tool_calls:
            lines.append(_indented(f"{label}: {message.content}"))
        lines.extend(_indented(f"{label}: -> {call.name} {call.arguments}") for call in message.tool_calls)
    return "\n".join(lines)


def key_of(request: AnyRequest) -> str:
    return f"{request.call_site}#{_digest(key_text(request))}"


def _indented(line: str) -> str:
    # Continuation lines are indented so no message text can pose as the start of another message.
    return line.replace("\n", "\n  ")


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def _content_text(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return normalize_text(content)
    parts = []
    for part in content:
        kind = part.get("type")
        parts.append(normalize_text(str(part.get("text", ""))) if kind == "text" else f"<{kind}>")
    return "\n".join(parts)


def _canonical_arguments(arguments: Any) -> str:
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            return normalize_text(arguments)  # models do emit broken JSON; key on what they sent
    return canonical_json(normalize_json(arguments))


def _tool_name(tool: Mapping[str, Any]) -> str:
    function = tool.get("function")
    if isinstance(function, Mapping) and function.get("name"):
        return str(function["name"])
    return str(tool.get("name") or tool.get("type", ""))


def _tool_choice(choice: Any) -> str | None:
    if choice is None or isinstance(choice, str):
        return choice
    function = choice.get("function") if isinstance(choice, Mapping) else None
    if isinstance(function, Mapping):
        return f"function:{function.get('name', '')}"
    return canonical_json(choice)
