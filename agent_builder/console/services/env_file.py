"""Parsing a `.env` file for import: one variable per line, every refused line reported by number.

Grammar (docs/console.md, "Environment variables"): blank lines and `#` comments are ignored;
`NAME=VALUE` with an optional `export ` in front; VALUE is bare (trimmed, a ` #` starts a
comment), `'single-quoted'` (literal) or `"double-quoted"` (`\\n`, `\\t`, `\\"`, `\\\\` escapes);
an empty value is allowed. A name set twice keeps its last value and is reported. Multi-line
values are not supported: python-dotenv would read an unterminated quote together with the lines
after it, and those lines could then not be reported one by one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from agent_builder.console.schemas.env_vars import name_problem, value_problem

_EXPORT = re.compile(r"export\s+")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}


@dataclass
class ParsedEnvFile:
    values: dict[str, str] = field(default_factory=dict)  # in file order, last value wins
    skipped: list[tuple[int, str]] = field(default_factory=list)  # (line, reason)
    lines_by_name: dict[str, list[int]] = field(default_factory=dict)

    @property
    def duplicates(self) -> dict[str, list[int]]:
        return {name: lines for name, lines in self.lines_by_name.items() if len(lines) > 1}


class _LineError(ValueError):
    pass


def parse_env_file(text: str) -> ParsedEnvFile:
    parsed = ParsedEnvFile()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            name, value = _parse_line(line)
        except _LineError as error:
            parsed.skipped.append((number, str(error)))
            continue
        parsed.values.pop(name, None)  # a later line moves the name to its own position
        parsed.values[name] = value
        parsed.lines_by_name.setdefault(name, []).append(number)
    return parsed


def _parse_line(line: str) -> tuple[str, str]:
    if export := _EXPORT.match(line):
        line = line[export.end() :]
    name, equals, rest = line.partition("=")
    name = name.strip()
    if not equals:
        raise _LineError(f"No '=' after {name!r}: write NAME=VALUE.")
    problem = name_problem(name)
    if problem:
        raise _LineError(problem)
    value = _parse_value(rest.strip())
    problem = value_problem(value)
    if problem:
        raise _LineError(problem)
    return name, value


def _parse_value(text: str) -> str:
    if not text or text[0] not in "'\"":
        # A bare value ends where a comment starts (`#` after whitespace, as in shells).
        return re.split(r"\s+#", text, maxsplit=1)[0].strip()
    quote = text[0]
    end, value = (_single_quoted if quote == "'" else _double_quoted)(text)
    trailer = text[end + 1 :].strip()
    if trailer and not trailer.startswith("#"):
        raise _LineError(f"Unexpected text after the closing quote: {trailer[:40]!r}.")
    return value


def _single_quoted(text: str) -> tuple[int, str]:
    end = text.find("'", 1)
    if end < 0:
        raise _LineError("The value's opening ' has no closing quote on this line.")
    return end, text[1:end]


def _double_quoted(text: str) -> tuple[int, str]:
    chars: list[str] = []
    index = 1
    while index < len(text):
        char = text[index]
        if char == '"':
            return index, "".join(chars)
        if char == "\\" and index + 1 < len(text):
            index += 1
            chars.append(_ESCAPES.get(text[index], "\\" + text[index]))
        else:
            chars.append(char)
        index += 1
    raise _LineError("The value's opening \" has no closing quote on this line.")
