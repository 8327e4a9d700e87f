"""One run of the agent loop: call the model (streaming), run the tools it asks for, feed their
results back, until it answers in text or the call limit is reached. Every outcome, cancellation
included, ends in exactly one terminal event."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from typing import Any

import httpx

from agent_builder.runtime import events
from agent_builder.runtime.config import RuntimeConfig
from agent_builder.runtime.events import Event
from agent_builder.runtime.outputs import OUTPUTS_NOTE, SET_OUTPUTS, mismatch, tool_spec
from agent_builder.runtime.provider import Completion, ProviderError, ToolCallRequest, stream_chat
from agent_builder.runtime.schemas import RunRequest
from agent_builder.runtime.skills import skills_note
from agent_builder.runtime.tools import RETRIEVAL, Toolbox, ToolResult, ToolServices

logger = logging.getLogger(__name__)

MAX_MODEL_CALLS = 6
_TOOL_NOTE = "You can call tools ({names}). Call one when the request needs it, then answer from its result."
_KNOWLEDGE_NOTE = "Knowledge retrieved for this message (answer from it, and cite the document you used):"


class _RunFailed(Exception):
    def __init__(self, code: str, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.event = events.run_failed(code, message, status)


def _failure(error: ProviderError, attempts: int | None) -> _RunFailed:
    """`attempts` is set when the retry budget ran out."""
    if error.status in (401, 403):
        return _RunFailed(
            "provider_auth_failed",
            f"The model provider rejected the credentials: {error.message}",
            error.status,
        )
    if attempts is not None:
        message = f"The model provider is unavailable after {attempts} attempts: {error.message}"
        return _RunFailed("provider_unavailable", message, error.status)
    if error.transient:
        return _RunFailed(
            "provider_unavailable", f"The model stream broke off: {error.message}", error.status
        )
    return _RunFailed(
        "provider_error", f"The model provider refused the request: {error.message}", error.status
    )


class AgentRun:
    def __init__(
        self,
        request: RunRequest,
        config: RuntimeConfig,
        http: httpx.AsyncClient,
        emit: Callable[[Event], None],
    ) -> None:
        self._request = request
        self._config = config
        self._http = http
        self._emit_to_client = emit
        services = ToolServices(
            config.shell_timeout_s, config.shellctl_url, config.shellctl_token, config.console_url
        )
        self._tools = Toolbox(request, http, services)
        self._message = ""  # all text streamed to the client so far: the partial message on cancel
        self._deltas = 0
        self._paragraph_break = False
        self._outputs_set = False

    async def run(self) -> None:
        """Runs to a terminal event. Cancelling the task running this is how a run is cancelled."""
        started = time.monotonic()
        try:
            self._emit(events.run_started(self._request.run_id))
            final = await self._loop()
        except _RunFailed as failure:
            final = failure.event
        except asyncio.CancelledError:
            # The top of the run's own task: ending normally here, with the terminal event, is
            # what cancelling a run means.
            final = events.run_cancelled(self._message)
        except Exception:
            logger.exception("run %s: unexpected failure", self._request.run_id)
            final = events.run_failed("internal_error", "The run failed unexpectedly.")
        self._emit_to_client(final)
        logger.info(
            "run %s: %s after %d ms, %d message deltas",
            self._request.run_id,
            final.name,
            (time.monotonic() - started) * 1000,
            self._deltas,
        )

    async def _loop(self) -> Event:
        outputs = self._request.agent.outputs
        tools = self._tools.specs()
        system = await self._system_prompt(bool(tools))
        if outputs:
            tools = [*tools, tool_spec(outputs)]
            system = f"{system}\n\n{OUTPUTS_NOTE}".strip()
        messages: list[dict[str, Any]] = [{"role": "system", "content": system}] if system else []
        messages += [{"role": item.role, "content": item.content} for item in self._request.history]
        messages.append({"role": "user", "content": self._request.query})
        prompt_tokens = completion_tokens = 0
        for _ in range(MAX_MODEL_CALLS):
            completion = await self._complete(messages, tools)
            prompt_tokens += completion.prompt_tokens
            completion_tokens += completion.completion_tokens
            if not completion.tool_calls:
                if outputs and not self._outputs_set:
                    raise _RunFailed("outputs_missing", "The model answered without setting the outputs.")
                return events.run_completed(self._message, prompt_tokens, completion_tokens)
            messages.append(
                {
                    "role": "assistant",
                    "content": completion.text or None,
                    "tool_calls": [
                        {
                            "id": call.id,
                            "type": "function",
                            "function": {"name": call.name, "arguments": call.arguments},
                        }
                        for call in completion.tool_calls
                    ],
                }
            )
            for call in completion.tool_calls:
                output = await self._run_tool(call)
                messages.append({"role": "tool", "tool_call_id": call.id, "content": output})
        raise _RunFailed(
            "tool_loop_limit", f"The agent made {MAX_MODEL_CALLS} model calls without a final answer."
        )

    async def _system_prompt(self, offers_tools: bool) -> str:
        """The instructions, the tools note, and with every-message retrieval the passages found
        for the user's question (retrieved here, before the first model call, and shown to the
        client as a `knowledge_retrieval` tool call with its citations)."""
        agent = self._request.agent
        system = agent.instructions
        if offers_tools:
            system = f"{system}\n\n{_TOOL_NOTE.format(names=', '.join(self._tools.enabled))}".strip()
        if agent.skills:
            system = f"{system}\n\n{skills_note(agent.skills)}".strip()
        knowledge = agent.knowledge
        if knowledge.retrieval_mode == "every_message" and knowledge.dataset_ids:
            call_id = f"{RETRIEVAL}-{self._request.run_id}"
            arguments = {"query": self._request.query}
            self._emit(events.tool_call(call_id, RETRIEVAL, arguments))
            result = await self._tools.retrieve(self._request.query)
            citations = [citation.as_dict() for citation in result.citations]
            self._emit(events.tool_result(call_id, RETRIEVAL, result.output, result.is_error, citations))
            if citations:
                system = f"{system}\n\n{_KNOWLEDGE_NOTE}\n\n{result.output}".strip()
        return system

    async def _complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Completion:
        model = self._request.agent.model
        body: dict[str, Any] = {
            "model": model.name,
            "messages": messages,
            "stream": True,
            "stream_options": {"include_usage": True},
            "temperature": self._request.agent.parameters.temperature,
            "max_tokens": self._request.agent.parameters.max_tokens,
        }
        if tools:
            body["tools"] = tools
        # Text of a later model call starts a new paragraph of the one visible message.
        self._paragraph_break = bool(self._message)
        attempt = 1
        while True:
            deltas_before = self._deltas
            try:
                return await stream_chat(
                    self._http, model.base_url, model.api_key.get_secret_value(), body, self._stream_text
                )
            except ProviderError as error:
                # Once text reached the client a retry would repeat it, so only a clean failure is retried.
                retryable = error.transient and self._deltas == deltas_before
                if not retryable or attempt > self._config.retry_budget:
                    raise _failure(error, attempts=attempt if retryable else None) from None
                delay_ms = self._config.retry_delay_ms * 2 ** (attempt - 1)
                self._emit(events.retry(attempt, delay_ms, error.status, error.message))
                await asyncio.sleep(delay_ms / 1000)
                attempt += 1

    async def _run_tool(self, call: ToolCallRequest) -> str:
        try:
            parsed = json.loads(call.arguments or "{}")
        except ValueError:
            parsed = None
        arguments: dict[str, Any] | str = parsed if isinstance(parsed, dict) else call.arguments
        self._emit(events.tool_call(call.id, call.name, arguments))
        if call.name == SET_OUTPUTS and self._request.agent.outputs:
            result = self._set_outputs(call, arguments)
        elif isinstance(arguments, dict):
            result = await self._tools.call(call.name, arguments)
        else:
            result = ToolResult("The tool arguments must be a JSON object.", True)
        citations = [citation.as_dict() for citation in result.citations]
        self._emit(events.tool_result(call.id, call.name, result.output, result.is_error, citations))
        return result.output

    def _set_outputs(self, call: ToolCallRequest, values: dict[str, Any] | str) -> ToolResult:
        """Check the outputs the model set; ones that do not fit end the run (outputs_invalid)."""
        problem = mismatch(values, self._request.agent.outputs)
        if problem is not None:
            self._emit(
                events.tool_result(call.id, call.name, f"The outputs do not fit: {problem}.", True, [])
            )
            raise _RunFailed(
                "outputs_invalid", f"The model's outputs do not fit the declared outputs: {problem}."
            )
        self._outputs_set = True
        return ToolResult("Outputs recorded.", False)

    def _stream_text(self, text: str) -> None:
        if self._paragraph_break:
            text, self._paragraph_break = "\n\n" + text, False
        self._message += text
        self._deltas += 1
        self._emit(events.message_delta(text))

    def _emit(self, event: Event) -> None:
        if event.name != "message.delta":  # deltas are counted, not logged one by one
            logger.info("run %s: %s", self._request.run_id, event.name)
        self._emit_to_client(event)
