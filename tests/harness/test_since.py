"""`--since REF` (support/lanes/since.py): a change keeps the scenarios that run what it touched,
and anything the impact map cannot attribute runs the whole lane, saying why."""

import subprocess
from pathlib import Path

import pytest

from ci.mutants.catalogue_loader import Check, Mutant
from ci.mutants.recall import edited_lines, recall_of, selection_for
from ci.mutants.runner import Outcome
from support.lanes.impact_map import FileImpact, ImpactMap
from support.lanes.selection import ScenarioRef
from support.lanes.since import Selection, keep_runners, select, statement_line

PRODUCT = "import os\n\n\ndef allowed(n):\n    limit = compute(1,\n                    2)\n    return n < limit\n\n\ndef unused():\n    return 0\n"
SCENARIOS = [
    ScenarioRef("features/a.feature", 3, "runs allowed"),
    ScenarioRef("features/b.feature", 5, "runs nothing changed"),
]


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    (tmp_path / "agent_builder").mkdir()
    (tmp_path / "features").mkdir()
    (tmp_path / "agent_builder" / "x.py").write_text(PRODUCT, encoding="utf-8")
    (tmp_path / "features" / "a.feature").write_text("Feature: a\n", encoding="utf-8")
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "agent_builder/x.py", "features/a.feature")
    _git(tmp_path, "-c", "user.email=a@b", "-c", "user.name=t", "commit", "-qm", "base")
    return tmp_path


def _select(repo: Path, used_steps: set[str] | None = None) -> Selection:
    """Selected with a map measured on the committed x.py: line 5 (a call over two lines) and 7
    run by features/a.feature:3; 1 and 4 at start-up; 11 by nothing."""
    return select("HEAD", SCENARIOS, _impact(repo), lambda modules: used_steps or set(), repo)


def _impact(repo: Path) -> ImpactMap:
    """The map of `_select`; features/b.feature:5 runs line 9 (blank: no edit reaches it)."""
    runs = frozenset({"pr features/a.feature:3"})
    measured = subprocess.run(
        ["git", "rev-parse", "HEAD:agent_builder/x.py"], cwd=repo, capture_output=True, text=True, check=True
    ).stdout.strip()
    lines = {5: runs, 7: runs, 9: frozenset({"pr features/b.feature:5"})}
    return ImpactMap("base", {"agent_builder/x.py": FileImpact(measured, lines, {1, 4})})


def _edit(repo: Path, path: str, old: str, new: str) -> None:
    target = repo / path
    target.parent.mkdir(parents=True, exist_ok=True)
    text = target.read_text(encoding="utf-8") if target.exists() else ""
    target.write_text(text.replace(old, new) if old else text + new, encoding="utf-8")


def test_a_changed_line_keeps_the_scenarios_that_run_it(repo: Path) -> None:
    _edit(repo, "agent_builder/x.py", "n < limit", "n <= limit")

    selection = _select(repo)

    assert selection.whole is None
    assert selection.kept == {"features/a.feature:3": "it runs agent_builder/x.py:7"}


def test_a_scenario_the_map_has_not_measured_runs_with_any_product_change(repo: Path) -> None:
    """The map names scenarios by file:line: one added or moved since it was measured is unknown."""
    moved = ScenarioRef("features/a.feature", 12, "moved down by an edit above it")
    impact = _impact(repo)
    _edit(repo, "features/a.feature", "", "  Scenario: new\n")
    only_feature = select("HEAD", [*SCENARIOS, moved], impact, lambda modules: set(), repo)
    assert only_feature.whole is None and "features/a.feature:12" in only_feature.kept  # its file changed
    _edit(repo, "agent_builder/x.py", "return 0", "return 1")  # a line no measured scenario runs
    _git(repo, "add", "features/a.feature")
    _git(repo, "-c", "user.email=a@b", "-c", "user.name=t", "commit", "-qm", "scenario")

    selection = select("HEAD", [*SCENARIOS, moved], impact, lambda modules: set(), repo)

    assert selection.kept == {
        "features/a.feature:12": "the impact map has not measured it (new, or moved since)"
    }


def test_a_continuation_line_counts_as_its_statement(repo: Path) -> None:
    _edit(repo, "agent_builder/x.py", "                    2)", "                    3)")

    assert _select(repo).kept == {"features/a.feature:3": "it runs agent_builder/x.py:5"}
    assert statement_line(PRODUCT, 6) == 5


def test_a_line_no_scenario_runs_keeps_none(repo: Path) -> None:
    _edit(repo, "agent_builder/x.py", "return 0", "return 1")

    selection = _select(repo)

    assert (selection.whole, selection.kept) == (None, {})


