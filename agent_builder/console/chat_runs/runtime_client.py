"""The console as the agent runtime's client: the run request built from an agent (its published
version, or its draft for the preview), the `POST {runtime}/runs` that opens the run's event
stream, and the cancel call. Not here: reading the events (relay.py) or keeping track of runs
(runs.py)."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field

import httpx
from pydantic import SecretStr

from agent_builder.console.config import ConsoleConfig
from agent_builder.console.errors import ApiError
from agent_builder.console.schemas.chat import ChatMessage, MessageRole
from agent_builder.console.services import env_vars, providers, tools
from agent_builder.console.services.agents import ChatAgent
from agent_builder.runtime import schemas as runtime
from agent_builder.settings import ConfigError

logger = logging.getLogger(__name__)

KNOWLEDGE_RETRIEVE_PATH = runtime.KNOWLEDGE_RETRIEVE_PATH
RUNTIME_TOKEN_VARIABLE = "AGENT_BUILDER_RUNTIME_TOKEN"
# The runtime itself bounds every wait (model chunks 60 s, sandbox commands 120 s); this only
# ends a stream whose runtime went silent for longer than any of those.
RUNTIME_TIMEOUT = httpx.Timeout(connect=5.0, read=300.0, write=10.0, pool=5.0)
_CANCEL_TIMEOUT_S = 5.0


def runtime_unavailable(reason: str) -> ApiError:
    return ApiError(503, "runtime_unavailable", f"Chat is unavailable: {reason}.")


def require_runtime_token(config: ConsoleConfig) -> None:
    """A console wired to a runtime must hold the runtime's token (ConfigError otherwise)."""
    if config.runtime_url is not None and config.runtime_token is None:
        raise ConfigError(
            f"AGENT_BUILDER_RUNTIME_URL is set but {RUNTIME_TOKEN_VARIABLE} is not: the runtime "
            f"refuses runs without its token. Fix: set {RUNTIME_TOKEN_VARIABLE} to the value the "
            "runtime was started with, or unset AGENT_BUILDER_RUNTIME_URL (chat is then unavailable)."
        )


@dataclass(frozen=True)
class Runtime:
    """The agent runtime: where it is and the token it requires on every call."""

    url: str
    token: str = field(repr=False)

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


@dataclass(frozen=True)
class RunSetup:
    """What a run needs from the database, read before anything is sent to the runtime."""

    history: list[tuple[MessageRole, str]]
    model: providers.ModelEndpoint
    web_search: tools.WebSearchEndpoint | None
    variables: env_vars.RunVariables
    skills: list[runtime.SkillSnapshot] = field(default_factory=list)  # with their files' text


def fit_history(history: list[tuple[MessageRole, str]], budget: int) -> list[tuple[MessageRole, str]]:
    """The newest turns of `history` whose messages hold at most `budget` characters together
    (AGENT_BUILDER_MAX_HISTORY_CHARS): whole turns, a question with the replies after it, are
    left out oldest first, so the model never sees a reply without its question. The current
    question is not part of the history and never cut."""
    turns: list[list[tuple[MessageRole, str]]] = []
    for role, content in history:
        if role == "user" or not turns:
            turns.append([])
        turns[-1].append((role, content))
    kept: list[list[tuple[MessageRole, str]]] = []
    used = 0
    for turn in reversed(turns):
        size = sum(len(content) for _, content in turn)
        if used + size > budget:
            break
        kept.append(turn)
        used += size
    return [message for turn in reversed(kept) for message in turn]


def run_request(
    agent: ChatAgent, message_id: str, question: ChatMessage, setup: RunSetup, knowledge_token: str | None
) -> runtime.RunRequest:
    """The run for the runtime. Where shellctl and this console are is the runtime's own setting:
    the request names neither."""
    config = agent.config
    knowledge = runtime.KnowledgeService(token=SecretStr(knowledge_token)) if knowledge_token else None
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
            instructions=env_vars.substitute(config.instructions, setup.variables.plain),
            model=runtime.ModelSettings(
                base_url=setup.model.base_url,
                api_key=SecretStr(setup.model.api_key),
                name=setup.model.name,
            ),
            parameters=runtime.Parameters.model_validate(config.parameters.model_dump()),
            tools=[runtime.ToolSetting(name=tool.name, enabled=tool.enabled) for tool in config.tools],
            knowledge=runtime.KnowledgeSettings.model_validate(config.knowledge.model_dump()),
            outputs=[runtime.OutputSpec.model_validate(output.model_dump()) for output in config.outputs],
            env=setup.variables.plain,
            secret_env={name: SecretStr(value) for name, value in setup.variables.secret.items()},
            skills=setup.skills,
        ),
        conversation_id=question.conversation_id,
        history=[runtime.HistoryMessage(role=role, content=content) for role, content in setup.history],
        query=question.content,
        services=runtime.Services(
            shellctl_owner=agent.id,  # deleting the agent removes its workspaces
            knowledge=knowledge,
            web_search=web_search,
        ),
    )


async def open_run(client: httpx.AsyncClient, target: Runtime, request: runtime.RunRequest) -> httpx.Response:
    """POST the run; a 200 is its event stream. Anything else means there will be no reply."""
    # JSON mode would write SecretStr values as "**********": this is the one place they travel.
    body = json.dumps(request.model_dump(), default=_reveal).encode()
    headers = {"Content-Type": "application/json", "Accept": "text/event-stream", **target.headers}
    try:
        response = await client.send(
            client.build_request("POST", f"{target.url}/runs", content=body, headers=headers),
            stream=True,
        )
        if response.status_code == 200:
            return response
        await response.aread()
        await response.aclose()
    except httpx.HTTPError as exc:
        logger.warning("run %s: cannot reach the runtime: %s", request.run_id, exc)
        raise runtime_unavailable("the agent runtime cannot be reached") from None
    code = _error_code(response)
    logger.warning("run %s: the runtime refused it: HTTP %s %s", request.run_id, response.status_code, code)
    raise runtime_unavailable(f"the agent runtime refused the run (HTTP {response.status_code} {code})")


async def request_cancel(target: Runtime, run_id: str) -> None:
    """Ask the runtime to cancel a run (a 404 means it is ending anyway). Raises httpx.HTTPError
    when the runtime cannot be asked."""
    async with httpx.AsyncClient(timeout=_CANCEL_TIMEOUT_S) as client:
        await client.post(f"{target.url}/runs/{run_id}/cancel", headers=target.headers)


def _error_code(response: httpx.Response) -> str:
    try:
        return str(response.json()["code"])
    except (ValueError, KeyError, TypeError):
        return "without an error code"


def _reveal(value: object) -> str:
    if isinstance(value, SecretStr):
        return value.get_secret_value()
    raise TypeError(f"{type(value).__name__} is not JSON serializable")
