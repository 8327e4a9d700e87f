"""The runs in progress of one console: starting a reply (within the limits on runs at once, its
question stored once the runtime took the run), storing the reply however the run ends, Stop,
and the knowledge tokens of running runs. Not here: the runtime's HTTP API (runtime_client.py),
reading a run's events (relay.py), what a run is counted against (limits.py)."""

from __future__ import annotations

import asyncio
import logging
import secrets
from datetime import UTC, datetime

import httpx
from starlette.concurrency import run_in_threadpool

from agent_builder.console.chat_runs.limits import RunLimits, Ticket
from agent_builder.console.chat_runs.relay import AnswerModeration, ChatRun, Outcome, RunEnd, failure
from agent_builder.console.chat_runs.runtime_client import (
    RUNTIME_TIMEOUT,
    RunSetup,
    Runtime,
    fit_history,
    open_run,
    request_cancel,
    require_runtime_token,
    run_request,
    runtime_unavailable,
)
from agent_builder.console.config import ConsoleConfig
from agent_builder.console.db import Database, new_id
from agent_builder.console.errors import ApiError
from agent_builder.console.schemas.agents import AgentConfig
from agent_builder.console.schemas.chat import ChatMessage, Moderated
from agent_builder.console.schemas.errors import ErrorResponse
from agent_builder.console.services import (
    conversations,
    env_vars,
    moderation,
    providers,
    skill_archives,
    tools,
)
from agent_builder.console.services.agents import ChatAgent
from agent_builder.console.services.conversations import Owner, Source

logger = logging.getLogger(__name__)

# How long Stop waits for the runtime to confirm the cancel before cutting the stream itself.
_STOP_GRACE_S = 5.0


def _enabled(config: AgentConfig, tool: str) -> bool:
    return any(item.name == tool and item.enabled for item in config.tools)


def _retrieves(config: AgentConfig) -> bool:
    """A run may retrieve knowledge: the model may search, or every message retrieves first."""
    every_message = config.knowledge.retrieval_mode == "every_message" and bool(config.knowledge.dataset_ids)
    return every_message or _enabled(config, "knowledge_search")


