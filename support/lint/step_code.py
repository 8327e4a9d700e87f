"""What a step definition's body must not do (features/README.md, "Writing a step"), read from
`steps/*.py` with `ast`, for `make lint`:

- `step-sleep`: `time.sleep`, `asyncio.sleep` or `<page>.wait_for_timeout`: a fixed wait;
- `step-console-call`: a call through `world.console`: the console API only through
  `support/api_setup/` (or `support/seeded/` for seeded resources);
- `step-locator`: a locator built in the step (`.locator`, `.get_by_role` and the other
  `get_by_*`, `.frame_locator`, `.query_selector`, `.wait_for_selector`): the browser only
  through the page objects of `support/ui/`.

A use with a reason is allowed: a trailing `# lint: allow <rule> -- <reason>` on the reported line.
An allowance without a reason, or one that no longer allows anything, is a finding too
(`step-allowance`).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from support.lint.problem import Problem
from support.lint.step_definitions import relative

_LOCATOR_METHODS = frozenset(
    {
        "locator",
        "frame_locator",
        "get_by_role",
        "get_by_text",
        "get_by_label",
        "get_by_placeholder",
        "get_by_alt_text",
        "get_by_title",
        "get_by_test_id",
        "query_selector",
        "query_selector_all",
        "wait_for_selector",
    }
)
_SLEEP_MODULES = frozenset({"time", "asyncio"})
_ALLOW_COMMENT = re.compile(
    r"#\s*lint:\s*allow\s+(?P<rules>[a-z-]+(?:\s*,\s*[a-z-]+)*)\s*(?:--\s*(?P<why>.*))?$"
)
_FIXES = {
    "step-sleep": (
        "a fixed wait is too short on a slow machine and wasted on a fast one (features/README.md, "
        '"Waits"): assert the state with Playwright\'s expect (it retries), or wait for it in the page '
        "object (support/ui/)"
    ),
    "step-console-call": (
        "a step reaches the console API only through support/api_setup/ (or support/seeded/ for seeded "
        "resources): add a function there and call it"
    ),
    "step-locator": (
        "locators live in the page objects of support/ui/ (by role, label, then text): add the locator "
        "or the action there and call it"
    ),
}


@dataclass(frozen=True)
class _Use:
    line: int
    rule: str
    what: str


def check_step_code(steps_dir: Path) -> list[Problem]:
    """Every forbidden use in `steps_dir/*.py` that no allowance covers, and every allowance
    that is unexplained or covers nothing."""
    problems: list[Problem] = []
    for module in sorted(steps_dir.glob("*.py")):
        source = module.read_text(encoding="utf-8")
        try:
            uses = sorted(_uses(ast.parse(source, str(module))), key=lambda use: use.line)
        except SyntaxError:
            continue  # the step loader reports it (step-load-error)
        comments = _allow_comments(source)
        shown = relative(module)
        for use in uses:
            if use.rule in comments.get(use.line, ((), None))[0]:
                continue
            message = (
                f"{use.what}: {_FIXES[use.rule]}; a use with a reason may stay: "
                f"`# lint: allow {use.rule} -- <why>` at the end of the line"
            )
            problems.append(Problem(shown, use.line, use.rule, message))
        problems += _comment_problems(shown, comments, {(use.line, use.rule) for use in uses})
    return problems


def _uses(tree: ast.AST) -> Iterator[_Use]:
    modules, functions = _sleep_names(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute):
                if func.attr == "wait_for_timeout" or (
                    func.attr == "sleep" and isinstance(func.value, ast.Name) and func.value.id in modules
                ):
                    yield _Use(node.lineno, "step-sleep", f"{ast.unparse(func)}(...) waits a fixed time")
                elif func.attr in _LOCATOR_METHODS:
                    yield _Use(node.lineno, "step-locator", f".{func.attr}(...) builds a locator in a step")
            elif isinstance(func, ast.Name) and func.id in functions:
                yield _Use(node.lineno, "step-sleep", f"{func.id}(...) waits a fixed time")
        elif isinstance(node, ast.Attribute) and _is_world_console(node.value):
            yield _Use(node.lineno, "step-console-call", f"world.console.{node.attr} calls the console API")


def _sleep_names(tree: ast.AST) -> tuple[set[str], set[str]]:
    """The names `time`/`asyncio` and their `sleep` are bound to in the module."""
    modules: set[str] = set()
    functions: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules |= {alias.asname or alias.name for alias in node.names if alias.name in _SLEEP_MODULES}
        elif isinstance(node, ast.ImportFrom) and node.module in _SLEEP_MODULES:
            functions |= {alias.asname or alias.name for alias in node.names if alias.name == "sleep"}
    return modules, functions


def _is_world_console(node: ast.expr) -> bool:
    """`world.console` or `context.world.console` (any `....world.console`)."""
    if not (isinstance(node, ast.Attribute) and node.attr == "console"):
        return False
    owner = node.value
    return (isinstance(owner, ast.Name) and owner.id == "world") or (
        isinstance(owner, ast.Attribute) and owner.attr == "world"
    )


def _allow_comments(source: str) -> dict[int, tuple[tuple[str, ...], str | None]]:
    """Line -> (rules, reason) of each `# lint: allow ...` comment."""
    found = {}
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    for token in tokens:
        if token.type == tokenize.COMMENT and (match := _ALLOW_COMMENT.search(token.string)):
            rules = tuple(rule.strip() for rule in match["rules"].split(","))
            found[token.start[0]] = (rules, (match["why"] or "").strip() or None)
    return found


def _comment_problems(
    shown: str, comments: dict[int, tuple[tuple[str, ...], str | None]], uses: set[tuple[int, str]]
) -> list[Problem]:
    problems = []
    for line, (rules, why) in sorted(comments.items()):
        if why is None:
            message = (
                f"`# lint: allow {', '.join(rules)}` gives no reason: add ` -- <why this step needs it>`"
            )
            problems.append(Problem(shown, line, "step-allowance", message))
        for rule in rules:
            if (line, rule) not in uses:
                message = f"`# lint: allow {rule}` allows nothing on this line: remove it"
                problems.append(Problem(shown, line, "step-allowance", message))
    return problems
