"""One scenario's replay state: which recordings are left, which calls missed, which patches apply.

Pure logic with no HTTP, shared by the server (which fills it) and the control client (which reads
its report). Calls are numbered per target from 0 in arrival order: `chat` counts
`/v1/chat/completions` calls, `search` counts `/search/...` calls, `transcription` counts
`/v1/audio/transcriptions` calls.
"""

from __future__ import annotations

import difflib
from collections import deque
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from support.replay.cassette import Cassette, Entry, RecordedResponse
from support.replay.matching import AnyRequest, AudioRequest, ChatRequest, HttpRequest, key_of, key_text
from support.replay.tone_audio import describe

Mode = Literal["replay", "record", "live"]
Target = Literal["chat", "search", "transcription"]


class ScopeError(Exception):
    """A control request that conflicts with the scope's state (reported as HTTP 409)."""


class _PatchBase(BaseModel):
    model_config = ConfigDict(extra="forbid")

    call: int | None = Field(
        default=None, ge=0, description="0-based call index in the scope; omitted: the next call"
    )
    target: Target = "chat"


class FailPatch(_PatchBase):
    """Answer the call with an error instead of the recording (which stays available for a retry)."""

    action: Literal["fail"] = "fail"
    status: int = Field(default=500, ge=400, le=599)
    body: Any = None  # omitted: a provider-style error body for `status`


class HangPatch(_PatchBase):
    """Hold the call open until the client disconnects, e.g. to click Stop mid-stream.

    A streaming call gets its response headers first (a started but stalled stream). With
    `after_chunks`, a streaming call is served as usual (from the cassette in replay mode) but
    parks after that many SSE chunks, so the product shows a partial answer.
    """

    action: Literal["hang"] = "hang"
    after_chunks: int = Field(default=0, ge=0)


class ReplacePatch(_PatchBase):
    """Answer the call with `entry` (a recorded-response object) without consulting the cassette."""

    action: Literal["replace"] = "replace"
    entry: RecordedResponse


class PacePatch(_PatchBase):
    """Serve the call as usual, with `pace_ms` between its SSE chunks: a reply that visibly
    streams, e.g. to show that its first words arrive before its end."""

    action: Literal["pace"] = "pace"
    pace_ms: int = Field(ge=1, le=5000)


AnyPatch = FailPatch | HangPatch | ReplacePatch | PacePatch
Patch = Annotated[AnyPatch, Field(discriminator="action")]


class Miss(BaseModel):
    target: Target
    call: int | None
    key: str
    call_site: str
    reason: str
    request: str
    prompt: str = ""  # the last user message (chat) or the query (search), normalized
    nearest_key: str | None = None
    similarity: float | None = None
    diff: str = ""


class Unconsumed(BaseModel):
    index: int
    key: str
    call_site: str
    request: str


class PromptDrift(BaseModel):
    """A chat call answered from a recording made with another system prompt. The system prompt is
    not in the key (prompt edits must not fail every scenario), so this fails nothing by itself; a
    scenario about what the model is instructed asserts there is none."""

    call: int
    key: str
    recorded_digest: str | None
    sent_digest: str | None


class ScopeReport(BaseModel):
    scenario: str
    cassette: str
    mode: Mode
    calls: dict[str, int]
    misses: list[Miss] = []
    unconsumed: list[Unconsumed] = []
    unapplied_patches: list[Patch] = []
    prompt_drift: list[PromptDrift] = []
    written: str | None = None

    @property
    def ok(self) -> bool:
        return not (self.misses or self.unconsumed or self.unapplied_patches)

    def problems_text(self) -> str:
        """A failure message for a human: every miss with its diff, every unused recording or patch."""
        lines = [
            f'model replay problems in scenario "{self.scenario}" (cassette {self.cassette}, mode {self.mode}):'
        ]
        for miss in self.misses:
            call = f"{miss.target} call #{miss.call}" if miss.call is not None else f"{miss.target} call"
            lines += [f"- MISS {call} [{miss.key}]: {miss.reason}", "  requested (normalized):"]
            lines += _block(miss.request, 6)
            if miss.nearest_key and miss.diff:
                lines.append(
                    f"  nearest recorded entry [{miss.nearest_key}], similarity {miss.similarity:.2f}:"
                )
                lines += _block(miss.diff, 6)
        for entry in self.unconsumed:
            lines += [f"- UNCONSUMED recorded entry {entry.index} [{entry.key}] was never requested:"]
            lines += _block(entry.request, 6)
        for patch in self.unapplied_patches:
            made = self.calls.get(patch.target, 0)
            lines.append(
                f"- UNAPPLIED PATCH {patch.action} on {patch.target} call #{patch.call}: "
                f"the scenario made only {made} {patch.target} call(s)"
            )
        lines.append(
            "If the model traffic changed on purpose, re-record the scenario (see support/replay/README.md)."
        )
        return "\n".join(lines)


def _block(text: str, indent: int) -> list[str]:
    return [" " * indent + line for line in text.splitlines()]


