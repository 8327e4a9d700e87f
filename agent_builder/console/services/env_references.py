"""`{{env.NAME}}` in an agent's instructions, and the rule that keeps secret variables out of them.

The instructions go to the model, and whoever chats with the agent can ask the model to repeat
them; its replies are stored as they are. So a secret variable may not be referenced there: the
draft is not saved with such instructions, a variable the draft's or the published version's
instructions reference is not made secret, and a run never substitutes a secret (env_vars.py).
"""

from __future__ import annotations

import json
import re
import sqlite3

from agent_builder.console.errors import ApiError

# Spaces inside the braces are allowed: `{{ env.NAME }}`.
REFERENCE = re.compile(r"\{\{\s*env\.([A-Z_][A-Z0-9_]*)\s*\}\}")
CODE = "secret_in_instructions"
_WHY = "secret values are never sent to the model, which could repeat them to anyone who chats with the agent"


def referenced(text: str) -> list[str]:
    """The variable names `text` references, in order, each once."""
    return list(dict.fromkeys(REFERENCE.findall(text)))


def secret_names(conn: sqlite3.Connection, agent_id: str) -> set[str]:
    rows = conn.execute("SELECT name FROM agent_env_vars WHERE agent_id = ? AND secret = 1", (agent_id,))
    return {row["name"] for row in rows}


def secrets_in(conn: sqlite3.Connection, agent_id: str, instructions: str) -> list[str]:
    """The agent's secret variables that `instructions` reference, in order."""
    if "env." not in instructions:
        return []
    secret = secret_names(conn, agent_id)
    return [name for name in referenced(instructions) if name in secret]


def _listed(names: list[str]) -> str:
    quoted = [f"{{{{env.{name}}}}}" for name in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def refusal(names: list[str], whose: str, field: str, fix: str) -> ApiError:
    """422 `secret_in_instructions` naming each secret variable (and `errors` for the field);
    `{it}` in `fix` is "it" or "them"."""
    kind, it = ("a secret variable", "it") if len(names) == 1 else ("secret variables", "them")
    message = f"{whose} use {_listed(names)}, {kind}: {_WHY}. {fix.format(it=it)}"
    return ApiError(422, CODE, message, errors=[{"field": field, "message": message}])


def check_instructions(conn: sqlite3.Connection, agent_id: str, instructions: str) -> None:
    """Raises 422 `secret_in_instructions` when `instructions` reference a secret variable."""
    names = secrets_in(conn, agent_id, instructions)
    if names:
        fix = "Remove {it} from the instructions, or use a variable that is not secret."
        raise refusal(names, "The instructions", "config.instructions", fix)


def check_may_be_secret(conn: sqlite3.Connection, agent_id: str, name: str) -> None:
    """Raises 422 `secret_in_instructions` when the draft's or the published version's instructions
    reference `name`, which is about to become (or be created as) a secret variable."""
    row = conn.execute("SELECT draft_config FROM agents WHERE id = ?", (agent_id,)).fetchone()
    published = conn.execute(
        "SELECT version, config FROM agent_versions WHERE agent_id = ? ORDER BY version DESC LIMIT 1",
        (agent_id,),
    ).fetchone()
    in_draft = row is not None and name in referenced(_instructions(row["draft_config"]))
    in_published = published is not None and name in referenced(_instructions(published["config"]))
    if not (in_draft or in_published):
        return
    version = published["version"] if published is not None else None
    where, fix = {
        (True, False): ("the draft's instructions use", "Remove it from the instructions"),
        (False, True): (
            f"the instructions of published version {version} use",
            "Publish a version without it",
        ),
        (True, True): (
            f"the draft's instructions and those of published version {version} use",
            "Remove it from the instructions and publish",
        ),
    }[in_draft, in_published]
    message = (
        f"{name} cannot be secret: {where} {{{{env.{name}}}}}, and {_WHY}. {fix} first, or keep "
        f"{name} a plain variable."
    )
    raise ApiError(422, CODE, message, errors=[{"field": "secret", "message": message}])


def _instructions(config_json: str) -> str:
    # The stored JSON, not an AgentConfig: only the one field is needed.
    value = json.loads(config_json).get("instructions", "")
    return value if isinstance(value, str) else ""
