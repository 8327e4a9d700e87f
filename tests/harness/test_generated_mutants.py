"""Generated mutants (ci/mutants/generated.py, js_operators.py): standard operators at the lines
scenarios run, the commit's seed deciding, each checked by the scenarios and tests that run it."""

from pathlib import Path

from ci.mutants.generated import (
    as_mutant,
    choose_sites,
    js_sites,
    python_sites,
    sites_at_run_lines,
    unique_edit,
)
from ci.mutants.js_operators import edits
from support.lanes.impact_map import FileImpact, ImpactMap, blob_of

PYTHON = "def allowed(n, limit):\n    if n < limit and not closed():\n        return True\n    return False\n"
JS = "import { a } from './a.js';\nif (x === 1 && !busy) { show('Saved'); }\n"
LIMITS = "MAX_ITEMS = 10\nMAX_BYTES = 1024\n"


def test_python_sites_are_cosmic_rays_standard_operators() -> None:
    operators = {(site.line, site.operator) for site in python_sites("agent_builder/x.py", PYTHON)}

    assert (2, "ReplaceComparisonOperator_Lt_LtE") in operators
    assert (2, "ReplaceAndWithOr") in operators
    assert (2, "ReplaceUnaryOperator_Delete_Not") in operators
    assert (3, "ReplaceTrueWithFalse") in operators
    site = next(s for s in python_sites("agent_builder/x.py", PYTHON) if s.operator == "ReplaceAndWithOr")
    assert "if n < limit or not closed():" in site.mutate(PYTHON)


def test_js_edits_are_strykers_and_spare_module_specifiers() -> None:
    found = {(e.operator, JS.encode()[e.start : e.end].decode(), e.replacement) for e in edits(JS.encode())}

    assert ("EqualityOperator", "===", "!==") in found
    assert ("LogicalOperator", "&&", "||") in found
    assert ("BooleanLiteral", "!busy", "busy") in found
    assert ("StringLiteral", "'Saved'", '""') in found
    assert ("ConditionalExpression", "(x === 1 && !busy)", "(false)") in found
    assert not any(text == "'./a.js'" for _, text, _ in found), "an import's specifier is not mutated"


def test_an_edit_is_widened_until_it_occurs_once() -> None:
    original = "x = 1\nif a:\n    return 1\nif b:\n    return 1\n"
    mutated = "x = 1\nif a:\n    return 1\nif b:\n    return 2\n"

    find, replace = unique_edit(original, mutated)

    assert original.count(find) == 1
    assert original.replace(find, replace) == mutated


def _map(tmp_path: Path) -> ImpactMap:
    (tmp_path / "agent_builder" / "ui").mkdir(parents=True)
    (tmp_path / "agent_builder" / "x.py").write_text(PYTHON, encoding="utf-8")
    (tmp_path / "agent_builder" / "ui" / "a.js").write_text(JS, encoding="utf-8")
    (tmp_path / "agent_builder" / "runtime").mkdir()
    for name in ("limits.py", "runtime/limits.py"):
        (tmp_path / "agent_builder" / name).write_text(LIMITS, encoding="utf-8")
    ran = frozenset(
        {"pr features/a.feature:4", "post-merge features/b.feature:9", "tests tests/t.py::test_x"}
    )
    return ImpactMap(
        "c0ffee",
        {
            "agent_builder/x.py": FileImpact(blob_of(tmp_path / "agent_builder/x.py"), {2: ran}, {1}),
            "agent_builder/ui/a.js": FileImpact(blob_of(tmp_path / "agent_builder/ui/a.js"), {2: ran}),
            # Run as the services start (line 1), and by a test under its context too (line 2).
            "agent_builder/limits.py": FileImpact(
                blob_of(tmp_path / "agent_builder/limits.py"),
                {2: frozenset({"tests tests/t.py::test_x"})},
                {1, 2},
            ),
            "agent_builder/runtime/limits.py": FileImpact(
                blob_of(tmp_path / "agent_builder/runtime/limits.py"), {}, {1}
            ),
        },
    )


def test_only_lines_a_scenario_ran_are_chosen_and_the_seed_decides(tmp_path: Path) -> None:
    impact = _map(tmp_path)
    by_line = sites_at_run_lines(impact, tmp_path)

    assert set(by_line) == {
        ("agent_builder/x.py", 2),
        ("agent_builder/ui/a.js", 2),
        ("agent_builder/limits.py", 1),
        ("agent_builder/limits.py", 2),
        ("agent_builder/runtime/limits.py", 1),
    }, "x.py:1 has no site; start-up lines count: every scenario runs them"
    first = choose_sites(by_line, 2, seed=42)
    assert [(s.file, s.line, s.operator) for s in first] == [
        (s.file, s.line, s.operator) for s in choose_sites(by_line, 2, seed=42)
    ]
    assert len({(s.file, s.line) for s in first}) == 2, "one mutant a line"


def test_a_generated_mutant_runs_the_scenarios_of_each_lane_and_the_tests(tmp_path: Path) -> None:
    impact = _map(tmp_path)
    site = next(s for s in python_sites("agent_builder/x.py", PYTHON) if s.operator == "ReplaceAndWithOr")
    equivalents = {
        ("agent_builder/x.py", "if n < limit and not closed():", "if n < limit or not closed():"): "why"
    }

    mutant = as_mutant(site, impact, equivalents, tmp_path)

    assert [(c.lane, c.features, c.pytest) for c in mutant.checks] == [
        ("post-merge", ("features/b.feature:9",), ()),
        ("pr", ("features/a.feature:4",), ()),
        (None, (), ("tests/t.py::test_x",)),
    ]
    assert all(check.first_failure for check in mutant.checks), "one failure is enough to kill it"

    assert mutant.equivalent == "why", "a triaged equivalent is known by its file and lines"
    assert PYTHON.count(mutant.find) == 1
    assert mutant.id == "x.py:2:ReplaceAndWithOr"
    js = next(s for s in js_sites("agent_builder/ui/a.js", JS) if s.operator == "EqualityOperator")
    assert as_mutant(js, impact, {}, tmp_path).equivalent is None


def test_a_start_up_line_is_checked_by_every_lane_that_starts_its_service(tmp_path: Path) -> None:
    impact = _map(tmp_path)

    def checks(file: str, line: int) -> list[tuple[str | None, tuple[str, ...], tuple[str, ...]]]:
        site = next(s for s in python_sites(file, LIMITS) if s.line == line)
        return [(c.lane, c.features, c.pytest) for c in as_mutant(site, impact, {}, tmp_path).checks]

    whole_lanes_and_the_files_tests = [
        ("a11y", (), ()),
        ("post-merge", (), ()),
        ("pr", (), ()),
        (None, (), ("tests/t.py::test_x",)),
    ]
    assert checks("agent_builder/limits.py", 1) == whole_lanes_and_the_files_tests, (
        "a module-level line is credited to the test that imported the module first: every test "
        "that runs the file checks it"
    )
    assert checks("agent_builder/limits.py", 2) == whole_lanes_and_the_files_tests
    assert checks("agent_builder/runtime/limits.py", 1) == [("post-merge", (), ())], (
        "only post-merge starts the runtime"
    )