def build_miss(
    request: AnyRequest, target: Target, call: int | None, reason: str, recorded: list[Entry]
) -> Miss:
    """A miss with a unified diff against the most similar recorded entry (difflib ratio)."""
    text = key_text(request)
    miss = Miss(
        target=target,
        call=call,
        key=key_of(request),
        call_site=request.call_site,
        reason=reason,
        request=text,
        prompt=_prompt(request),
    )
    scored = [
        (difflib.SequenceMatcher(None, key_text(entry.request), text).ratio(), entry)
        for entry in recorded
        if entry.request.kind == request.kind
    ]
    if not scored:
        return miss
    similarity, nearest = max(scored, key=lambda pair: pair[0])
    diff = difflib.unified_diff(
        key_text(nearest.request).splitlines(),
        text.splitlines(),
        fromfile=f"recorded {nearest.key}",
        tofile=f"requested {miss.key}",
        lineterm="",
        n=1,  # compact: the changed lines and their neighbours
    )
    return miss.model_copy(
        update={"nearest_key": nearest.key, "similarity": similarity, "diff": "\n".join(diff)}
    )


def _prompt(request: AnyRequest) -> str:
    if isinstance(request, HttpRequest):
        return f"{request.method} {request.path}" + (f"?{request.query}" if request.query else "")
    if isinstance(request, AudioRequest):
        return f"audio {request.media_type}, {request.audio_bytes} bytes, sha256 {request.audio_sha256}"
    return next((m.content for m in reversed(request.messages) if m.role == "user" and m.content), "")


class Scope:
    def __init__(
        self,
        name: str,
        feature: str | None,
        cassette_path: Path,
        mode: Mode,
        pace_ms: int,
        cassette: Cassette | None,
    ) -> None:
        self.name = name
        self.feature = feature
        self.cassette_path = cassette_path
        self.mode: Mode = mode
        self.pace_ms = pace_ms
        self.cassette_missing = cassette is None
        self.entries: list[Entry] = cassette.entries if cassette else []
        self.misses: list[Miss] = []
        self.prompt_drift: list[PromptDrift] = []
        self.recorded: list[Entry] = []
        self.secrets: set[str] = set()
        self._unused: dict[str, deque[int]] = {}
        for index, entry in enumerate(self.entries):
            self._unused.setdefault(entry.key, deque()).append(index)
        self._calls: dict[Target, int] = {"chat": 0, "search": 0, "transcription": 0}
        self._patches: dict[tuple[Target, int], AnyPatch] = {}

    @property
    def calls(self) -> dict[str, int]:
        """Calls made so far, per target."""
        return {target: count for target, count in self._calls.items()}

    def next_call(self, target: Target) -> int:
        call = self._calls[target]
        self._calls[target] += 1
        return call

    def add_patch(self, patch: AnyPatch) -> AnyPatch:
        made = self._calls[patch.target]
        call = made if patch.call is None else patch.call
        if call < made:
            raise ScopeError(f"{patch.target} call #{call} already happened ({made} made so far)")
        if (patch.target, call) in self._patches:
            raise ScopeError(f"{patch.target} call #{call} is already patched")
        resolved = patch.model_copy(update={"call": call})
        self._patches[(patch.target, call)] = resolved
        return resolved

    def take_patch(self, target: Target, call: int) -> AnyPatch | None:
        return self._patches.pop((target, call), None)

    def take(self, request: AnyRequest, target: Target, call: int) -> Entry | Miss:
        """The oldest unused recording with this request's key (FIFO), or a recorded miss."""
        key = key_of(request)
        unused = self._unused.get(key)
        if unused:
            entry = self.entries[unused.popleft()]
            self._note_drift(request, entry, call)
            return entry
        if self.cassette_missing:
            reason = f"no cassette at {self.cassette_path}; record this scenario (mode record) to create it"
        elif key in self._unused:
            used = sum(entry.key == key for entry in self.entries)
            reason = (
                f"all {used} recorded entries with this key were already used: the product made an extra call"
            )
        elif isinstance(request, AudioRequest):
            reason = (
                f"no recorded transcription has this audio (sha256 {request.audio_sha256[:16]}…, "
                f"{request.audio_bytes} bytes): the product sent a different recording; {describe(request.audio)}"
            )
        else:
            reason = "no recorded entry matches this request"
        miss = build_miss(request, target, call, reason, self.entries)
        self.misses.append(miss)
        return miss

    def _note_drift(self, request: AnyRequest, entry: Entry, call: int) -> None:
        recorded = entry.request
        if not (isinstance(request, ChatRequest) and isinstance(recorded, ChatRequest)):
            return
        if request.system_prompt_digest != recorded.system_prompt_digest:
            drift = PromptDrift(
                call=call,
                key=entry.key,
                recorded_digest=recorded.system_prompt_digest,
                sent_digest=request.system_prompt_digest,
            )
            self.prompt_drift.append(drift)

    def add_problem(self, request: AnyRequest, target: Target, call: int, reason: str) -> None:
        """A call that could not be served or recorded (e.g. the upstream was unreachable)."""
        self.misses.append(build_miss(request, target, call, reason, []))

    def report(self, written: Path | None) -> ScopeReport:
        unconsumed = [
            Unconsumed(
                index=index,
                key=self.entries[index].key,
                call_site=self.entries[index].call_site,
                request=key_text(self.entries[index].request),
            )
            for index in sorted(index for queue in self._unused.values() for index in queue)
        ]
        return ScopeReport(
            scenario=self.name,
            cassette=str(self.cassette_path),
            mode=self.mode,
            calls=self.calls,
            misses=self.misses,
            unconsumed=unconsumed,
            unapplied_patches=sorted(
                self._patches.values(), key=lambda patch: (patch.target, patch.call or 0)
            ),
            prompt_drift=self.prompt_drift,
            written=str(written) if written else None,
        )
