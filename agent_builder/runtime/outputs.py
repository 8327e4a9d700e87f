"""Output variables at run time: the `set_outputs` tool offered to the model, its parameters the
JSON schema of the agent's declared outputs (every output required, nothing else allowed), and
the check of what the model sent against it. A run of an agent with outputs completes only once
the model set them, and they fit."""

from __future__ import annotations

from typing import Any

from agent_builder.runtime.schemas import OutputSpec

SET_OUTPUTS = "set_outputs"
OUTPUTS_NOTE = "Before your final answer, call set_outputs once with every output variable, each of its type."
_JSON_TYPES = {
    "string": "string",
    "number": "number",
    "boolean": "boolean",
    "object": "object",
    "array": "array",
}


def _schema(output: OutputSpec) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": _JSON_TYPES[output.type]}
    if output.description:
        schema["description"] = output.description
    if output.type == "array":
        schema["items"] = {"type": output.items}
    if output.type == "object":
        schema |= _object(output.fields)
    return schema


def _object(outputs: list[OutputSpec]) -> dict[str, Any]:
    return {
        "properties": {output.name: _schema(output) for output in outputs},
        "required": [output.name for output in outputs],
        "additionalProperties": False,
    }


def tool_spec(outputs: list[OutputSpec]) -> dict[str, Any]:
    """The `set_outputs` tool for these outputs (OpenAI function calling)."""
    return {
        "type": "function",
        "function": {
            "name": SET_OUTPUTS,
            "description": "Set the agent's output variables: every one, each of its type.",
            "parameters": {"type": "object", **_object(outputs)},
        },
    }


def _fits(value: Any, kind: str) -> bool:
    if kind == "string":
        return isinstance(value, str)
    if kind == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "array":
        return isinstance(value, list)
    return isinstance(value, dict)


def mismatch(values: Any, outputs: list[OutputSpec], parent: str = "") -> str | None:
    """Why `values` does not fit the declared outputs (the first reason), or None when it does."""
    if not isinstance(values, dict):
        return "the outputs must be a JSON object"
    declared = {output.name for output in outputs}
    for name in values:
        if name not in declared:
            return f'"{parent}{name}" is not a declared output'
    for output in outputs:
        path = f"{parent}{output.name}"
        if output.name not in values:
            return f'"{path}" is missing'
        value = values[output.name]
        if not _fits(value, output.type):
            return f'"{path}" must be a {output.type}, not {type(value).__name__}'
        if output.type == "array" and not all(_fits(item, output.items) for item in value):
            return f'every item of "{path}" must be a {output.items}'
        if output.type == "object" and (problem := mismatch(value, output.fields, f"{path}.")):
            return problem
    return None
