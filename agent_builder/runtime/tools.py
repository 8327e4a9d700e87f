"""The builtin tools: their JSON schemas (offered to the model) and how each one runs.

A tool never raises: every failure becomes a result with `is_error` and a message that tells the
model (and the user reading the run) what went wrong. So does a bug: an unexpected exception inside
a tool is that tool's error result (its traceback logged), never the run's failure."""

from __future__ import annotations

import json
import logging
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any

import httpx

from agent_builder.redaction import scrub
from agent_builder.runtime import json_replace
from agent_builder.runtime.schemas import KNOWLEDGE_RETRIEVE_PATH, RunRequest, ToolName
from agent_builder.runtime.skills import place_skills

logger = logging.getLogger(__name__)

MAX_OUTPUT_CHARS = 16_000
MIN_HIDDEN_SECRET_CHARS = 4
_SERVICE_TIMEOUT_S = 30.0
# shellctl enforces the command timeout; the HTTP call only needs room for its reply on top.
_SHELL_HTTP_MARGIN_S = 10.0
# The name every-message retrieval goes by in tool.call/tool.result events (never offered to the model).
RETRIEVAL = "knowledge_retrieval"


def _function(name: ToolName, description: str, properties: dict[str, Any]) -> dict[str, Any]:
    parameters = {"type": "object", "properties": properties, "required": list(properties)}
    return {
        "type": "function",
        "function": {"name": name, "description": description, "parameters": parameters},
    }


_TEXT = {"type": "string"}
TOOL_SPECS: dict[ToolName, dict[str, Any]] = {
    "sandbox_shell": _function(
        "sandbox_shell",
        "Run a shell command in this conversation's sandbox workspace; returns its output.",
        {"command": {**_TEXT, "description": "the command line, run with /bin/sh -c"}},
    ),
    "json_replace": _function(
        "json_replace",
        "Set the value at a path in a JSON document; returns the new JSON text.",
        {
            "json": {**_TEXT, "description": "the JSON document"},
            "path": {**_TEXT, "description": "where to set, like a.b[0].c"},
            "value": {
                **_TEXT,
                "description": 'the new value as JSON (42, true, "text"); plain text is a string',
            },
        },
    ),
    "knowledge_search": _function(
        "knowledge_search",
        "Search the agent's knowledge datasets; returns the best matching passages.",
        {"query": {**_TEXT, "description": "what to look for"}},
    ),
    "web_search": _function(
        "web_search",
        "Search the web; returns result titles, links and snippets.",
        {"query": {**_TEXT, "description": "the search query"}},
    ),
}


@dataclass(frozen=True)
class Citation:
    """Where a knowledge passage comes from, as the console's retrieval names it."""

    dataset_id: str
    dataset_name: str
    document_id: str
    document_name: str

    def as_dict(self) -> dict[str, str]:
        return {
            "dataset_id": self.dataset_id,
            "dataset_name": self.dataset_name,
            "document_id": self.document_id,
            "document_name": self.document_name,
        }


@dataclass(frozen=True)
class ToolResult:
    output: str
    is_error: bool = False
    citations: tuple[Citation, ...] = ()


@dataclass(frozen=True)
class ToolServices:
    """Where the tools reach their services: the runtime's own settings, never the run request's,
    so the shellctl token goes only to the configured shellctl and a knowledge token only to the
    configured console."""

    shell_timeout_s: float
    shellctl_url: str | None = None
    shellctl_token: str | None = field(default=None, repr=False)
    console_url: str | None = None  # knowledge retrieval: <console_url>/internal/knowledge/retrieve


