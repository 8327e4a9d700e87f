"""Chat replies as runs on the agent runtime (docs/runtime.md).

Each assistant reply is one run, identified by the reply's message id. The console posts the
agent's published config, the conversation so far and the query to `POST {runtime}/runs`, relays
the run's events to the surface that asked (web app or service API), and stores the reply when
the run ends. A run lives in tasks of its own, not in the request: a web app visitor who closes
the page still gets the reply stored, and Stop can reach the run from another request.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass

import httpx
from httpx_sse import EventSource
from pydantic import BaseModel, SecretStr
from starlette.concurrency import run_in_threadpool

from agent_builder.console.config import ConsoleConfig
from agent_builder.console.db import Database, new_id, utc_now
from agent_builder.console.errors import ApiError
from agent_builder.console.schemas.agents import AgentConfig
from agent_builder.console.schemas.chat import (
    ChatMessage,
    MessageDeltaEvent,
    MessageStatus,
    ToolCallEvent,
    ToolCallRecord,
    ToolResultEvent,
    Usage,
)
from agent_builder.console.schemas.errors import ErrorResponse
from agent_builder.console.services import conversations, providers, tools
from agent_builder.console.services.agents import PublishedAgent
from agent_builder.console.services.conversations import Source
from agent_builder.runtime import schemas as runtime

logger = logging.getLogger(__name__)

KNOWLEDGE_RETRIEVE_PATH = "/internal/knowledge/retrieve"
# The runtime itself bounds every wait (model chunks 60 s, sandbox commands 120 s); this only
# ends a stream whose runtime went silent for longer than any of those.
_RUNTIME_TIMEOUT = httpx.Timeout(connect=5.0, read=300.0, write=10.0, pool=5.0)
_CANCEL_TIMEOUT_S = 5.0
# How long Stop waits for the runtime to confirm the cancel before cutting the stream itself.
_STOP_GRACE_S = 5.0

RunUpdate = MessageDeltaEvent | ToolCallEvent | ToolResultEvent
# The last item of a run: the stored reply, or why it could not be stored.
RunEnd = ChatMessage | ErrorResponse


def _runtime_unavailable(reason: str) -> ApiError:
    return ApiError(503, "runtime_unavailable", f"Chat is unavailable: {reason}.")


def _failure(code: str, status: int | None = None) -> ErrorResponse:
    """A failed run in words for the people chatting; `code` stays the runtime's. The runtime's
    own message is left out: it may quote the provider's answer verbatim."""
    suffix = f" ({status})" if status else ""
    messages = {
        "provider_auth_failed": f"The model provider refused the request{suffix}.",
        "provider_error": f"The model provider could not process the request{suffix}.",
        "provider_unavailable": f"The model provider is unavailable{suffix}. Try again later.",
        "tool_loop_limit": "The agent gave up after too many tool calls without an answer.",
        "runtime_unavailable": "The connection to the agent runtime was lost.",
    }
    return ErrorResponse(code=code, message=messages.get(code, "The agent runtime failed unexpectedly."))


@dataclass(frozen=True)
class _Outcome:
    status: MessageStatus
    text: str
    error: ErrorResponse | None = None
    usage: Usage | None = None


# The runtime's terminal events (the others have the console's event shapes).
class _RunCompleted(BaseModel):
    message: str
    usage: Usage


class _RunFailed(BaseModel):
    code: str
    status: int | None = None


class _RunCancelled(BaseModel):
    partial_message: str


class ChatRun:
    """One reply in progress. Its relay task reads the runtime's event stream; cancelling that
    task (`cancel()`) closes the stream, which cancels the run in the runtime too."""

    def __init__(
        self,
        message_id: str,
        conversation_id: str,
        agent_id: str,
        source: Source,
        cancel_url: str,
        response: httpx.Response,
    ) -> None:
        self.message_id = message_id
        self.conversation_id = conversation_id
        self.agent_id = agent_id
        self.source = source
        self.cancel_url = cancel_url
        self.text = ""
        self.retries = 0
        self._tool_calls: dict[str, ToolCallRecord] = {}  # by call id, in call order
        self._response = response
        self._items: asyncio.Queue[RunUpdate | RunEnd] = asyncio.Queue()
        self._end: asyncio.Future[RunEnd] = asyncio.get_running_loop().create_future()
        self.relay: asyncio.Task[_Outcome] = asyncio.create_task(self._relay())

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

    async def _relay(self) -> _Outcome:
        try:
            async for event in EventSource(self._response).aiter_sse():
                match event.event:
                    case "message.delta":
                        delta = MessageDeltaEvent.model_validate_json(event.data)
                        self.text += delta.text
                        self._items.put_nowait(delta)
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
                                update={"output": result.output, "is_error": result.is_error}
                            )
                        self._items.put_nowait(result)
                    case "retry":
                        self.retries += 1
                    case "run.completed":
                        completed = _RunCompleted.model_validate_json(event.data)
                        return _Outcome("completed", completed.message, usage=completed.usage)
                    case "run.failed":
                        failed = _RunFailed.model_validate_json(event.data)
                        return _Outcome("failed", self.text, error=_failure(failed.code, failed.status))
                    case "run.cancelled":
                        return _Outcome(
                            "cancelled", _RunCancelled.model_validate_json(event.data).partial_message
                        )
            return _Outcome("failed", self.text, error=_failure("runtime_unavailable"))
        finally:
            await self._response.aclose()


