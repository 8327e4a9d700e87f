"""The step sentences as the editor reads them: from the source of `steps/`, not by running it.

The Cucumber extension's language server (features/README.md, "The editor") does not run Python:
it finds `@given/@when/@then/@step(...)` decorators in the source text and reads the string
literal between the quotes as written. A sentence it cannot see there (a constant, a call, an
f-string) is not indexed, so every step using it shows as undefined; a literal with `( ) . * \\ |`
in it, a leading `/`, a prefix or an escape, it takes for a regular expression (its rule for Python),
not the Cucumber Expression behave registers. `sentences()` reads what it reads;
`editor_problems()` names every decorator it would not read as behave does, for `make lint`.
"""

from __future__ import annotations

import ast
import os
import re
from dataclasses import dataclass
from pathlib import Path

from support.lint.problem import Problem

KEYWORDS = ("given", "when", "then", "step")  # the extension looks for these names, lower-case
_BEHAVE_NAMES = frozenset(KEYWORDS) | {keyword.capitalize() for keyword in KEYWORDS}
_REGEXP_SIGNS = re.compile(r"[().*\\|]")  # what makes the extension read a Python literal as a regexp
RULE = "editor-step"


@dataclass(frozen=True)
class Sentence:
    """One step decorator: where it is, its keyword and its argument as written."""

    path: str
    line: int
    keyword: str
    source: str  # the argument's source text
    text: str | None  # the literal's value; None when the argument is no string literal

    def problem(self) -> str | None:
        """Why the editor would not read this decorator as behave does, or None."""
        if self.keyword not in KEYWORDS:
            return (
                f"@{self.keyword}(...): the editor finds only @{'/@'.join(KEYWORDS)}; use the lower-case name"
            )
        if self.text is None:
            return (
                f"the sentence is {self.source}, not a string literal: the editor indexes only sentences "
                "written in the decorator; write the sentence itself (a test keeps a support/tags.py "
                "constant and its literal equal)"
            )
        as_written = self.source in (f'"{self.text}"', f"'{self.text}'")
        if not as_written or _REGEXP_SIGNS.search(self.text) or self.text.startswith("/"):
            return (
                f"the editor reads {self.source} as a regular expression (a prefix, an escape, or one of "
                "( ) . * \\ | in it), not as the Cucumber Expression behave runs; reword the sentence "
                "without them (quoted text is {string})"
            )
        return None


def sentences(steps_dir: Path) -> list[Sentence]:
    """Every step decorator in the step modules, in file and line order."""
    found: list[Sentence] = []
    for module in sorted(path for path in steps_dir.glob("*.py") if path.is_file()):
        source = module.read_text(encoding="utf-8")
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue  # the linter's step-load-error reports it
        shown = os.path.relpath(module)
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                found += [_sentence(shown, source, decorator) for decorator in node.decorator_list]
    return sorted((sentence for sentence in found if sentence.keyword), key=lambda s: (s.path, s.line))


def _sentence(path: str, source: str, decorator: ast.expr) -> Sentence:
    if not isinstance(decorator, ast.Call) or len(decorator.args) != 1:
        return Sentence(path, decorator.lineno, "", "", None)  # not a step decorator
    function = decorator.func
    name = function.id if isinstance(function, ast.Name) else getattr(function, "attr", "")
    if name not in _BEHAVE_NAMES:
        return Sentence(path, decorator.lineno, "", "", None)
    keyword = name if isinstance(function, ast.Name) else ast.unparse(function)
    [argument] = decorator.args
    written = ast.get_source_segment(source, argument) or ""
    literal = argument.value if isinstance(argument, ast.Constant) else None
    return Sentence(path, decorator.lineno, keyword, written, literal if isinstance(literal, str) else None)


def editor_problems(steps_dir: Path) -> list[Problem]:
    problems = []
    for sentence in sentences(steps_dir):
        message = sentence.problem()
        if message is not None:
            problems.append(Problem(sentence.path, sentence.line, RULE, message))
    return problems