class Toolbox:
    """The tools one run may use: those enabled on the agent, wired to the runtime's services."""

    def __init__(self, request: RunRequest, http: httpx.AsyncClient, services: ToolServices) -> None:
        self._request = request
        self._http = http
        self._services = services
        token = services.shellctl_token
        self._shellctl_headers = {"Authorization": f"Bearer {token}"} if token else {}
        self._skills_placed = not request.agent.skills  # put in the workspace before the first command
        self.enabled: list[ToolName] = list(
            dict.fromkeys(tool.name for tool in request.agent.tools if tool.enabled)
        )

    def specs(self) -> list[dict[str, Any]]:
        return [TOOL_SPECS[name] for name in self.enabled]

    async def call(self, name: str, arguments: dict[str, Any]) -> ToolResult:
        if name not in self.enabled:
            available = ", ".join(self.enabled) or "no tools"
            return ToolResult(f"Unknown tool {name!r}: this agent can use {available}.", True)
        return await self._guarded(name, self._dispatch(name, arguments))

    async def retrieve(self, query: str) -> ToolResult:
        """Every-message retrieval: the agent's knowledge searched with the user's question before
        the model is called, whether or not the model may call knowledge_search itself."""
        return await self._guarded(RETRIEVAL, self._knowledge_search(query, RETRIEVAL))

    async def _guarded(self, name: str, work: Coroutine[Any, Any, ToolResult]) -> ToolResult:
        try:
            result = await work
        except _ToolFailure as failure:
            result = ToolResult(str(failure), True)
        except Exception as exc:  # a bug in the tool, or in what it calls: the run goes on
            logger.exception("tool %s failed unexpectedly", name)
            result = ToolResult(f"{name} failed unexpectedly ({type(exc).__name__}).", True)
        result = self._hide_secrets(result)
        if len(result.output) > MAX_OUTPUT_CHARS:
            truncated = result.output[:MAX_OUTPUT_CHARS] + "\n[output truncated]"
            result = ToolResult(truncated, result.is_error, result.citations)
        return result

    def _sandbox_env(self) -> dict[str, str]:
        agent = self._request.agent
        return agent.env | {name: value.get_secret_value() for name, value in agent.secret_env.items()}

    def _hide_secrets(self, result: ToolResult) -> ToolResult:
        """A secret variable's value, wherever a tool printed it, becomes `[secret NAME]`: the
        model, the visitor and the stored conversation never see it. Values shorter than
        MIN_HIDDEN_SECRET_CHARS would mangle ordinary output and are left as they are."""
        output = result.output
        secrets = {name: value.get_secret_value() for name, value in self._request.agent.secret_env.items()}
        for name, value in sorted(secrets.items(), key=lambda item: -len(item[1])):  # longest first
            if len(value) >= MIN_HIDDEN_SECRET_CHARS:
                output = output.replace(value, f"[secret {name}]")
        return ToolResult(output, result.is_error, result.citations)

    async def _dispatch(self, name: str, arguments: dict[str, Any]) -> ToolResult:
        if name == "sandbox_shell":
            return await self._sandbox_shell(_text_argument(arguments, "command"))
        if name == "json_replace":
            document, path = _text_argument(arguments, "json"), _text_argument(arguments, "path")
            try:
                return ToolResult(json_replace.replace(document, path, _argument(arguments, "value")))
            except json_replace.JsonReplaceError as exc:
                raise _ToolFailure(f"json_replace failed: {exc}") from None
        if name == "knowledge_search":
            return await self._knowledge_search(_text_argument(arguments, "query"))
        return await self._web_search(_text_argument(arguments, "query"))

    async def _sandbox_shell(self, command: str) -> ToolResult:
        shellctl_url = self._services.shellctl_url
        if not shellctl_url:
            raise _ToolFailure(
                "sandbox_shell is unavailable: no sandbox (shellctl) is configured for this run."
            )
        timeout = self._services.shell_timeout_s
        owner = self._request.services.shellctl_owner
        if not self._skills_placed:
            session = f"{shellctl_url.rstrip('/')}/sessions/{self._request.conversation_id}"
            await place_skills(self._http, session, owner, self._shellctl_headers, self._request.agent.skills)
            self._skills_placed = True
        reply = await self._post(
            "sandbox_shell",
            f"{shellctl_url.rstrip('/')}/sessions/{self._request.conversation_id}/exec"
            + (f"?owner={owner}" if owner else ""),  # the schema keeps it to URL-safe characters
            {"command": command, "timeout_s": timeout, "env": self._sandbox_env()},
            headers=self._shellctl_headers,
            timeout=timeout + _SHELL_HTTP_MARGIN_S,
        )
        stdout, stderr = reply.get("stdout", ""), reply.get("stderr", "")
        if reply.get("timed_out"):
            partial = f"\nOutput before the timeout:\n{stdout}" if stdout else ""
            return ToolResult(f"Command timed out after {timeout:g}s{partial}", True)
        parts = [] if reply.get("exit_code") == 0 else [f"Exit code {reply.get('exit_code')}"]
        parts += [stdout] if stdout else []
        parts += [f"[stderr]\n{stderr}"] if stderr else []
        parts += ["[output truncated]"] if reply.get("truncated") else []
        return ToolResult("\n".join(parts) if parts else "(no output)")

    async def _knowledge_search(self, query: str, tool: str = "knowledge_search") -> ToolResult:
        service = self._request.services.knowledge
        console_url = self._services.console_url
        if service is None or console_url is None:
            raise _ToolFailure(f"{tool} is unavailable: no knowledge retrieval is configured for this run.")
        knowledge = self._request.agent.knowledge
        reply = await self._post(
            tool,
            console_url + KNOWLEDGE_RETRIEVE_PATH,
            {
                "query": query,
                "dataset_ids": knowledge.dataset_ids,
                "top_k": knowledge.top_k,
                "score_threshold": knowledge.score_threshold,
            },
            headers={"Authorization": f"Bearer {service.token.get_secret_value()}"},
        )
        records = [record for record in reply.get("records") or [] if isinstance(record, dict)]
        rendered = [_render_record(number, record) for number, record in enumerate(records, start=1)]
        citations = tuple(dict.fromkeys(_citation(record) for record in records))
        return ToolResult("\n\n".join(rendered) or "No matching passages found.", citations=citations)

    async def _web_search(self, query: str) -> ToolResult:
        service = self._request.services.web_search
        if service is None:
            raise _ToolFailure(
                "web_search is unavailable: no web search provider is configured for this run."
            )
        reply = await self._post(
            "web_search",
            f"{service.base_url.rstrip('/')}/search",
            {"query": query},
            headers={"Authorization": f"Bearer {service.api_key.get_secret_value()}"},
        )
        results = reply.get("results")
        if not isinstance(results, list):
            return ToolResult(json.dumps(reply, ensure_ascii=False))  # an unknown shape, passed on as is
        rendered = [_render_result(result) for result in results if isinstance(result, dict)]
        return ToolResult("\n\n".join(rendered) or "No results found.")

    async def _post(
        self,
        tool: str,
        url: str,
        body: dict[str, Any],
        headers: dict[str, str],
        timeout: float = _SERVICE_TIMEOUT_S,
    ) -> dict[str, Any]:
        # What the service says goes to the tool card, which web app visitors see: without the
        # credential this call sent (a service may quote it back) or anything like one.
        credentials = [value.partition(" ")[2] for value in headers.values()]
        try:
            response = await self._http.post(url, json=body, headers=headers, timeout=timeout)
        except httpx.HTTPError as exc:
            reason = scrub(str(exc), credentials) or type(exc).__name__
            raise _ToolFailure(f"{tool} failed: cannot reach its service ({reason}).") from None
        try:
            reply = response.json()
        except ValueError:
            reply = None
        if response.status_code >= 400:
            detail = reply.get("message") if isinstance(reply, dict) else None
            detail = detail or response.text.strip()[:300] or response.reason_phrase
            raise _ToolFailure(
                f"{tool} failed: HTTP {response.status_code}: {scrub(str(detail), credentials)}"
            )
        if not isinstance(reply, dict):
            raise _ToolFailure(f"{tool} failed: its service did not answer with a JSON object.")
        return reply


class _ToolFailure(Exception):
    pass


def _render_record(number: int, record: dict[str, Any]) -> str:
    score = float(record.get("score") or 0)
    return f"[{number}] {record.get('document_name', 'document')} (score {score:.2f})\n{record.get('content', '')}"


def _citation(record: dict[str, Any]) -> Citation:
    # One per document: several passages of a document cite it once.
    return Citation(
        dataset_id=str(record.get("dataset_id", "")),
        dataset_name=str(record.get("dataset_name", "")),
        document_id=str(record.get("document_id", "")),
        document_name=str(record.get("document_name", "document")),
    )


def _render_result(result: dict[str, Any]) -> str:
    snippet = result.get("snippet") or result.get("content") or ""
    return f"{result.get('title', '')} — {result.get('url', '')}\n{snippet}".strip()


def _argument(arguments: dict[str, Any], name: str) -> Any:
    if name not in arguments:
        raise _ToolFailure(f"Missing argument {name!r}.")
    return arguments[name]


def _text_argument(arguments: dict[str, Any], name: str) -> str:
    value = _argument(arguments, name)
    if not isinstance(value, str):
        raise _ToolFailure(f"Argument {name!r} must be a string.")
    return value
