"""The cassette file: one scenario's recorded model (and tool provider) calls.

Layout: `features/cassettes/<feature path without .feature>/<slugify(scenario)>.json`, e.g.
`features/agent/chat.feature` + "Ask a question" -> `features/cassettes/agent/chat/ask-a-question.json`.
The feature's folder is kept (not just its stem) so `agent/tools.feature` and `admin/tools.feature`
cannot share cassettes.

Files are written with a fixed field order and two-space indent so re-recordings diff cleanly in
review; recorded provider payloads keep the provider's own order. Every write is scrubbed.
"""

from __future__ import annotations

import json
from pathlib import Path, PurePosixPath
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from support.naming import scenario_slug
from support.replay.matching import NormalizedRequest, key_of
from support.replay.scrub import scrub

CASSETTE_VERSION: Final = 1
# Relative to the project root; the one spelling of it (lint, post-merge, the CLI's help).
DEFAULT_CASSETTES_DIR = Path("features/cassettes")
_MAX_SLUG = 120


class CassetteError(Exception):
    """A cassette that cannot be used; the message names the file and the reason."""

    def __init__(self, path: Path | str, reason: str, line: int | None = None) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = Path(path)
        self.reason = reason
        self.line = line


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class JsonResponse(_Strict):
    kind: Literal["json"] = "json"
    status: int = 200
    body: Any = None


class SseResponse(_Strict):
    """A streamed answer: each SSE `data:` payload in order, JSON-decoded when it is JSON."""

    kind: Literal["sse"] = "sse"
    status: int = 200
    chunks: list[Any]


RecordedResponse = Annotated[JsonResponse | SseResponse, Field(discriminator="kind")]


class Entry(_Strict):
    key: str
    call_site: str
    request: NormalizedRequest
    response: RecordedResponse

    @model_validator(mode="after")
    def _key_matches_request(self) -> Entry:
        # The key is derived; a stale one means the request was edited or normalization changed.
        expected = key_of(self.request)
        if self.key != expected:
            raise ValueError(
                f"key {self.key!r} does not match its request (computed {expected!r}); "
                "re-record the scenario, or if you edited the request on purpose, set key to the computed value"
            )
        if self.call_site != self.request.call_site:
            raise ValueError(
                f"call_site {self.call_site!r} differs from request.call_site {self.request.call_site!r}"
            )
        return self


class Cassette(_Strict):
    version: Literal[1] = CASSETTE_VERSION
    scenario: str
    feature: str | None = None
    recorded_at: str
    recorded_from: str
    model: str | None = None
    entries: list[Entry] = []


def slugify(scenario_name: str) -> str:
    """`"Stop during a stalled stream (web app)"` -> `"stop-during-a-stalled-stream-web-app"`; a
    name in another script keeps it, with a hash (`support.naming.scenario_slug`)."""
    return scenario_slug(scenario_name, _MAX_SLUG)


def feature_stem(feature: str) -> PurePosixPath:
    """`features/agent/chat.feature`, `agent/chat.feature` and `agent/chat` -> `agent/chat`."""
    path = PurePosixPath(feature.replace("\\", "/"))
    if path.suffix == ".feature":
        path = path.with_suffix("")
    if path.parts and path.parts[0] == "features":
        path = PurePosixPath(*path.parts[1:])
    return path


def cassette_relpath(feature: str | None, scenario_name: str) -> PurePosixPath:
    """Where a scenario's cassette lives, relative to the cassettes folder."""
    name = f"{slugify(scenario_name)}.json"
    return feature_stem(feature) / name if feature else PurePosixPath(name)


def load_cassette(path: Path) -> Cassette:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise CassetteError(path, f"cannot read: {error.strerror or error}") from error
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        reason = f"not valid JSON: {error.msg} at line {error.lineno} column {error.colno}"
        raise CassetteError(path, reason, error.lineno) from error
    if isinstance(data, dict) and data.get("version") not in (None, CASSETTE_VERSION):
        reason = f"unsupported version {data.get('version')!r} (this replay server reads {CASSETTE_VERSION})"
        raise CassetteError(path, reason)
    try:
        return Cassette.model_validate(data)
    except ValidationError as error:
        raise CassetteError(path, _describe(error)) from error


def dump_cassette(cassette: Cassette, secrets: tuple[str, ...] = ()) -> str:
    """The file text: scrubbed, then re-validated so a scrub can never produce an unloadable file.

    Keys are computed from already-normalized (shape-scrubbed) text, so re-validation only fails
    when an exact credential value sits inside the conversation itself: that is refused loudly.
    """
    data = scrub(cassette.model_dump(mode="json"), secrets)
    try:
        Cassette.model_validate(data)
    except ValidationError as error:
        reason = f"a credential appears inside a recorded conversation; not writing it ({_describe(error)})"
        raise ValueError(reason) from error
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def write_cassette(path: Path, cassette: Cassette, secrets: tuple[str, ...] = ()) -> None:
    """Writes the cassette; a re-recording that differs only in its time keeps the file as it
    was, so recording again leaves an unchanged conversation byte-identical."""
    try:
        text = dump_cassette(cassette, secrets)
        previous = _previous_recorded_at(path)
        if previous is not None:
            unchanged = dump_cassette(cassette.model_copy(update={"recorded_at": previous}), secrets)
            if unchanged == path.read_text(encoding="utf-8"):
                return
    except ValueError as error:
        raise CassetteError(path, str(error)) from error
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _previous_recorded_at(path: Path) -> str | None:
    """The recording time of the cassette already at `path`, if one loads from there."""
    if not path.is_file():
        return None
    try:
        return load_cassette(path).recorded_at
    except CassetteError:
        return None


def _describe(error: ValidationError) -> str:
    problems = []
    for item in error.errors()[:3]:
        where = ".".join(str(part) for part in item["loc"]) or "(top level)"
        problems.append(f"{where}: {item['msg'].removeprefix('Value error, ')}")
    more = error.error_count() - len(problems)
    return "; ".join(problems) + (f" (and {more} more)" if more > 0 else "")
