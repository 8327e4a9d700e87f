"""`--since REF`: only the scenarios a change since REF can affect (the PR lane's quick feedback).

A scenario is kept when its feature file changed, when a step it uses is defined in a changed
step module, or when it runs a changed line of the product, by the impact map (ci/impact/map.json,
`make impact-map`). A changed line is read at its statement (a continuation line of a call is its
call's first line); lines inserted between two lines count as both. Everything the map cannot
attribute runs the whole lane, saying why: a change to the harness, a dependency or anything
else outside features/, steps/ and agent_builder/; a product file the map has not measured as it
is at REF (changed since the map, or new); a line that runs while the services start; a
template, a stylesheet or another file no coverage measures. A scenario the map has not measured
(new, or moved since: the map knows scenarios by `file:line`) runs with any product change. Docs
and unit tests change nothing a scenario runs. The post-merge and nightly lanes never take `--since`.
"""

from __future__ import annotations

import ast
import re
import subprocess
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from behave.parser import parse_file

from support.lanes.impact_map import ROOT, FileImpact, ImpactMap, StaleMap
from support.lanes.selection import ScenarioRef
from support.lint.step_definitions import loaded_steps, relative

# Changes no scenario can observe.
_INERT = re.compile(r"^(docs/|tests/|benchmarks/|\.github/|[^/]+\.md$|features/README\.md$|.*\.md$|LICENSE)")
_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@", re.MULTILINE)


@dataclass
class Selection:
    """What `--since` keeps: `whole` says why the whole lane runs; else `kept` says why each runs."""

    whole: str | None = None
    kept: dict[str, str] = field(default_factory=dict)  # scenario location -> why it runs

    def keep(self, location: str, why: str) -> None:
        self.kept.setdefault(location, why)


def for_lane(ref: str, refs: list[ScenarioRef]) -> Selection:
    """The selection for a lane's scenarios, with the committed impact map if there is one."""
    try:
        impact: ImpactMap | None = ImpactMap.load()
    except StaleMap:
        impact = None
    return select(ref, refs, impact, lambda modules: scenarios_using_steps(refs, modules))


def describe(selection: Selection, refs: list[ScenarioRef], ref: str) -> str:
    """What `--since` decided, for the terminal and `<lane>/since.txt`: every scenario, why it
    runs or why it was deselected."""
    if selection.whole is not None:
        return f"--since {ref}: the whole lane runs: {selection.whole}\n"
    running = sum(scenario.location in selection.kept for scenario in refs)
    lines = [f"--since {ref}: {running} of {len(refs)} scenarios run"]
    for scenario in refs:
        why = selection.kept.get(scenario.location)
        state = f"runs: {why}" if why else "deselected: no changed line, feature or step of it"
        lines.append(f"  {scenario.location} {scenario.name} -- {state}")
    return "\n".join(lines) + "\n"


def changed_files(ref: str, root: Path = ROOT) -> list[str]:
    """Files that differ from `ref` in the working tree (committed or not), and untracked ones."""
    diff = _git(["diff", "--name-only", "--no-renames", ref, "--"], root)
    untracked = _git(["ls-files", "--others", "--exclude-standard"], root)
    return sorted(set(diff.split()) | set(untracked.split()))


def changed_lines(ref: str, path: str, root: Path = ROOT) -> set[int]:
    """Lines of the file as it is at `ref` that changed; an insertion counts the lines around it."""
    lines: set[int] = set()
    for start, count in _HUNK.findall(_git(["diff", "-U0", "--no-renames", ref, "--", path], root)):
        first, length = int(start), int(count or "1")
        lines.update(range(first, first + length) if length else (first, first + 1))
    return lines


def select(
    ref: str,
    scenarios: Iterable[ScenarioRef],
    impact: ImpactMap | None,
    step_users: Callable[[list[str]], set[str]],
    root: Path = ROOT,
) -> Selection:
    """`step_users(modules)`: the locations of the scenarios using a step those modules define."""
    selection = Selection()
    refs = list(scenarios)
    changed = [path for path in changed_files(ref, root) if not _INERT.match(path)]
    step_modules = [path for path in changed if path.startswith("steps/") and path.endswith(".py")]
    for ref_ in refs:
        if ref_.feature_path in changed:
            selection.keep(ref_.location, f"its feature file {ref_.feature_path} changed")
    for location in step_users(step_modules) if step_modules else set():
        selection.keep(location, "it uses a step of a changed step module")
    outside = [p for p in changed if not (p.startswith(("features/", "steps/", "agent_builder/")))]
    if outside:
        selection.whole = f"{outside[0]} changed, and the impact map covers only the product"
        return selection
    product = [p for p in changed if p.startswith("agent_builder/")]
    for path in product:
        why = _product_change(ref, path, impact, selection, root)
        if why:
            selection.whole = why
            return selection
    if product and impact is not None:
        keep_unmeasured((ref_.location for ref_ in refs), impact, selection)
    return selection


