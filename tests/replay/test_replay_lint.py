from __future__ import annotations

from pathlib import Path

import pytest

from support.lint.cassettes import check_cassettes
from support.lint.problem import Problem
from support.replay.cassette import Cassette, Entry, JsonResponse, write_cassette
from support.replay.matching import chat_request, key_of

FEATURE = '''@external-model
Feature: Chat

  Background:
    Given a runnable agent named "Helper"

  Scenario: Ask a question
    When I send "What is the capital of France?"
    Then the reply mentions "Paris"
    When I send "And the capital of Spain?"

  Scenario: Ask from a doc string
    When I send:
      """
      Summarize   the ready-knowledge
      dataset for me.
      """

  Scenario: Ask through a wrapper
    When I send "Explain retries to me"

  Scenario: Nothing recorded yet
    When I send "hello"

  Scenario Outline: Greet <name>
    When I send "Hi <name>"

    Examples:
      | name  |
      | Alice |
'''


def write(cassettes: Path, relative: str, *prompts: str, feature: str | None = "agent/chat.feature") -> Path:
    entries = []
    for prompt in prompts:
        request = chat_request({"messages": [{"role": "user", "content": prompt}]}, "default")
        entries.append(
            Entry(key=key_of(request), call_site="default", request=request, response=JsonResponse())
        )
    path = cassettes / relative
    cassette = Cassette(
        scenario=relative, feature=feature, recorded_at="t", recorded_from="reference-model", entries=entries
    )
    write_cassette(path, cassette)
    return path


@pytest.fixture
def tree(tmp_path: Path) -> tuple[Path, Path]:
    features, cassettes = tmp_path / "features", tmp_path / "features" / "cassettes"
    (features / "agent").mkdir(parents=True)
    (features / "agent" / "chat.feature").write_text(FEATURE)
    write(
        cassettes,
        "agent/chat/ask-a-question.json",
        "What is the capital of France?",
        "And the capital of Spain?",
    )
    write(
        cassettes, "agent/chat/ask-from-a-doc-string.json", "Summarize the ready-knowledge\ndataset for me."
    )
    write(cassettes, "agent/chat/ask-through-a-wrapper.json", "Context: none.\n\nExplain retries to me")
    write(cassettes, "agent/chat/greet-alice.json", "Hi Alice")
    return features, cassettes


def rules(problems: list[Problem]) -> list[tuple[str, int, str]]:
    return [(Path(p.path).name, p.line, p.rule) for p in problems]


def test_consistent_tree_only_reports_the_missing_cassette(tree: tuple[Path, Path]) -> None:
    features, cassettes = tree
    problems = check_cassettes(features, cassettes, "replay")
    assert rules(problems) == [("chat.feature", 22, "replay-cassette-missing")]
    assert "record it: make record-cassettes ARGS='-n \"Nothing recorded yet\"'" in problems[0].message
    assert str(problems[0]) == (
        f'{features}/agent/chat.feature:22: replay-cassette-missing: "Nothing recorded yet" is @external-model but '
        f"has no cassette {cassettes}/agent/chat/nothing-recorded-yet.json; "
        "record it: make record-cassettes ARGS='-n \"Nothing recorded yet\"'; but a scenario that makes no "
        "model or tool call at run time (e.g. one that only selects or saves a model) is @prepared, not "
        "@external-model"
    )


def test_missing_cassettes_are_only_required_in_replay_mode(tree: tuple[Path, Path]) -> None:
    assert check_cassettes(*tree, "record") == []


def test_orphan_cassette(tree: tuple[Path, Path]) -> None:
    features, cassettes = tree
    write(cassettes, "agent/chat/renamed-scenario.json", "hi")
    write(cassettes, "billing/invoices/anything.json", "hi")
    problems = check_cassettes(features, cassettes, "record")
    assert rules(problems) == [
        ("renamed-scenario.json", 1, "replay-cassette-orphan"),
        ("anything.json", 1, "replay-cassette-orphan"),
    ]
    assert (
        "no scenario in" in problems[0].message
        and "chat.feature maps to renamed-scenario.json" in problems[0].message
    )


def test_cassettes_recorded_outside_any_feature_are_not_orphans(tree: tuple[Path, Path]) -> None:
    features, cassettes = tree
    write(cassettes, "seed/validate-stable-model.json", "Reply with OK", feature=None)
    assert check_cassettes(features, cassettes, "record") == []