class ChatRuns:
    """The runs in progress of one console, and their knowledge tokens: each allows retrieval
    from its agent's datasets while its run is going."""

    def __init__(self, db: Database, config: ConsoleConfig) -> None:
        """Raises ConfigError for a runtime URL without the runtime's token."""
        require_runtime_token(config)
        self._db = db
        self._runtime = (
            Runtime(config.runtime_url, config.runtime_token)
            if config.runtime_url is not None and config.runtime_token is not None
            else None
        )
        self._history_chars = config.max_history_chars
        self._limits = RunLimits(config)
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
        agent: ChatAgent,
        source: Source,
        query: str,
        conversation_id: str | None,
        owner: Owner,
        client: str | None = None,
    ) -> ChatRun:
        """Start a reply: store the question once the runtime accepted the run. `client` is the
        web app client's address (limits.py). Raises ApiError 503 (no runtime, or it cannot be
        reached or refuses), 429 (too many runs at once), 404 (conversation: unknown, or not
        `owner`'s), 409 (model). A question content moderation flags is answered with the
        agent's preset reply at once, without the runtime or the model."""
        if moderation.flags_question(agent.config.moderation, query):
            return await self._preset_reply(agent, source, query, conversation_id, owner)
        runtime = self._runtime
        if runtime is None:
            raise runtime_unavailable("no agent runtime is connected to this console")
        ticket = self._limits.take(self._limits.limits(agent.id, source, owner, client))
        try:
            return await self._start(runtime, ticket, agent, source, query, conversation_id, owner)
        except BaseException:
            self._limits.give_back(ticket)
            raise

    async def _start(
        self,
        runtime: Runtime,
        ticket: Ticket,
        agent: ChatAgent,
        source: Source,
        query: str,
        conversation_id: str | None,
        owner: Owner,
    ) -> ChatRun:
        setup = await run_in_threadpool(self._setup, agent, source, conversation_id, owner)
        message_id = new_id()
        question = _question(query, conversation_id or new_id(), agent.version)
        token = secrets.token_urlsafe(32) if _retrieves(agent.config) else None
        request = run_request(agent, message_id, question, setup, token)
        client = httpx.AsyncClient(timeout=RUNTIME_TIMEOUT)
        if token:
            self._grants[token] = frozenset(agent.config.knowledge.dataset_ids)
        response: httpx.Response | None = None
        try:
            response = await open_run(client, runtime, request)
            await run_in_threadpool(
                conversations.start_turn, self._db, question, agent.id, source, owner, conversation_id is None
            )
        except BaseException:
            if response is not None:
                await response.aclose()  # the runtime cancels a run whose stream is closed
            await client.aclose()
            if token:
                del self._grants[token]
            raise
        guard = moderation.answer_guard(agent.config.moderation)
        answers = AnswerModeration(guard, agent.config.moderation.outputs.preset_reply) if guard else None
        run = ChatRun(message_id, question.conversation_id, agent.id, source, response, moderation=answers)
        self._active[message_id] = run
        driver = asyncio.create_task(self._drive(run, client, token, agent.version, ticket))
        self._drivers.add(driver)
        driver.add_done_callback(self._drivers.discard)
        return run

    async def _preset_reply(
        self, agent: ChatAgent, source: Source, query: str, conversation_id: str | None, owner: Owner
    ) -> ChatRun:
        """Store the flagged question and answer it with the preset reply; both are marked moderated."""
        if conversation_id is not None and not await run_in_threadpool(
            conversations.is_owner, self._db, agent.id, source, conversation_id, owner
        ):
            raise ApiError(404, "not_found", "Conversation not found.")
        question = _question(query, conversation_id or new_id(), agent.version, moderated="input")
        await run_in_threadpool(
            conversations.start_turn, self._db, question, agent.id, source, owner, conversation_id is None
        )
        preset = agent.config.moderation.inputs.preset_reply
        run = ChatRun(new_id(), question.conversation_id, agent.id, source, None, preset_reply=preset)
        driver = asyncio.create_task(self._drive(run, None, None, agent.version, None))
        self._drivers.add(driver)
        driver.add_done_callback(self._drivers.discard)
        return run

    def _setup(self, agent: ChatAgent, source: Source, conversation_id: str | None, owner: Owner) -> RunSetup:
        history = (
            conversations.history(self._db, agent.id, source, conversation_id, owner)
            if conversation_id
            else []
        )
        history = fit_history(history, self._history_chars)
        ref = agent.config.model
        model = providers.model_endpoint(self._db, ref.provider_id, ref.name) if ref else None
        if model is None:
            raise _model_unavailable(agent)
        web_search = tools.web_search_endpoint(self._db) if _enabled(agent.config, "web_search") else None
        variables = env_vars.run_variables(self._db, agent.id)
        return RunSetup(
            history, model, web_search, variables, skill_archives.run_skills(self._db, agent.config)
        )

    async def _drive(
        self,
        run: ChatRun,
        client: httpx.AsyncClient | None,
        knowledge_token: str | None,
        agent_version: int | None,
        ticket: Ticket | None,
    ) -> None:
        """Wait for the run to end, however it ends, then store the reply and hand it out. The
        run's slots are given back once it is stored, before anyone hears that it ended."""
        try:
            outcome = await _outcome(run)
        finally:
            if knowledge_token:
                del self._grants[knowledge_token]
            if client is not None:
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
            created_at=datetime.now(UTC),
            moderated=outcome.moderated,
        )
        end: RunEnd = reply
        try:
            await run_in_threadpool(conversations.save_reply, self._db, reply)
        except Exception:
            logger.exception("run %s: the reply could not be stored", run.message_id)
            end = ErrorResponse(code="internal_error", message="The reply could not be stored.")
        self._active.pop(run.message_id, None)
        if ticket is not None:
            self._limits.give_back(ticket)
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
            if self._runtime is not None:  # always: the run was started through it
                await request_cancel(self._runtime, run.message_id)
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


def _model_unavailable(agent: ChatAgent) -> ApiError:
    ref = agent.config.model
    if ref is None and agent.version is None:
        return ApiError(409, "model_unavailable", "The draft has no model: choose one under Model.")
    which = f"model {ref.name!r}" if ref else "model"
    fix = (
        "Choose an active model."
        if agent.version is None
        else "Activate it, or publish the agent with an active model."
    )
    return ApiError(
        409,
        "model_unavailable",
        f"The agent's {which} is not available: it was deactivated or its provider was removed. {fix}",
    )


def _question(
    query: str, conversation_id: str, agent_version: int | None, moderated: Moderated | None = None
) -> ChatMessage:
    return ChatMessage(
        id=new_id(),
        conversation_id=conversation_id,
        role="user",
        content=query,
        status="completed",
        error=None,
        tool_calls=[],
        retries=0,
        usage=None,
        agent_version=agent_version,
        created_at=datetime.now(UTC),
        moderated=moderated,
    )


async def _outcome(run: ChatRun) -> Outcome:
    """How the run's relay ended, whatever stopped it."""
    try:
        return await run.relay
    except asyncio.CancelledError:
        # cancel(): Stop without the runtime's confirmation, a service API client that went
        # away, or shutdown. The relay closed the stream, so the runtime cancels too.
        return Outcome("cancelled", run.text, moderated="output" if run.replaced else None)
    except httpx.HTTPError as exc:
        logger.warning("run %s: lost the runtime's stream: %s", run.message_id, type(exc).__name__)
        return Outcome("failed", run.text, error=failure("runtime_unavailable"))
    except Exception:
        logger.exception("run %s: unexpected failure while relaying", run.message_id)
        return Outcome("failed", run.text, error=failure("internal_error"))
