"""`json_replace`: set the value at a path like `a.b[0].c` in a JSON document.

Every step but the last must exist; the last may add a new key to an object, but a list index must
already exist. The document and the value may each nest arrays and objects at most `MAX_DEPTH`
deep (Python's JSON reader and writer recurse, so deeper text would end in `RecursionError`).
Errors are `JsonReplaceError`s with a message meant for the model (and the user)."""

from __future__ import annotations

import json
import re
from typing import Any

# A key is any run of characters other than `.` and `[`; an index is `[<digits>]`.
_STEP = re.compile(r"(?P<key>[^.\[\]]+)|\[(?P<index>\d+)\]")

Step = str | int

# Arrays and objects nested deeper than this are refused, in the document and in the value alike
# (so the result nests at most twice as deep): well inside Python's recursion limit of 1000.
MAX_DEPTH = 200
# A string (with its escapes), or a bracket outside one: what the depth scan looks at.
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


class JsonReplaceError(ValueError):
    pass


def parse_path(path: str) -> list[Step]:
    steps: list[Step] = []
    position = 0
    while position < len(path):
        if steps and path[position] == "." and not path.startswith("[", position + 1):
            position += 1  # a dot separates keys; an index follows without one
        match = _STEP.match(path, position)
        if not match:
            raise JsonReplaceError(
                f"Invalid path {path!r} near position {position}: use keys and [index], like a.b[0].c"
            )
        steps.append(match["key"] if match["key"] is not None else int(match["index"]))
        position = match.end()
    if not steps:
        raise JsonReplaceError("The path is empty.")
    return steps


def replace(document: str, path: str, value: Any) -> str:
    """The new JSON text. `value` given as a string that parses as JSON (`42`, `true`, `{"a": 1}`)
    is used as that JSON value; any other string is used as a string."""
    _check_depth(document, "The input")
    try:
        root = json.loads(document)
    except ValueError as exc:
        raise JsonReplaceError(f"The input is not valid JSON: {exc}") from None
    steps = parse_path(path)
    if isinstance(value, str):
        _check_depth(value, "The value")
        try:
            value = json.loads(value)
        except ValueError:
            pass  # plain text: keep it as a string
    parent = root
    for depth, step in enumerate(steps[:-1]):
        parent = _child(parent, step, _render(steps[: depth + 1]))
    _assign(parent, steps[-1], value, _render(steps))
    return json.dumps(root, ensure_ascii=False)


def _check_depth(text: str, what: str) -> None:
    """Refuse JSON text whose arrays and objects nest deeper than MAX_DEPTH, before parsing it."""
    depth = deepest = 0
    for match in _TOKEN.finditer(text):
        token = match[0]
        if token == "[" or token == "{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > MAX_DEPTH:
                    raise JsonReplaceError(
                        f"{what} nests arrays and objects more than {MAX_DEPTH} levels deep;"
                        f" json_replace handles at most {MAX_DEPTH}."
                    )
        elif token == "]" or token == "}":
            depth -= 1


def _child(container: Any, step: Step, where: str) -> Any:
    if isinstance(step, int):
        if not isinstance(container, list):
            raise JsonReplaceError(f"{where}: cannot index into a {_kind(container)}.")
        if step >= len(container):
            raise JsonReplaceError(f"{where}: index out of range (the list has {len(container)} items).")
        return container[step]
    if not isinstance(container, dict):
        raise JsonReplaceError(f"{where}: cannot look up a key in a {_kind(container)}.")
    if step not in container:
        raise JsonReplaceError(f"{where}: no such key.")
    return container[step]


def _assign(container: Any, step: Step, value: Any, where: str) -> None:
    if isinstance(step, int):
        _child(container, step, where)  # the index must exist
        container[step] = value
    elif isinstance(container, dict):
        container[step] = value
    else:
        raise JsonReplaceError(f"{where}: cannot set a key in a {_kind(container)}.")


def _render(steps: list[Step]) -> str:
    text = ""
    for step in steps:
        text += f"[{step}]" if isinstance(step, int) else (f".{step}" if text else step)
    return text


def _kind(value: Any) -> str:
    return {dict: "object", list: "list", str: "string", bool: "boolean", type(None): "null"}.get(
        type(value), "number"
    )