def test_prompt_drift_when_the_step_text_changed(tree: tuple[Path, Path]) -> None:
    features, cassettes = tree
    feature = features / "agent" / "chat.feature"
    feature.write_text(FEATURE.replace("capital of France", "capital of Spain"))
    [problem] = check_cassettes(features, cassettes, "record")
    assert (Path(problem.path).name, problem.line, problem.rule) == ("chat.feature", 7, "replay-prompt-drift")
    assert (
        'recorded user prompt 1 "What is the capital of France?", which no longer appears' in problem.message
    )
    assert problem.message.endswith("make record-cassettes ARGS='-n \"Ask a question\"'")


def test_prompt_drift_of_the_second_turn(tree: tuple[Path, Path]) -> None:
    features, cassettes = tree
    (features / "agent" / "chat.feature").write_text(FEATURE.replace("capital of Spain", "capital of Italy"))
    [problem] = check_cassettes(features, cassettes, "record")
    assert (problem.line, problem.rule) == (7, "replay-prompt-drift")
    assert 'recorded user prompt 2 "And the capital of Spain?", which no longer appears' in problem.message


def test_prompts_out_of_their_recorded_order_drift(tree: tuple[Path, Path]) -> None:
    features, cassettes = tree
    swapped = (
        FEATURE.replace("What is the capital of France?", "SWAP")
        .replace("And the capital of Spain?", "What is the capital of France?")
        .replace("SWAP", "And the capital of Spain?")
    )
    (features / "agent" / "chat.feature").write_text(swapped)
    [problem] = check_cassettes(features, cassettes, "record")
    assert (
        'user prompt 2 "And the capital of Spain?", which now comes before an earlier prompt'
        in problem.message
    )


def test_an_empty_cassette_means_the_scenario_is_prepared(tree: tuple[Path, Path]) -> None:
    # Recording a scenario that only selects a model writes a cassette with no call in it.
    features, cassettes = tree
    write(cassettes, "agent/chat/nothing-recorded-yet.json")
    [problem] = check_cassettes(features, cassettes, "replay")
    assert (Path(problem.path).name, problem.line, problem.rule) == (
        "chat.feature",
        22,
        "replay-cassette-empty",
    )
    assert "made no model or tool call when it was recorded" in problem.message
    assert (
        "is @prepared, not @external-model: replace @external-model with @prepared and delete"
        in problem.message
    )


def test_an_empty_cassette_of_a_scenario_whose_call_a_fault_answers_is_fine(tree: tuple[Path, Path]) -> None:
    features, cassettes = tree
    feature = features / "agent" / "chat.feature"
    for fault in ("fails the next call with status 500", "stalls the next call"):
        feature.write_text(
            FEATURE.replace(
                'When I send "hello"', f'Given the model provider {fault}\n    When I send "hello"'
            )
        )
        write(cassettes, "agent/chat/nothing-recorded-yet.json")
        assert check_cassettes(features, cassettes, "replay") == []


def test_malformed_cassette_names_file_line_and_reason(tree: tuple[Path, Path]) -> None:
    features, cassettes = tree
    (cassettes / "agent/chat/ask-a-question.json").write_text('{\n  "version": 1,\n  oops\n}')
    [problem] = check_cassettes(features, cassettes, "record")
    assert (Path(problem.path).name, problem.line, problem.rule) == (
        "ask-a-question.json",
        3,
        "replay-cassette-malformed",
    )
    assert problem.message.startswith("not valid JSON")


def test_scenarios_sharing_a_cassette(tree: tuple[Path, Path]) -> None:
    features, cassettes = tree
    feature = features / "agent" / "chat.feature"
    feature.write_text(
        FEATURE.replace("Scenario Outline: Greet <name>", "Scenario Outline: Greet someone")
        + "      | Bob   |\n"
    )
    problems = check_cassettes(features, cassettes, "record")
    assert rules(problems) == [
        ("chat.feature", 31, "replay-cassette-shared"),
        ("greet-alice.json", 1, "replay-cassette-orphan"),
    ]
    assert '"Greet someone" (line 30), "Greet someone" (line 31)' in problems[0].message


def test_unparsable_feature_is_reported_and_its_cassettes_not_called_orphans(tree: tuple[Path, Path]) -> None:
    features, cassettes = tree
    (features / "agent" / "chat.feature").write_text(
        "Feature: Chat\n  Scenario: x\n    Given y\n  nonsense\n"
    )
    assert rules(check_cassettes(features, cassettes, "record")) == [
        ("chat.feature", 1, "replay-feature-unparsable")
    ]