def keep_unmeasured(locations: Iterable[str], impact: ImpactMap, selection: Selection) -> None:
    """Keeps the scenarios the map has not measured: it names them by `file:line`, so one added or
    moved since it was measured may run any changed line."""
    measured = {scenario.partition(" ")[2] for scenario in impact.scenarios}
    for location in locations:
        if location not in measured:
            selection.keep(location, "the impact map has not measured it (new, or moved since)")


def _product_change(
    ref: str, path: str, impact: ImpactMap | None, selection: Selection, root: Path
) -> str | None:
    """Keeps the scenarios that run the changed lines; or says why the whole lane must run."""
    if impact is None:
        return "there is no impact map: run `make impact-map`"
    if not path.endswith((".py", ".js")):
        return f"{path} changed, and no coverage measures its kind of file"
    try:
        measured = impact.files[path]
    except KeyError:
        return None if _existed(ref, path, root) else f"{path} is new: the impact map has not measured it"
    if _blob_at(ref, path, root) != measured.blob:
        return f"{path} changed since the impact map was measured: run `make impact-map`"
    old_source = _git(["show", f"{ref}:{path}"], root)
    return keep_runners(path, old_source, changed_lines(ref, path, root), measured, selection)


def keep_runners(
    path: str, measured_source: str, lines: Iterable[int], measured: FileImpact, selection: Selection
) -> str | None:
    """Keeps the scenarios that run `lines` of the file as measured; or says why all must run."""
    for line in sorted(lines):
        statement = statement_line(measured_source, line) if path.endswith(".py") else line
        if statement in measured.startup:
            return f"{path}:{line} runs while the services start: every scenario runs it"
        # Coverage counts a multi-line condition under each of its lines, not its `if`'s: both.
        for counted in sorted({statement, line}):
            for scenario in measured.lines.get(counted, ()):
                location = scenario.partition(" ")[2]  # `<lane> <file:line>`: the lane's own refs filter
                selection.keep(location, f"it runs {path}:{counted}")
    return None


def statement_line(source: str, line: int) -> int:
    """The line coverage counts `line` under: the first line of the innermost statement spanning
    it (of a compound statement, the header; of a decorator, the decorator)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return line
    spans: list[tuple[int, int]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.stmt) or node.end_lineno is None:
            continue
        body = getattr(node, "body", None)
        last = body[0].lineno - 1 if isinstance(body, list) and body else node.end_lineno
        spans.append((node.lineno, max(last, node.lineno)))
        for decorator in getattr(node, "decorator_list", []):
            spans.append((decorator.lineno, decorator.end_lineno or decorator.lineno))
    inner = [first for first, last in spans if first <= line <= last]
    return max(inner) if inner else line


def _existed(ref: str, path: str, root: Path) -> bool:
    found = subprocess.run(
        ["git", "cat-file", "-e", f"{ref}:{path}"], cwd=root, capture_output=True, check=False
    )
    return found.returncode == 0


def _blob_at(ref: str, path: str, root: Path) -> str:
    return _git(["rev-parse", f"{ref}:{path}"], root).strip()


def _git(args: list[str], root: Path) -> str:
    result = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise StaleMap(f"git {' '.join(args)}: {result.stderr.strip()}")
    return result.stdout


def scenarios_using_steps(refs: Iterable[ScenarioRef], modules: list[str], root: Path = ROOT) -> set[str]:
    """Locations of the scenarios (and their Backgrounds) with a step that a definition in one of
    `modules` (paths such as steps/publish.py) runs, matched as behave matches them."""
    wanted = {ref.location for ref in refs}
    used: set[str] = set()
    with loaded_steps(root / "steps") as definitions:
        for feature_path in sorted({ref.feature_path for ref in refs}):
            feature = parse_file(str(root / feature_path))
            for scenario in feature.walk_scenarios() if feature else []:
                location = f"{feature_path}:{scenario.line}"
                if location not in wanted:
                    continue
                for step in scenario.all_steps:
                    matched = definitions.matching(step.step_type, step.name)
                    if matched and relative(matched[0].location.filename) in modules:
                        used.add(location)
                        break
    return used
