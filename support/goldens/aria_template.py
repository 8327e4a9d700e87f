"""An accessibility snapshot made a golden template (support/goldens/files.py, `E2E_GOLDEN=refresh`): the
values that differ on every run become patterns, and the whole tree must match, nothing more.

What differs on every run: names a scenario creates (`E2E-<run>-<worker>-<label>-<n>`), ids (32
hex digits, as in a link to an agent), the console's origin (a free port; the deployed lane's
host), a web app's site token, an API key's shown prefix, and times. The options of the Model and
Dataset pickers list every active model or dataset of the console, which the lane's other
scenarios change: they are left open.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

_DYNAMIC: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (
        re.compile(r"E2E-[a-z0-9]+-[a-z0-9]+-([a-z0-9-]+?)-\d+"),
        lambda found: f"E2E-[a-z0-9]+-[a-z0-9]+-{_literal(found[1])}-[0-9]+",
    ),
    (re.compile(r"\b[0-9a-f]{32}\b"), lambda _: "[0-9a-f]{32}"),
    (re.compile(r"https?://[a-z0-9.-]+:\d+"), lambda _: r"https?:\/\/[^\/\s]+"),
    (re.compile(r"(?<=/chat/)[A-Za-z0-9_-]{16,}"), lambda _: "[A-Za-z0-9_-]+"),
    (re.compile(r"\bapp-[A-Za-z0-9_-]{4}…"), lambda _: "app-[A-Za-z0-9_-]{4}…"),  # token_urlsafe
    # The deployment's admin account (E2E_ADMIN_EMAIL), as typed or shown.
    (re.compile(r"[^@\s\"]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+"), lambda _: r"[^@\s]+@[^@\s]+"),
    (
        re.compile(r"\b[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M\b"),
        lambda _: r"[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M",
    ),
)
_SHARED_LIST = re.compile(r'^\s*- combobox "(?:Model|Dataset)"')
# `- role "name" [attributes]: value`; the name, the attributes and the value are optional.
_LINE = re.compile(
    r'^(?P<head>\s*- [^" :]+)(?: (?P<name>"(?:[^"\\]|\\.)*"))?(?P<attrs>(?: \[[^\]]*\])*)(?P<rest>:.*)?$'
)


def as_template(snapshot: str) -> str:
    """`snapshot` (Locator.aria_snapshot()) as a golden: its root must have exactly the children
    listed (a template otherwise lets a page show more than it lists)."""
    root, *rest = snapshot.splitlines()
    lines = [_any_run(root), "  - /children: deep-equal", *map(_any_run, _without_shared_options(rest))]
    return "\n".join(lines) + "\n"


def _without_shared_options(lines: list[str]) -> list[str]:
    kept: list[str] = []
    skip_deeper_than: int | None = None
    for line in lines:
        indent = len(line) - len(line.lstrip())
        if skip_deeper_than is not None and indent > skip_deeper_than:
            continue
        skip_deeper_than = None
        if _SHARED_LIST.match(line) is None:
            kept.append(line)
            continue
        kept += [line if line.endswith(":") else f"{line}:", f"{' ' * (indent + 2)}- /children: contain"]
        skip_deeper_than = indent
    return kept


def _any_run(line: str) -> str:
    """The line with its name and its value made patterns where they hold a run's values."""
    match = _LINE.match(line)
    if match is None:
        return line
    head, name, attrs, rest = match["head"], match["name"], match["attrs"], match["rest"] or ""
    if name is not None and (pattern := _pattern(json.loads(name))) is not None:
        name = pattern
    if rest.startswith(": "):
        value = rest[2:]
        text = json.loads(value) if value.startswith('"') else value
        if head.lstrip() == "- time":
            rest = ": /.+/"
        elif not _is_pattern(text) and (pattern := _pattern(text)) is not None:
            rest = f": {json.dumps(pattern, ensure_ascii=False)}"
    return f"{head}{'' if name is None else ' ' + name}{attrs}{rest}"


def _pattern(text: str) -> str | None:
    """`text` as a /regex/ matching any run, if it holds a value of a run; else None."""
    spans: list[tuple[int, int, str]] = []
    for dynamic, make_pattern in _DYNAMIC:
        for found in dynamic.finditer(text):
            if not any(start < found.end() and found.start() < end for start, end, _ in spans):
                spans.append((found.start(), found.end(), make_pattern(found)))
    if not spans:
        return None
    pattern: list[str] = []
    done = 0
    for start, end, replacement in sorted(spans):
        pattern += [_literal(text[done:start]), replacement]
        done = end
    return "/" + "".join([*pattern, _literal(text[done:])]) + "/"


def _literal(text: str) -> str:
    """`text` matched as it is by a JavaScript regex (which Playwright builds from the golden)."""
    return re.sub(r"([\\^$.*+?()\[\]{}|/])", r"\\\1", text)


def _is_pattern(text: str) -> bool:
    return len(text) > 1 and text.startswith("/") and text.endswith("/")
