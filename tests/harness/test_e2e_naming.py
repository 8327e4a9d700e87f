"""Names carry the E2E prefix, run and worker ids, so leftovers can be audited."""

from __future__ import annotations

import itertools

import pytest

from support.naming import E2E_PREFIX, E2EName, belongs_to_run, e2e_name, is_e2e_name, parse_e2e_name


def test_names_are_prefixed_readable_and_numbered() -> None:
    counter = itertools.count(1)
    assert e2e_name("Support Bot (v2)", run_id="ab12cd34", worker_id="w0", counter=counter) == (
        "E2E-ab12cd34-w0-support-bot-v2-1"
    )
    assert (
        e2e_name("notes.txt", run_id="ab12cd34", worker_id="w0", counter=counter)
        == "E2E-ab12cd34-w0-notes-txt-2"
    )
    assert E2E_PREFIX == "E2E"


def test_long_labels_are_shortened() -> None:
    name = e2e_name("x" * 100, run_id="r", worker_id="w1", counter=itertools.count(7))
    assert name == f"E2E-r-w1-{'x' * 32}-7"


@pytest.mark.parametrize(
    ("label", "run_id", "worker_id"), [("!!!", "r1", "w0"), ("bot", "Run-1", "w0"), ("bot", "r1", "worker-1")]
)
def test_invalid_parts_are_refused(label: str, run_id: str, worker_id: str) -> None:
    with pytest.raises(ValueError):
        e2e_name(label, run_id=run_id, worker_id=worker_id, counter=itertools.count(1))


def test_names_parse_back_for_audits() -> None:
    name = e2e_name("Support Bot", run_id="run9", worker_id="w2", counter=itertools.count(3))
    assert parse_e2e_name(name) == E2EName("run9", "w2", "support-bot", 3)
    assert is_e2e_name(name)
    assert belongs_to_run(name, "run9")
    assert not belongs_to_run(name, "run")
    assert not belongs_to_run("E2E-run99-w2-support-bot-3", "run9")


@pytest.mark.parametrize(
    "name", ["Support Bot", "E2E-run9-w2-bot", "e2e-run9-w2-bot-1", "E2E-run9-w2--1", "xE2E-r-w-b-1"]
)
def test_other_names_are_not_e2e_names(name: str) -> None:
    assert not is_e2e_name(name)
    assert not belongs_to_run(name, "run9")
