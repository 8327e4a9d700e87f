"""The seed's data and profiles are consistent before anything runs."""

from __future__ import annotations

from seed.registry import PROFILES, TASKS
from support.seeded.specs import KNOWLEDGE_DIR, agent_specs, dataset_specs
from support.tags import FIXTURE_STEPS, RUNTIME_READINESS_STEP


def test_every_expected_token_is_in_its_document_and_every_file_is_listed() -> None:
    for spec in dataset_specs().values():
        listed = {document.file for document in spec.documents}
        assert listed == {path.name for path in (KNOWLEDGE_DIR / spec.key).iterdir()}, spec.key
        for document in spec.documents:
            text = spec.content(document).decode("utf-8")
            missing = [token for token in document.expected_tokens if token not in text]
            assert not missing, f"{spec.key}/{document.file} lacks {missing}"


def test_fixture_agents_refer_to_seeded_datasets_and_cover_their_fixture_tags() -> None:
    specs = agent_specs()
    for spec in specs.values():
        assert set(spec.datasets) <= set(dataset_specs()), spec.key
    full = specs["full-config"].config
    assert full.instructions and full.opening_statement and len(full.suggested_questions) == 3
    assert full.tools and full.knowledge.score_threshold is not None and specs["full-config"].datasets
    assert {tool.enabled for tool in specs["tool-states"].config.tools} == {True, False}
    assert len(specs["dual-retrieval"].datasets) == 2


def test_every_task_runs_after_the_tasks_it_needs() -> None:
    for profile, tasks in PROFILES.items():
        done: set[str] = set()
        for task in tasks:
            assert set(task.needs) <= done, f"{profile}: {task.name} runs before {set(task.needs) - done}"
            done.add(task.name)
    assert [t.name for t in PROFILES["post-merge"]] == [t.name for t in PROFILES["prepared"]]
    assert {t.name for t in PROFILES["external-runtime"]} < {t.name for t in PROFILES["prepared"]}


def test_every_seed_task_is_in_a_profile() -> None:
    profiled = {task.name for tasks in PROFILES.values() for task in tasks}
    assert profiled == set(TASKS), f"tasks no profile runs: {sorted(set(TASKS) - profiled)}"


def test_steps_register_exactly_the_fixture_step_texts() -> None:
    from behave.step_registry import registry

    import steps.seeded  # noqa: F401  (registers the steps with behave)

    given = {step.pattern for step in registry.steps["given"]}
    assert {*FIXTURE_STEPS.values(), RUNTIME_READINESS_STEP} <= given
