"""Scenario slugs (the evidence folder's and the cassette's file name) in any script: ASCII names
keep the slug they always had, others keep their letters and are unique per name."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.browser.evidence import scenario_dir
from support.lint.features import lint_paths
from support.naming import scenario_slug
from support.replay.cassette import cassette_relpath
from tests.harness.lint_project import found, line_of, write_feature


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("Instructions remain visible after refresh", "instructions-remain-visible-after-refresh"),
        ("An edit shows Saving… and then Saved", "an-edit-shows-saving-and-then-saved"),
        ("Café: 500 → retry!", "cafe-500-retry"),
    ],
)
def test_names_with_ascii_letters_keep_their_slug(name: str, slug: str) -> None:
    assert scenario_slug(name) == slug


def test_two_chinese_scenarios_get_two_evidence_folders_that_keep_their_names() -> None:
    first = scenario_dir(Path("artifacts/pr"), "features/agent/中文.feature", "保存智能体")
    second = scenario_dir(Path("artifacts/pr"), "features/agent/中文.feature", "删除智能体")
    assert first != second
    assert first.parent == Path("artifacts/pr/scenarios/agent")
    assert first.name.startswith("中文--保存智能体-") and second.name.startswith("中文--删除智能体-")


def test_names_that_differ_only_in_what_the_slug_drops_stay_apart() -> None:
    assert scenario_slug("保存!") != scenario_slug("保存?")
    assert scenario_slug("???") != scenario_slug("!!!")
    assert scenario_slug("???").startswith("scenario-")
    assert scenario_slug("🚀") == scenario_slug("🚀")  # stable: a cassette is found again by it


def test_slugs_fit_a_file_name_in_bytes() -> None:
    assert len(scenario_slug("保" * 200).encode("utf-8")) <= 80
    assert len(scenario_slug("x" * 200)) == 80
    assert str(cassette_relpath("agent/chat.feature", "保存智能体")).startswith("agent/chat/保存智能体-")


def test_scenarios_whose_names_share_a_slug_are_reported(project: Path) -> None:
    text = write_feature(
        project,
        """
        @core
        Feature: Roster
          Scenario: Open an agent!
            Given a basic configured agent has been created via API

          Scenario: open an agent?
            Given a basic configured agent has been created via API
        """,
    )
    assert ("duplicate-scenario-slug", line_of(text, "open an agent?")) in found(project)
    [problem] = [p for p in lint_paths([Path("features")]) if p.rule == "duplicate-scenario-slug"]
    assert problem.message.startswith(
        '"open an agent?" and "Open an agent!" (line 3) share the file name "open-an-agent"'
    )