@dataclass(frozen=True)
class _Setup:
    """What a run needs from the database, read before anything is sent to the runtime."""

    history: list[tuple[str, str]]
    model: providers.ModelEndpoint
    web_search: tools.WebSearchEndpoint | None


def _enabled(config: AgentConfig, tool: str) -> bool:
    return any(item.name == tool and item.enabled for item in config.tools)


class ChatRuns:
    """The runs in progress of one console, and their knowledge tokens: each allows retrieval
    from its agent's datasets while its run is going."""

    def __init__(self, db: Database, config: ConsoleConfig) -> None:
        self._db = db
        self._config = config
        self._active: dict[str, ChatRun] = {}
        self._grants: dict[str, frozenset[str]] = {}  # knowledge token -> dataset ids
        self._drivers: set[asyncio.Task[None]] = set()

    def active(self, message_id: str) -> ChatRun | None:
        return self._active.get(message_id)

    def knowledge_datasets(self, token: str) -> frozenset[str] | None:
        """The datasets a knowledge token may search; None for an unknown or expired token."""
        return self._grants.get(token)

    async def start(
        self,
        agent: PublishedAgent,
        source: Source,
        query: str,
        conversation_id: str | None,
        user: str | None,
        console_url: str,
    ) -> ChatRun:
        """Start a reply: store the question once the runtime accepted the run. Raises ApiError
        503 (no runtime, or it cannot be reached or refuses), 404 (conversation), 409 (model)."""
        runtime_url = self._config.runtime_url
        if runtime_url is None:
            raise _runtime_unavailable("no agent runtime is connected to this console")
        setup = await run_in_threadpool(self._setup, agent, source, conversation_id)
        message_id = new_id()
        question = ChatMessage(
            id=new_id(),
            conversation_id=conversation_id or new_id(),
            role="user",
            content=query,
            status="completed",
            error=None,
            tool_calls=[],
            retries=0,
            usage=None,
            agent_version=agent.version,
            created_at=utc_now(),
        )
        token = secrets.token_urlsafe(32) if _enabled(agent.config, "knowledge_search") else None
        request = self._run_request(agent, message_id, question, setup, token, console_url)
        client = httpx.AsyncClient(timeout=_RUNTIME_TIMEOUT)
        if token:
            self._grants[token] = frozenset(agent.config.knowledge.dataset_ids)
        response: httpx.Response | None = None
        try:
            response = await _open_run(client, f"{runtime_url}/runs", request)
            await run_in_threadpool(
                conversations.start_turn, self._db, question, agent.id, source, user, conversation_id is None
            )
        except BaseException:
            if response is not None:
                await response.aclose()  # the runtime cancels a run whose stream is closed
            await client.aclose()
            if token:
                del self._grants[token]
            raise
        run = ChatRun(
            message_id,
            question.conversation_id,
            agent.id,
            source,
            f"{runtime_url}/runs/{message_id}/cancel",
            response,
        )
        self._active[message_id] = run
        driver = asyncio.create_task(self._drive(run, client, token, agent.version))
        self._drivers.add(driver)
        driver.add_done_callback(self._drivers.discard)
        return run

    def _setup(self, agent: PublishedAgent, source: Source, conversation_id: str | None) -> _Setup:
        history = (
            conversations.history(self._db, agent.id, source, conversation_id) if conversation_id else []
        )
        ref = agent.config.model
        model = providers.model_endpoint(self._db, ref.provider_id, ref.name) if ref else None
        if model is None:
            which = f"model {ref.name!r}" if ref else "model"
            raise ApiError(
                409,
                "model_unavailable",
                f"The agent's {which} is not available: it was deactivated or its provider was removed. "
                "Activate it, or publish the agent with an active model.",
            )
        web_search = tools.web_search_endpoint(self._db) if _enabled(agent.config, "web_search") else None
        return _Setup(history, model, web_search)

    def _run_request(
        self,
        agent: PublishedAgent,
        message_id: str,
        question: ChatMessage,
        setup: _Setup,
        knowledge_token: str | None,
        console_url: str,
    ) -> runtime.RunRequest:
        config = agent.config
        knowledge = (
            runtime.KnowledgeService(
                retrieve_url=console_url + KNOWLEDGE_RETRIEVE_PATH, token=SecretStr(knowledge_token)
            )
            if knowledge_token
            else None
        )
        web_search = (
            runtime.WebSearchService(
                base_url=setup.web_search.base_url, api_key=SecretStr(setup.web_search.secret)
            )
            if setup.web_search
            else None
        )
        return runtime.RunRequest(
            run_id=message_id,
            agent=runtime.AgentSnapshot(
                name=agent.name,
                instructions=config.instructions,
                model=runtime.ModelSettings(
                    base_url=setup.model.base_url,
                    api_key=SecretStr(setup.model.api_key),
                    name=setup.model.name,
                ),
                parameters=runtime.Parameters.model_validate(config.parameters.model_dump()),
                tools=[runtime.ToolSetting(name=tool.name, enabled=tool.enabled) for tool in config.tools],
                knowledge=runtime.KnowledgeSettings.model_validate(config.knowledge.model_dump()),
            ),
            conversation_id=question.conversation_id,
            history=[runtime.HistoryMessage(role=role, content=content) for role, content in setup.history],
            query=question.content,
            services=runtime.Services(
                shellctl_url=self._config.shellctl_url, knowledge=knowledge, web_search=web_search
            ),
        )

    async def _drive(
        self, run: ChatRun, client: httpx.AsyncClient, knowledge_token: str | None, agent_version: int
    ) -> None:
        """Wait for the run to end, however it ends, then store the reply and hand it out."""
        try:
            outcome = await run.relay
        except asyncio.CancelledError:
            # cancel(): Stop without the runtime's confirmation, a service API client that went
            # away, or shutdown. The relay closed the stream, so the runtime cancels too.
            outcome = _Outcome("cancelled", run.text)
        except httpx.HTTPError as exc:
            logger.warning("run %s: lost the runtime's stream: %s", run.message_id, type(exc).__name__)
            outcome = _Outcome("failed", run.text, error=_failure("runtime_unavailable"))
        except Exception:
            logger.exception("run %s: unexpected failure while relaying", run.message_id)
            outcome = _Outcome("failed", run.text, error=_failure("internal_error"))
        finally:
            if knowledge_token:
                del self._grants[knowledge_token]
            await client.aclose()
        reply = ChatMessage(
            id=run.message_id,
            conversation_id=run.conversation_id,
            role="assistant",
            content=outcome.text,
            status=outcome.status,
            error=outcome.error,
            tool_calls=run.tool_calls,
            retries=run.retries,
            usage=outcome.usage,
            agent_version=agent_version,
            created_at=utc_now(),
        )
        end: RunEnd = reply
        try:
            await run_in_threadpool(conversations.save_reply, self._db, reply)
        except Exception:
            logger.exception("run %s: the reply could not be stored", run.message_id)
            end = ErrorResponse(code="internal_error", message="The reply could not be stored.")
        self._active.pop(run.message_id, None)
        run.finish(end)
        logger.info(
            "run %s: %s%s",
            run.message_id,
            outcome.status,
            f" ({outcome.error.code})" if outcome.error else "",
        )

    async def stop(self, run: ChatRun) -> RunEnd:
        """Cancel through the runtime's cancel API, so the run ends with exactly the text it
        streamed; if the runtime cannot be asked or does not end it in time, cut the stream."""
        try:
            async with httpx.AsyncClient(timeout=_CANCEL_TIMEOUT_S) as client:
                await client.post(run.cancel_url)  # 404: the run is ending anyway
        except httpx.HTTPError:
            run.cancel()
        try:
            return await asyncio.wait_for(run.end(), _STOP_GRACE_S)
        except TimeoutError:
            run.cancel()
            return await run.end()

    async def aclose(self) -> None:
        """Shutdown: stop every run still going; their replies are stored as cancelled."""
        for run in list(self._active.values()):
            run.cancel()
        await asyncio.gather(*self._drivers, return_exceptions=True)


