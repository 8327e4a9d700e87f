"""One reply in progress: the relay that reads a run's event stream from the runtime, hands its
updates to the surface that asked, and ends with the run's outcome. Not here: opening the run
(runtime_client.py), storing the reply (runs.py)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx
from httpx_sse import EventSource
from pydantic import BaseModel

from agent_builder.console.schemas.chat import (
    ChatMessage,
    MessageDeltaEvent,
    MessageReplaceEvent,
    MessageStatus,
    Moderated,
    ToolCallEvent,
    ToolCallRecord,
    ToolResultEvent,
    Usage,
)
from agent_builder.console.schemas.errors import ErrorResponse
from agent_builder.console.services.conversations import Source
from agent_builder.console.services.moderation import AnswerGuard

RunUpdate = MessageDeltaEvent | MessageReplaceEvent | ToolCallEvent | ToolResultEvent
# The last item of a run: the stored reply, or why it could not be stored.
RunEnd = ChatMessage | ErrorResponse


def failure(code: str, status: int | None = None) -> ErrorResponse:
    """A failed run in words for the people chatting; `code` stays the runtime's. The runtime's
    own message is left out: it may quote the provider's answer verbatim."""
    suffix = f" ({status})" if status else ""
    messages = {
        "provider_auth_failed": f"The model provider refused the request{suffix}.",
        "provider_error": f"The model provider could not process the request{suffix}.",
        "provider_unavailable": f"The model provider is unavailable{suffix}. Try again later.",
        "tool_loop_limit": "The agent gave up after too many tool calls without an answer.",
        "outputs_invalid": "The model's outputs did not fit the agent's output variables.",
        "outputs_missing": "The model answered without setting the agent's output variables.",
        "runtime_unavailable": "The connection to the agent runtime was lost.",
    }
    return ErrorResponse(code=code, message=messages.get(code, "The agent runtime failed unexpectedly."))


@dataclass(frozen=True)
class Outcome:
    status: MessageStatus
    text: str
    error: ErrorResponse | None = None
    usage: Usage | None = None
    moderated: Moderated | None = None


# The runtime's terminal events (the others have the console's event shapes).
class _RunCompleted(BaseModel):
    message: str
    usage: Usage


class _RunFailed(BaseModel):
    code: str
    status: int | None = None


class _RunCancelled(BaseModel):
    partial_message: str


# What a question flagged by content moderation costs: no model call at all.
NO_USAGE = Usage(prompt_tokens=0, completion_tokens=0, total_tokens=0)


@dataclass(frozen=True)
class AnswerModeration:
    """Moderation of a run's answer: the guard that checks it as it streams, and the preset reply
    that replaces it once flagged."""

    guard: AnswerGuard
    preset_reply: str


class ChatRun:
    """One reply in progress. Its relay task reads the runtime's event stream; cancelling that
    task (`cancel()`) closes the stream, which cancels the run in the runtime too. A run without a
    runtime `response` answers `preset_reply` at once (a question flagged by moderation)."""

    def __init__(
        self,
        message_id: str,
        conversation_id: str,
        agent_id: str,
        source: Source,
        response: httpx.Response | None,
        *,
        preset_reply: str = "",
        moderation: AnswerModeration | None = None,
    ) -> None:
        self.message_id = message_id
        self.conversation_id = conversation_id
        self.agent_id = agent_id
        self.source = source
        self.text = ""
        self.retries = 0
        self._tool_calls: dict[str, ToolCallRecord] = {}  # by call id, in call order
        self._response = response
        self._preset_reply = preset_reply
        self._moderation = moderation
        self._replacement_sent = False
        self._items: asyncio.Queue[RunUpdate | RunEnd] = asyncio.Queue()
        self._end: asyncio.Future[RunEnd] = asyncio.get_running_loop().create_future()
        self.relay: asyncio.Task[Outcome] = asyncio.create_task(self._relay())

    @property
    def tool_calls(self) -> list[ToolCallRecord]:
        return list(self._tool_calls.values())

    def cancel(self) -> None:
        """Stop relaying (a no-op once the run ended); the reply is stored as cancelled."""
        self.relay.cancel()

    async def items(self) -> AsyncIterator[RunUpdate | RunEnd]:
        """The run's updates as they arrive, then its RunEnd. For one reader."""
        while True:
            item = await self._items.get()
            yield item
            if isinstance(item, ChatMessage | ErrorResponse):
                return

    async def end(self) -> RunEnd:
        # Shielded: a waiter that goes away must not cancel the run's result for the others.
        return await asyncio.shield(self._end)

    def finish(self, end: RunEnd) -> None:
        self._end.set_result(end)
        self._items.put_nowait(end)

    @property
    def replaced(self) -> bool:
        """Whether moderation flagged the answer (it is the preset reply from then on)."""
        return self._moderation is not None and self._moderation.guard.flagged

    def _show(self, shown: str) -> None:
        """Hand out the next piece of the answer, or the preset reply once moderation flagged it."""
        if self.replaced and self._moderation is not None and not self._replacement_sent:
            self._replacement_sent = True
            self.text = self._moderation.preset_reply
            self._items.put_nowait(MessageReplaceEvent(text=self.text))
        elif shown:
            self.text += shown
            self._items.put_nowait(MessageDeltaEvent(text=shown))

    def _ended(self, status: MessageStatus, text: str | None, **fields: Any) -> Outcome:
        """The outcome of a run that ended with `text` (None: what streamed), as moderated."""
        if self._moderation is not None:
            self._show(self._moderation.guard.finish(text))
            if self.replaced:
                return Outcome(status, self.text, moderated="output", **fields)
        return Outcome(status, self.text if text is None else text, **fields)

    async def _relay(self) -> Outcome:
        if self._response is None:
            self.text = self._preset_reply
            self._items.put_nowait(MessageDeltaEvent(text=self.text))
            return Outcome("completed", self.text, usage=NO_USAGE, moderated="input")
        try:
            async for event in EventSource(self._response).aiter_sse():
                match event.event:
                    case "message.delta":
                        delta = MessageDeltaEvent.model_validate_json(event.data)
                        if self._moderation is None:
                            self.text += delta.text
                            self._items.put_nowait(delta)
                        else:
                            self._show(self._moderation.guard.feed(delta.text))
                    case "tool.call":
                        call = ToolCallEvent.model_validate_json(event.data)
                        self._tool_calls[call.id] = ToolCallRecord(
                            **call.model_dump(), output=None, is_error=False
                        )
                        self._items.put_nowait(call)
                    case "tool.result":
                        result = ToolResultEvent.model_validate_json(event.data)
                        if call_record := self._tool_calls.get(result.id):
                            self._tool_calls[result.id] = call_record.model_copy(
                                update={
                                    "output": result.output,
                                    "is_error": result.is_error,
                                    "citations": result.citations,
                                }
                            )
                        self._items.put_nowait(result)
                    case "retry":
                        self.retries += 1
                    case "run.completed":
                        completed = _RunCompleted.model_validate_json(event.data)
                        return self._ended("completed", completed.message, usage=completed.usage)
                    case "run.failed":
                        failed = _RunFailed.model_validate_json(event.data)
                        return self._ended("failed", None, error=failure(failed.code, failed.status))
                    case "run.cancelled":
                        partial = _RunCancelled.model_validate_json(event.data).partial_message
                        return self._ended("cancelled", partial)
            return self._ended("failed", None, error=failure("runtime_unavailable"))
        finally:
            await self._response.aclose()
