"""Every step definition says what it does in a one-line docstring (features/README.md, "Writing a
step"): `make steps` prints it beside the sentence, and a sentence without one tells the reader
nothing more than its words. Read from `steps/*.py` with `ast`, without loading behave."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

STEPS = Path(__file__).resolve().parents[2] / "steps"
DECORATORS = frozenset({"given", "when", "then", "step"})


def step_functions(module: Path) -> Iterator[ast.FunctionDef]:
    """The module's functions with a behave step decorator (`@given("...")` and the others)."""
    for node in ast.parse(module.read_text(encoding="utf-8"), str(module)).body:
        if isinstance(node, ast.FunctionDef) and any(
            isinstance(d, ast.Call) and isinstance(d.func, ast.Name) and d.func.id in DECORATORS
            for d in node.decorator_list
        ):
            yield node


def summary_problem(function: ast.FunctionDef) -> str | None:
    """What is wrong with the step's docstring, or None: it needs one, whose first paragraph (what
    `make steps` shows first) is a single line; details may follow after a blank line."""
    docstring = ast.get_docstring(function)
    if not docstring:
        return "has no docstring"
    if "\n" in docstring.split("\n\n", 1)[0]:
        return "starts with a summary of more than one line (end it, then a blank line, then the rest)"
    return None


def test_the_check_sees_the_steps() -> None:
    modules = sorted(STEPS.glob("*.py"))
    assert len(modules) > 20
    assert sum(1 for module in modules for _ in step_functions(module)) > 300


def test_every_step_has_a_one_line_summary() -> None:
    found = [
        f"steps/{module.name}:{function.lineno}: {function.name} {problem}"
        for module in sorted(STEPS.glob("*.py"))
        for function in step_functions(module)
        if (problem := summary_problem(function))
    ]
    assert not found, "say what each step does in one line:\n" + "\n".join(found)


def test_the_check_tells_a_summary_from_a_missing_or_wrapped_one() -> None:
    module = ast.parse(
        'def a():\n    """One line."""\n'
        "def b():\n    pass\n"
        'def c():\n    """Two\n    lines."""\n'
        'def d():\n    """One line.\n\n    Then more,\n    on two lines.\n    """\n'
    )
    functions = [node for node in module.body if isinstance(node, ast.FunctionDef)]
    assert [summary_problem(f) for f in functions] == [
        None,
        "has no docstring",
        "starts with a summary of more than one line (end it, then a blank line, then the rest)",
        None,
    ]