async def _open_run(client: httpx.AsyncClient, url: str, request: runtime.RunRequest) -> httpx.Response:
    """POST the run; a 200 is its event stream. Anything else means there will be no reply."""
    # JSON mode would write SecretStr values as "**********": this is the one place they travel.
    body = json.dumps(request.model_dump(), default=_reveal).encode()
    headers = {"Content-Type": "application/json", "Accept": "text/event-stream"}
    try:
        response = await client.send(
            client.build_request("POST", url, content=body, headers=headers), stream=True
        )
        if response.status_code == 200:
            return response
        await response.aread()
        await response.aclose()
    except httpx.HTTPError as exc:
        logger.warning("run %s: cannot reach the runtime: %s", request.run_id, exc)
        raise _runtime_unavailable("the agent runtime cannot be reached") from None
    code = _error_code(response)
    logger.warning("run %s: the runtime refused it: HTTP %s %s", request.run_id, response.status_code, code)
    raise _runtime_unavailable(f"the agent runtime refused the run (HTTP {response.status_code} {code})")


def _error_code(response: httpx.Response) -> str:
    try:
        return str(response.json()["code"])
    except (ValueError, KeyError, TypeError):
        return "without an error code"


def _reveal(value: object) -> str:
    if isinstance(value, SecretStr):
        return value.get_secret_value()
    raise TypeError(f"{type(value).__name__} is not JSON serializable")
