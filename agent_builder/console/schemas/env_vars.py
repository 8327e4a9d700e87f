"""An agent's environment variables: plain ones are shown, secret ones are write-only."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated

from pydantic import AfterValidator, Field, StringConstraints

from agent_builder.console.schemas.base import RequestModel, ResponseModel

NAME_PATTERN = re.compile(r"[A-Z_][A-Z0-9_]*")
MAX_NAME_CHARS = 64
MAX_VALUE_CHARS = 4000
MAX_VARIABLES = 100
# The sandbox sets these itself for every command; an agent's variable cannot replace them.
RESERVED_NAMES = frozenset({"PATH", "HOME", "LANG", "TERM"})
NAME_RULE = (
    "Use capital letters, digits and underscores, not starting with a digit (like API_BASE_URL), "
    f"at most {MAX_NAME_CHARS} characters."
)


def name_problem(name: str) -> str | None:
    """Why `name` cannot be a variable name, or None when it can."""
    if not name:
        return "The name is empty."
    if len(name) > MAX_NAME_CHARS:
        return f"The name is longer than {MAX_NAME_CHARS} characters."
    if not NAME_PATTERN.fullmatch(name):
        return f"{name!r} is not a valid name. {NAME_RULE}"
    if name in RESERVED_NAMES:
        return f"{name} is set by the sandbox itself and cannot be changed."
    return None


def value_problem(value: str) -> str | None:
    if len(value) > MAX_VALUE_CHARS:
        return f"The value is longer than {MAX_VALUE_CHARS} characters."
    if "\x00" in value:
        return "The value contains a NUL character."
    return None


def _valid_name(name: str) -> str:
    problem = name_problem(name)
    if problem:
        raise ValueError(problem)
    return name


def _valid_value(value: str) -> str:
    problem = value_problem(value)
    if problem:
        raise ValueError(problem)
    return value


# The schema states the rules _valid_name and _valid_value enforce, for clients and the fuzzer.
_NAME_SCHEMA = {
    "pattern": f"^{NAME_PATTERN.pattern}$",
    "minLength": 1,
    "maxLength": MAX_NAME_CHARS,
    "not": {"enum": sorted(RESERVED_NAMES)},
}
EnvVarName = Annotated[
    str,
    StringConstraints(strip_whitespace=True),
    AfterValidator(_valid_name),
    Field(json_schema_extra=_NAME_SCHEMA),
]
EnvVarValue = Annotated[
    str,
    AfterValidator(_valid_value),
    Field(json_schema_extra={"maxLength": MAX_VALUE_CHARS, "pattern": "^[^\\x00]*$"}),
]


class EnvVarCreate(RequestModel):
    name: EnvVarName
    value: EnvVarValue
    secret: bool = False


class EnvVarUpdate(RequestModel):
    """Omitted fields keep their value; a secret's value may only be replaced, never read."""

    value: EnvVarValue | None = None
    secret: bool | None = None


class EnvVar(ResponseModel):
    name: str
    secret: bool
    # None for a secret: it is write-only. `masked` is what the console shows instead.
    value: str | None
    masked: str | None
    updated_at: datetime


class EnvVarList(ResponseModel):
    data: list[EnvVar]


class SkippedLine(ResponseModel):
    line: int
    reason: str


class DuplicateName(ResponseModel):
    name: str
    lines: list[int]  # every line that set it; the last one wins


class EnvImportResult(ResponseModel):
    added: list[str]
    updated: list[str]
    skipped: list[SkippedLine]
    duplicates: list[DuplicateName]
