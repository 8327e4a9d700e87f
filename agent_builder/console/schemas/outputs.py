"""Output variables of an agent (part of its draft): named, typed values the model returns beside
its answer. An object output has fields of its own (nested up to MAX_DEPTH levels); an array output
says the type of its items. Names are letters, digits and underscores, not starting with a digit,
and unique among their siblings ignoring case (`Summary` and `summary` would be one JSON key to
many clients). Instructions may name an output as `{{outputs.NAME}}` (a field as
`{{outputs.NAME.FIELD}}`); renaming an output on the configure page rewrites those references."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, StringConstraints

from agent_builder.console.schemas.base import RequestModel

MAX_OUTPUTS = 20
MAX_DEPTH = 3
MAX_NAME_CHARS = 64
MAX_DESCRIPTION_CHARS = 200
OUTPUT_TYPES = ("string", "number", "boolean", "object", "array")
ITEM_TYPES = ("string", "number", "boolean")
NAME_PATTERN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

OutputType = Literal["string", "number", "boolean", "object", "array"]
ItemType = Literal["string", "number", "boolean"]


def _check_name(name: Any) -> str:
    if not isinstance(name, str):
        raise ValueError("Each output needs a name.")  # noqa: TRY004 -- pydantic reports ValueErrors only
    if not name:
        raise ValueError("An output name cannot be empty.")
    if len(name) > MAX_NAME_CHARS:
        raise ValueError(f'The output name "{name[:20]}…" is longer than {MAX_NAME_CHARS} characters.')
    if not NAME_PATTERN.fullmatch(name):
        raise ValueError(
            f'"{name}" is not a valid output name: use letters, digits and underscores, '
            "not starting with a digit."
        )
    return name


def check_outputs(outputs: Any, depth: int = 1, parent: str = "") -> None:
    """Raise ValueError saying what is wrong with a list of outputs (names and types), if anything."""
    if not isinstance(outputs, list):
        return  # the list type itself says what is wrong
    where = f' of "{parent}"' if parent else ""
    if len(outputs) > MAX_OUTPUTS:
        raise ValueError(f"At most {MAX_OUTPUTS} outputs{where}: this list has {len(outputs)}.")
    seen: dict[str, str] = {}
    for output in outputs:
        if not isinstance(output, dict):
            raise ValueError("Each output must be an object with a name and a type.")  # noqa: TRY004
        name = _check_name(output.get("name"))
        path = f"{parent}.{name}" if parent else name
        if name.casefold() in seen:
            first = seen[name.casefold()]
            raise ValueError(
                f'The output "{path}" is listed twice.'
                if first == name
                else f'"{first}" and "{name}" are the same output name{where}: names ignore case.'
            )
        seen[name.casefold()] = name
        kind = output.get("type")
        if kind not in OUTPUT_TYPES:
            raise ValueError(
                f'The output "{path}" has an unknown type "{kind}": use one of {", ".join(OUTPUT_TYPES)}.'
            )
        if kind == "array" and output.get("items", "string") not in ITEM_TYPES:
            raise ValueError(f'The items of "{path}" must be one of {", ".join(ITEM_TYPES)}.')
        fields = output.get("fields") or []
        if fields and kind != "object":
            raise ValueError(f'Only an object output has fields: "{path}" is a {kind}.')
        if fields and depth >= MAX_DEPTH:
            raise ValueError(f'Outputs nest at most {MAX_DEPTH} levels: "{path}" has fields.')
        check_outputs(fields, depth + 1, path)


class OutputVariable(RequestModel):
    """One output: `fields` for an object, `items` (the item type) for an array."""

    name: Annotated[
        str, StringConstraints(min_length=1, max_length=MAX_NAME_CHARS, pattern=f"^{NAME_PATTERN.pattern}$")
    ]
    type: OutputType
    description: Annotated[str, StringConstraints(max_length=MAX_DESCRIPTION_CHARS)] = ""
    items: ItemType = "string"
    fields: Annotated[list[OutputVariable], Field(max_length=MAX_OUTPUTS)] = []


def _validated(value: Any) -> Any:
    check_outputs(value)
    return value


# The draft's `outputs`, checked as a whole first (so the message says which output is wrong).
Outputs = Annotated[list[OutputVariable], Field(max_length=MAX_OUTPUTS), BeforeValidator(_validated)]
