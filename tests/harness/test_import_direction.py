"""Imports point one way (README, Layout), read from the source with `ast`, without importing it.

steps -> support; seed -> support; ci -> seed and support; support imports none of them; the
suite, the product (`agent_builder`) and its deployment recipe (`deploy`) never import each other. And no import cycle, between
modules or between packages at any depth. Imports inside functions count: they are still
dependencies, only deferred.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Top-level package -> the top-level packages it may import.
ALLOWED: Mapping[str, frozenset[str]] = {
    "support": frozenset(),
    "steps": frozenset({"support"}),
    "seed": frozenset({"support"}),
    "ci": frozenset({"seed", "support"}),
    "agent_builder": frozenset(),
    "deploy": frozenset(),  # a deployment recipe: it starts the product as processes, like an operator
}
Graph = Mapping[str, frozenset[str]]


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {
        _module_name(path): path for package in ALLOWED for path in sorted((ROOT / package).rglob("*.py"))
    }


def _imported_names(module: str, path: Path, known: Mapping[str, Path]) -> Iterator[str]:
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: `from . import x`, `from ..a import b`
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([node.module] if node.module else [])])
            # `from package import module` imports the module; `from module import name` the module.
            yield from (
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names
            )


def _import_graph() -> Graph:
    """Module -> the first-party modules it imports (the nearest existing module of each name)."""
    known = _modules()
    graph: dict[str, frozenset[str]] = {}
    for module, path in known.items():
        targets = set()
        for name in _imported_names(module, path, known):
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name and name != module:
                targets.add(name)
        graph[module] = frozenset(targets)
    return graph


def _collapsed(graph: Graph, depth: int) -> Graph:
    """The graph between the packages (or modules) named by the first `depth` parts of each name."""

    def cut(name: str) -> str:
        return ".".join(name.split(".")[:depth])

    collapsed: dict[str, set[str]] = {}
    for module, targets in graph.items():
        collapsed.setdefault(cut(module), set()).update(cut(t) for t in targets if cut(t) != cut(module))
    return {node: frozenset(targets) for node, targets in collapsed.items()}


def _cycles(graph: Graph) -> list[list[str]]:
    """Every group of nodes that import each other, directly or around a loop (Tarjan's SCCs)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = [stack.pop()]
            while group[-1] != node:
                group.append(stack.pop())
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def test_the_graph_sees_the_imports_it_checks() -> None:
    # Guards the parser: a graph that misses imports would pass every rule below.
    graph = _import_graph()
    assert "support.world" in graph["steps.agent_roster"]
    assert "support.seeded.specs" in graph["seed.tasks.agents"]
    assert "agent_builder.console.app" in graph["agent_builder.cli"]  # an import inside a function


def test_packages_import_only_in_the_allowed_direction() -> None:
    graph = _collapsed(_import_graph(), 1)
    forbidden = [
        f"{package} imports {target}"
        for package, targets in sorted(graph.items())
        for target in sorted(targets - ALLOWED[package])
    ]
    assert not forbidden, "imports against the Layout's direction (README.md): " + "; ".join(forbidden)


def test_the_allowed_directions_have_no_cycle() -> None:
    assert not _cycles(ALLOWED)


def test_no_import_cycle_between_modules_or_packages() -> None:
    graph = _import_graph()
    depth = max(len(module.split(".")) for module in graph)
    found = {
        " <-> ".join(group) for level in range(1, depth + 1) for group in _cycles(_collapsed(graph, level))
    }
    assert not found, "import cycles: " + "; ".join(sorted(found))
