"""The feature linter's command line (`python -m support.lint`) and how it prints a finding; the rules
are in test_feature_lint.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.lint.features import main
from support.lint.problem import Problem
from tests.harness.lint_project import CLEAN, found, line_of, write_feature


def test_no_feature_files(project: Path) -> None:
    assert found(project) == [("no-features", 0)]


def test_problem_prints_as_path_line_rule_message() -> None:
    assert (
        str(Problem("features/a.feature", 3, "unknown-tag", "@x")) == "features/a.feature:3: unknown-tag: @x"
    )


def test_cli_prints_problems_and_fails(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = write_feature(project, CLEAN.replace("@core", "@core @wip"))
    assert main([]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"features/x.feature:{line_of(text, '@wip')}: forbidden-tag: @wip")


def test_cli_passes_clean_features_with_a_summary(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_feature(project, CLEAN)
    write_feature(project, CLEAN.replace("Roster", "Other"), name="y.feature")
    assert main(["features/x.feature", "features/y.feature"]) == 0
    assert capsys.readouterr().out == "2 feature files, 2 scenarios: OK\n"
