"""What the reference model (reference_model.py) answers: a pure function of the conversation and
the tools offered, by the numbered rules of reference_model.py's docstring (no clock, no randomness)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

TOOL_RESULT_CHARS = 500
_TRAILING = " \t\r\n.?!"


@dataclass(frozen=True)
class ToolCall:
    name: str
    arguments: dict[str, Any]


@dataclass(frozen=True)
class Reply:
    text: str | None = None
    tool_call: ToolCall | None = None


_TOOL_RULES: tuple[tuple[str, re.Pattern[str], Callable[[re.Match[str]], dict[str, str]]], ...] = (
    (
        "sandbox_shell",
        re.compile(r"run the command `([^`]+)`", re.IGNORECASE),
        lambda match: {"command": match[1]},
    ),
    (
        "knowledge_search",
        re.compile(r"search the knowledge base for (.+)", re.IGNORECASE | re.DOTALL),
        lambda match: {"query": match[1].rstrip(_TRAILING)},
    ),
    (
        "web_search",
        re.compile(r"search the web for (.+)", re.IGNORECASE | re.DOTALL),
        lambda match: {"query": match[1].rstrip(_TRAILING)},
    ),
    (
        "json_replace",
        re.compile(r"set (\S+) to (.+?) in this JSON:\s*([\[{].*[\]}])", re.IGNORECASE | re.DOTALL),
        lambda match: {"json": match[3], "path": match[1], "value": match[2]},
    ),
)
_OUTPUTS = re.compile(r"set the outputs to\s*(\{.*\})", re.IGNORECASE | re.DOTALL)
_EXACT = re.compile(r"reply with exactly:\s*(.+)", re.IGNORECASE | re.DOTALL)
_INSTRUCTIONS = re.compile(r"what are your instructions", re.IGNORECASE)
_QUOTED = re.compile(r'"([^"]+)"')
_FIRST_SENTENCE = re.compile(r"^(.+?[.!?])(?:\s|$)", re.DOTALL)
_GREETING = re.compile(r'greet (?:users|people|visitors) with "([^"]+)"', re.IGNORECASE)
_KNOWLEDGE = re.compile(r'attach the knowledge((?:,? (?:and )?"[^"]+")+)', re.IGNORECASE)
_SKILL = re.compile(r'add the skill "([^"]+)" that ([^.!?]+[.!?])', re.IGNORECASE)


def proposal(description: str) -> dict[str, Any]:
    """The build assistant's `propose_draft` arguments for a description (rule 0 above)."""
    arguments: dict[str, Any] = {}
    if first := _FIRST_SENTENCE.match(description.strip()):
        arguments["instructions"] = first[1]
    if greeting := _GREETING.search(description):
        arguments["opening_statement"] = greeting[1]
    if questions := [text for text in _QUOTED.findall(description) if text.endswith("?")]:
        arguments["suggested_questions"] = questions
    if tools := re.findall(r"`([^`]+)`", description):
        arguments["tools"] = tools
    if knowledge := _KNOWLEDGE.search(description):
        arguments["knowledge"] = _QUOTED.findall(knowledge[1])
    if skills := _SKILL.findall(description):
        arguments["skills"] = [_skill(name, clause) for name, clause in skills]
    return arguments


def _skill(name: str, clause: str) -> dict[str, str]:
    description = clause[0].upper() + clause[1:]
    return {"name": name, "description": description, "instructions": f"# {name}\n\n{description}"}


def answer(messages: list[dict[str, Any]], offered_tools: set[str]) -> Reply:
    """The deterministic rules of reference_model.py's docstring."""
    if "propose_draft" in offered_tools:
        return Reply(tool_call=ToolCall("propose_draft", proposal(_last_user_text(messages))))
    last = messages[-1]
    if last.get("role") == "tool":
        content = message_text(last.get("content")).strip()[:TOOL_RESULT_CHARS]
        return Reply(text=f"Tool {_tool_name(messages, last.get('tool_call_id'))} returned: {content}")
    user = _last_user_text(messages)
    if "set_outputs" in offered_tools and (values := _outputs(user)) is not None:
        return Reply(tool_call=ToolCall("set_outputs", values))
    for tool, pattern, arguments in _TOOL_RULES:
        if tool in offered_tools and (match := pattern.search(user)):
            return Reply(tool_call=ToolCall(tool, arguments(match)))
    if match := _EXACT.search(user):
        return Reply(text=match[1].strip())
    if _INSTRUCTIONS.search(user):
        system = "\n".join(
            message_text(m.get("content")) for m in messages if m.get("role") == "system"
        ).strip()
        return Reply(text=f"My instructions: {system or '(none)'}")
    return Reply(text=f"You said: {user}")


def _outputs(user: str) -> dict[str, Any] | None:
    """The JSON object after `set the outputs to`, as given (right or wrong), if there is one."""
    if (match := _OUTPUTS.search(user)) is None:
        return None
    try:
        values = json.loads(match[1])
    except ValueError:
        return None
    return values if isinstance(values, dict) else None


def _last_user_text(messages: list[dict[str, Any]]) -> str:
    return next(
        (
            message_text(message.get("content"))
            for message in reversed(messages)
            if message.get("role") == "user"
        ),
        "",
    )


def message_text(content: Any) -> str:
    """Message content is a string, or a list of parts of which the text parts count."""
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return content if isinstance(content, str) else ""


def _tool_name(messages: list[dict[str, Any]], call_id: str | None) -> str:
    for message in reversed(messages):
        for call in message.get("tool_calls") or []:
            if call.get("id") == call_id:
                return str((call.get("function") or {}).get("name", "tool"))
    return "tool"
