"""The build assistant's one model call: the description and what the agent may use (the tool
catalog, the datasets by name) go to the decision model, which must answer with a structured
`propose_draft` tool call; its arguments are validated as a DraftProposal."""

from __future__ import annotations

import json
import logging
from typing import Any

import httpx
from pydantic import ValidationError

from agent_builder.console.errors import ApiError
from agent_builder.console.schemas.build_assistant import DraftProposal
from agent_builder.console.schemas.skills import MAX_SKILLS, SKILL_NAME_PATTERN
from agent_builder.console.services.providers import ModelEndpoint
from agent_builder.provider_errors import provider_refusal

logger = logging.getLogger(__name__)

# Identifies this call site to the provider side (the suite's record/replay keys on it).
MODEL_CALLER = "build_assistant"
TOOL_NAME = "propose_draft"
TIMEOUT = httpx.Timeout(120.0, connect=10.0)
_LIST = {"type": "array", "items": {"type": "string"}}
_SKILL = {
    "type": "object",
    "additionalProperties": False,
    "required": ["name", "description", "instructions"],
    "properties": {
        "name": {"type": "string", "pattern": SKILL_NAME_PATTERN, "maxLength": 64},
        "description": {"type": "string", "description": "one line: what the skill does, when to use it"},
        "instructions": {"type": "string", "description": "the skill's SKILL.md body (Markdown)"},
    },
}
PROPOSE_DRAFT = {
    "type": "function",
    "function": {
        "name": TOOL_NAME,
        "description": "Propose a draft for the agent. Leave out a field to keep that part of the draft.",
        "parameters": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "instructions": {"type": "string", "description": "the agent's instructions (system prompt)"},
                "opening_statement": {"type": "string", "description": "what users see first"},
                "suggested_questions": {**_LIST, "maxItems": 5, "description": "questions users can pick"},
                "tools": {**_LIST, "description": "names of the tools to enable, from the catalog"},
                "knowledge": {**_LIST, "description": "names of the knowledge datasets to attach"},
                "skills": {
                    "type": "array",
                    "maxItems": MAX_SKILLS,
                    "description": "skills to add; one named like a skill the agent has rewrites it",
                    "items": _SKILL,
                },
            },
        },
    },
}
_SYSTEM = """You are the build assistant of an AI agent builder. The user describes the agent they
want; propose its draft by calling {tool} exactly once. Write the instructions as the agent's own
system prompt. Enable only tools from this catalog:
{tools}
Attach only knowledge datasets from this list, by name: {datasets}."""


def ask_for_proposal(
    endpoint: ModelEndpoint, description: str, tools: dict[str, str], datasets: list[str]
) -> DraftProposal:
    """The decision model's proposal for `description`. Raises 502 `proposal_failed` when the
    call fails or has no proposal, `invalid_proposal` when its arguments do not validate."""
    system = _SYSTEM.format(
        tool=TOOL_NAME,
        tools="\n".join(f"- {name}: {text}" for name, text in tools.items()),
        datasets=", ".join(datasets) or "(none)",
    )
    body = {
        "model": endpoint.name,
        "messages": [{"role": "system", "content": system}, {"role": "user", "content": description}],
        "tools": [PROPOSE_DRAFT],
        "tool_choice": {"type": "function", "function": {"name": TOOL_NAME}},
        "temperature": 0,
    }
    arguments = _tool_arguments(_post(endpoint, body))
    try:
        return DraftProposal.model_validate_json(arguments)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "arguments"
        message = f"The decision model's proposal is invalid: {where}: {first['msg']}."
        raise ApiError(502, "invalid_proposal", message) from None


def _post(endpoint: ModelEndpoint, body: dict[str, Any]) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {endpoint.api_key}", "X-Model-Caller": MODEL_CALLER}
    try:
        response = httpx.post(
            f"{endpoint.base_url}/chat/completions", json=body, headers=headers, timeout=TIMEOUT
        )
    except httpx.HTTPError as exc:
        logger.warning("build assistant: cannot reach the decision model: %s", type(exc).__name__)
        raise _failed("the decision model's provider cannot be reached") from None
    if not response.is_success:
        detail = provider_refusal(response, [endpoint.api_key])
        raise _failed(f"the decision model refused the request (HTTP {response.status_code}: {detail})")
    try:
        payload = response.json()
    except ValueError:
        payload = None
    if not isinstance(payload, dict):
        raise _failed("the decision model did not answer with JSON")
    return payload


def _tool_arguments(payload: dict[str, Any]) -> str:
    try:
        message = payload["choices"][0]["message"]
        calls = [call for call in message.get("tool_calls") or [] if call["function"]["name"] == TOOL_NAME]
    except (KeyError, IndexError, TypeError, AttributeError):
        calls = []
    if not calls:
        raise _failed(f"the decision model answered without calling {TOOL_NAME}")
    arguments = calls[0]["function"].get("arguments") or "{}"
    return arguments if isinstance(arguments, str) else json.dumps(arguments)


def _failed(reason: str) -> ApiError:
    return ApiError(502, "proposal_failed", f"The build assistant could not propose a draft: {reason}.")
