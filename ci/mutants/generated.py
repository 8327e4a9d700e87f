"""Generated mutants (`python -m ci.mutants --generated N`): bugs nobody chose.

Standard operators make them: cosmic-ray's for Python (comparisons, boolean and arithmetic
operators, `not` added or removed, numbers, break/continue, loops run zero times, exception
handlers and decorators), and Stryker's set for the console's JavaScript (ci/mutants/js_operators.py).
The places are lines that at least one scenario executes, by the impact map (ci/impact/): the
commit hash seeds the choice of N such lines, one mutation on each. A mutant is checked by the
scenarios that run its line, in their lanes, and by the tests that run it; a line the services run
as they start (an import, a route's decorator, a constant) by every lane that starts them, whole,
since every scenario there depends on it, and by every test that runs some line of its file. A
person triages the equivalent ones (changing nothing anyone could observe) in
generated_equivalents.toml, each with its reason.
"""

from __future__ import annotations

import difflib
import random
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from cosmic_ray.ast import ast_nodes, get_ast  # type: ignore[import-untyped]  # cosmic-ray ships no types
from cosmic_ray.mutating import mutate_code  # type: ignore[import-untyped]
from cosmic_ray.plugins import get_operator  # type: ignore[import-untyped]

from ci.mutants.catalogue_loader import Check, Lane, Mutant
from ci.mutants.js_operators import JsEdit, edits
from support.lanes.impact_map import TESTS_LANE, ImpactMap, StaleMap, lanes_starting

ROOT = Path(__file__).resolve().parents[2]
EQUIVALENTS = Path(__file__).resolve().parent / "generated_equivalents.toml"
GENERATED = "generated"  # the capability of every generated mutant
_COMPARISONS = [
    ("Eq", "NotEq"), ("NotEq", "Eq"), ("Lt", "LtE"), ("Lt", "GtE"), ("LtE", "Lt"), ("LtE", "Gt"),
    ("Gt", "GtE"), ("Gt", "LtE"), ("GtE", "Gt"), ("GtE", "Lt"), ("Is", "IsNot"), ("IsNot", "Is"),
]  # fmt: skip
PYTHON_OPERATORS = [
    *(f"core/ReplaceComparisonOperator_{a}_{b}" for a, b in _COMPARISONS),
    *(f"core/ReplaceBinaryOperator_{a}_{b}" for a, b in [("Add", "Sub"), ("Sub", "Add"), ("Mul", "Div")]),
    "core/ReplaceTrueWithFalse",
    "core/ReplaceFalseWithTrue",
    "core/ReplaceAndWithOr",
    "core/ReplaceOrWithAnd",
    "core/AddNot",
    "core/ReplaceUnaryOperator_Delete_Not",
    "core/NumberReplacer",
    "core/ReplaceBreakWithContinue",
    "core/ReplaceContinueWithBreak",
    "core/ZeroIterationForLoop",
    "core/ExceptionReplacer",
    "core/RemoveDecorator",
]


@dataclass(frozen=True)
class Site:
    """One mutation a standard operator can make at a line."""

    file: str
    line: int
    operator: str
    mutate: Callable[[str], str]  # the whole file's text -> the mutated text


def python_sites(file: str, source: str) -> list[Site]:
    tree = get_ast(source)
    sites: list[Site] = []
    for name in PYTHON_OPERATORS:
        operator = get_operator(name)()
        positions = [start for node in ast_nodes(tree) for start, _ in operator.mutation_positions(node)]
        for occurrence, (line, _) in enumerate(positions):
            sites.append(Site(file, line, name.removeprefix("core/"), _python_mutation(operator, occurrence)))
    return sites


def _python_mutation(operator: object, occurrence: int) -> Callable[[str], str]:
    def mutate(text: str) -> str:
        mutated = mutate_code(text, operator, occurrence)
        if mutated is None:
            raise ValueError(f"{operator} has no occurrence {occurrence} here any more")
        return str(mutated)

    return mutate


def js_sites(file: str, source: str) -> list[Site]:
    return [Site(file, edit.line, edit.operator, _js_mutation(edit)) for edit in edits(source.encode())]


def _js_mutation(edit: JsEdit) -> Callable[[str], str]:
    return lambda text: edit.apply(text.encode()).decode()


def sites_at_run_lines(impact: ImpactMap, root: Path = ROOT) -> dict[tuple[str, int], list[Site]]:
    """Every site on a line some scenario runs (or the services run as they start), by (file, line);
    files changed since the map was measured are left out (their lines are not the measured ones)."""
    by_line: dict[tuple[str, int], list[Site]] = {}
    for file in sorted(impact.files):
        try:
            measured = impact.impact_of(file, root)
        except StaleMap:
            continue
        source = (root / file).read_text(encoding="utf-8")
        found = python_sites(file, source) if file.endswith(".py") else js_sites(file, source)
        for site in found:
            if site.line in measured.lines or site.line in measured.startup:
                by_line.setdefault((file, site.line), []).append(site)
    return by_line