def test_a_line_run_at_start_runs_the_whole_lane(repo: Path) -> None:
    _edit(repo, "agent_builder/x.py", "def allowed(n):", "def allowed(n, m=0):")

    assert "runs while the services start" in str(_select(repo).whole)


def test_the_harness_a_stale_map_or_a_new_file_run_the_whole_lane(repo: Path) -> None:
    _edit(repo, "support/ui/page.py", "", "x = 1\n")
    assert "support/ui/page.py changed" in str(_select(repo).whole)
    (repo / "support" / "ui" / "page.py").unlink()

    _edit(repo, "agent_builder/new.py", "", "x = 1\n")
    assert "agent_builder/new.py is new" in str(_select(repo).whole)
    (repo / "agent_builder" / "new.py").unlink()

    stale = ImpactMap("old", {"agent_builder/x.py": FileImpact("0" * 40, {7: frozenset({"pr f:1"})})})
    _edit(repo, "agent_builder/x.py", "n < limit", "n <= limit")
    assert "changed since the impact map" in str(
        select("HEAD", SCENARIOS, stale, lambda m: set(), repo).whole
    )


def test_docs_change_nothing_and_a_feature_or_step_keeps_its_scenarios(repo: Path) -> None:
    _edit(repo, "docs/console.md", "", "more\n")
    assert (_select(repo).whole, _select(repo).kept) == (None, {})

    _edit(repo, "features/a.feature", "", "  Scenario: new\n")
    _edit(repo, "steps/publish.py", "", "# edited\n")
    selection = _select(repo, used_steps={"features/b.feature:5"})

    assert selection.whole is None
    assert selection.kept == {
        "features/a.feature:3": "its feature file features/a.feature changed",
        "features/b.feature:5": "it uses a step of a changed step module",
    }


def test_a_mutants_edit_selects_like_the_diff_a_developer_would_make(repo: Path) -> None:
    """The recall proof (ci/mutants/recall.py) reads a catalogue mutant as a diff of its lines."""
    find, replace = "    return n < limit\n", "    return n <= limit\n"
    assert edited_lines(PRODUCT, find, replace) == {7}
    assert edited_lines(PRODUCT, "limit = compute(1,\n", "limit = compute(1,\n    0,\n") == {5, 6}

    measured = subprocess.run(
        ["git", "rev-parse", "HEAD:agent_builder/x.py"], cwd=repo, capture_output=True, text=True, check=True
    ).stdout.strip()
    runs = frozenset({"pr features/a.feature:3"})
    impact = ImpactMap("base", {"agent_builder/x.py": FileImpact(measured, {5: runs, 7: runs}, {1, 4})})

    selection = selection_for("agent_builder/x.py", find, replace, impact, repo)

    assert (selection.whole, set(selection.kept)) == (None, {"features/a.feature:3"})
    assert "outside what the impact map measures" in str(
        selection_for("support/world.py", "a", "b", impact, repo).whole
    )


def test_the_recall_proof_counts_a_killer_the_map_has_not_measured_as_selected(repo: Path) -> None:
    find, replace = "    return n < limit\n", "    return n <= limit\n"
    mutant = Mutant("m", "limit off by one", "agent_builder/x.py", find, replace, Check(), "console_api")
    killers = (
        "features/a.feature:3 runs allowed [Then ...]",
        "features/c.feature:9 written since the map [Then ...]",
    )
    outcome = Outcome(mutant, killed=True, killed_by=killers, wall_s=1.0)

    (proof,) = recall_of([outcome], _impact(repo), repo, SCENARIOS)

    assert proof.missed == frozenset()
    assert proof.selection.kept["features/c.feature:9"].startswith("the impact map has not measured it")
    assert "features/b.feature:5" not in proof.selection.kept  # measured, and runs no edited line


def test_a_line_of_a_condition_over_several_lines_counts_as_itself_too() -> None:
    """Coverage counts each line of a multi-line `if (...)` condition, and never the `if` line:
    the condition's line keeps its scenarios (a catalogue mutant's edit there once kept none)."""
    source = "def f(call):\n    if (\n        call.a\n        and call.b\n    ):\n        return 1\n"
    measured = FileImpact(
        "blob", {3: frozenset({"pr features/a.feature:3"}), 4: frozenset({"pr features/c.feature:7"})}
    )
    selection = Selection()

    assert keep_runners("agent_builder/x.py", source, [4], measured, selection) is None
    assert statement_line(source, 4) == 2
    assert selection.kept == {"features/c.feature:7": "it runs agent_builder/x.py:4"}