def choose_sites(by_line: dict[tuple[str, int], list[Site]], count: int, seed: int) -> list[Site]:
    """`count` lines at random (the seed decides), one of each line's sites."""
    rng = random.Random(seed)
    lines = rng.sample(sorted(by_line), min(count, len(by_line)))
    return [rng.choice(by_line[line]) for line in sorted(lines)]


def as_mutant(
    site: Site, impact: ImpactMap, equivalents: dict[tuple[str, str, str], str], root: Path = ROOT
) -> Mutant:
    """The site as a catalogue-shaped mutant: a find/replace that occurs once, and its checks."""
    original = (root / site.file).read_text(encoding="utf-8")
    find, replace = unique_edit(original, site.mutate(original))
    measured = impact.files[site.file]
    by_lane: dict[str, list[str]] = {}
    for scenario in sorted(measured.lines.get(site.line, ())):
        lane, _, location = scenario.partition(" ")
        by_lane.setdefault(lane, []).append(location)
    tests = tuple(by_lane.pop(TESTS_LANE, []))
    if site.line in measured.startup:  # every scenario of the lanes that start its service runs it
        by_lane = {lane: [] for lane in lanes_starting(site.file)}
        # Module-level code runs once per test process, credited to whichever test imported the
        # module first: every test that runs some line of the file depends on it.
        tests = tuple(sorted({location for ran in measured.lines.values() for location in _tests(ran)}))
    checks = [
        Check(lane=_lane(lane), features=tuple(locations), first_failure=True)
        for lane, locations in sorted(by_lane.items())
    ]
    if tests:
        checks.append(Check(pytest=tests, first_failure=True))
    before, after = _changed_line(find, replace)
    return Mutant(
        id=f"{site.file.removeprefix('agent_builder/')}:{site.line}:{site.operator}",
        behaviour=f"`{before}` -> `{after}`",
        file=site.file,
        find=find,
        replace=replace,
        check=checks[0],
        capability=GENERATED,
        equivalent=equivalents.get((site.file, before, after)),
        extra_checks=tuple(checks[1:]),
    )


def _tests(scenarios: frozenset[str]) -> list[str]:
    return [s.partition(" ")[2] for s in scenarios if s.partition(" ")[0] == TESTS_LANE]


def _lane(name: str) -> Lane:
    if name not in ("pr", "post-merge", "a11y", "deployed"):
        raise StaleMap(f"the impact map names an unknown lane {name!r}: run `make impact-map`")
    return name  # type: ignore[return-value]  # checked just above


def unique_edit(original: str, mutated: str) -> tuple[str, str]:
    """The changed lines, widened line by line until they occur once in `original`."""
    old, new = original.splitlines(keepends=True), mutated.splitlines(keepends=True)
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    changed = [op for op in matcher.get_opcodes() if op[0] != "equal"]
    if not changed:
        raise ValueError("the operator changed nothing")
    a0, a1, b0, b1 = changed[0][1], changed[-1][2], changed[0][3], changed[-1][4]
    # Lines outside the changed ones are the same in both: widen both sides alike.
    for wider in range(len(old) + 1):
        start, end = max(a0 - wider, 0), min(a1 + wider, len(old))
        find = "".join(old[start:end])
        if original.count(find) == 1 or (start == 0 and end == len(old)):
            return find, "".join(new[b0 - (a0 - start) : b1 + (end - a1)])
    raise AssertionError("unreachable: the whole file occurs once in itself")


def _changed_line(find: str, replace: str) -> tuple[str, str]:
    """The first line that differs, stripped: how a person reads the mutant (and triages it)."""
    for before, after in zip(find.splitlines(), replace.splitlines(), strict=False):
        if before != after:
            return before.strip(), after.strip()
    return find.strip(), replace.strip()


def load_equivalents(path: Path = EQUIVALENTS) -> dict[tuple[str, str, str], str]:
    """(file, line before, line after) -> why the mutation changes nothing observable."""
    if not path.is_file():
        return {}
    entries = tomllib.loads(path.read_text(encoding="utf-8")).get("equivalent", [])
    return {(e["file"], e["before"], e["after"]): e["reason"] for e in entries}


def generated_mutants(count: int, seed: int, root: Path = ROOT) -> list[Mutant]:
    impact = ImpactMap.load()
    chosen = choose_sites(sites_at_run_lines(impact, root), count, seed)
    equivalents = load_equivalents()
    return [as_mutant(site, impact, equivalents, root) for site in chosen]
