"""The mutation lane's own machinery: a valid catalogue, a scratch copy the checks really import,
mutants applied and restored, a deterministic rotating sample, and a kill table that tells."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from ci.mutants.__main__ import announce, baseline_checks, choose, longest_first
from ci.mutants.catalogue_loader import CatalogueError, Check, Mutant, load_catalogue
from ci.mutants.pool import run_on_copies
from ci.mutants.report import kill_table
from ci.mutants.runner import Outcome
from ci.mutants.scratch import Scratch, ScratchError, scratch_copy

ROOT = Path(__file__).resolve().parents[2]


def mutant(**changes: object) -> Mutant:
    fields: dict[str, object] = {
        "id": "m1",
        "behaviour": "a bug",
        "file": "agent_builder/__init__.py",
        "find": '"""',
        "replace": "'''",
        "check": Check(pytest=("tests/x.py",)),
        "capability": "demo",
    }
    return Mutant(**{**fields, **changes})  # type: ignore[arg-type]


def test_the_shipped_catalogue_is_valid_and_every_mutant_applies_exactly_once() -> None:
    mutants = load_catalogue()
    assert len({m.id for m in mutants}) == len(mutants) > 0
    assert all(m.behaviour and m.check.describe() for m in mutants)


def test_a_mutant_whose_code_moved_is_refused_naming_it(tmp_path: Path) -> None:
    (tmp_path / "ci" / "mutants" / "catalogue").mkdir(parents=True)
    (tmp_path / "app.py").write_text("x = 1\nx = 1\n")
    catalogue = tmp_path / "ci" / "mutants" / "catalogue"
    (catalogue / "demo.toml").write_text(
        '[[mutant]]\nid = "twice"\nbehaviour = "b"\nfile = "app.py"\nfind = "x = 1"\nreplace = "x = 2"\n'
        'check = { pytest = ["t.py"] }\n'
    )
    with pytest.raises(CatalogueError, match="mutant 'twice': `find` occurs 2 times in app.py"):
        load_catalogue(catalogue, tmp_path)
    (catalogue / "demo.toml").write_text(
        '[[mutant]]\nid = "gone"\nbehaviour = "b"\nfile = "app.py"\nfind = "y = 1"\nreplace = "y = 2"\n'
        'check = { pytest = ["t.py"] }\n'
    )
    with pytest.raises(
        CatalogueError, match="mutant 'gone': `find` occurs 0 times in app.py.*the code moved"
    ):
        load_catalogue(catalogue, tmp_path)
    (catalogue / "demo.toml").write_text(
        '[[mutant]]\nid = "nocheck"\nbehaviour = "b"\nfile = "app.py"\nfind = "x"\nreplace = "y"\ncheck = {}\n'
    )
    with pytest.raises(CatalogueError, match="check needs a lane, pytest node ids or lint"):
        load_catalogue(catalogue, tmp_path)


def test_the_scratch_copy_is_what_the_checks_import_and_a_mutant_is_restored() -> None:
    with scratch_copy(ROOT) as scratch:
        target = scratch.root / "agent_builder" / "__init__.py"
        original = target.read_text()
        probe = [sys.executable, "-c", "import agent_builder; print(agent_builder.__doc__[:12])"]
        with scratch.mutated(mutant(find=original.splitlines()[0], replace='"""MUTATED HERE')):
            scratch.verify()
            out = subprocess.run(
                probe, cwd=scratch.root, env=scratch.env(), capture_output=True, text=True, check=True
            )
            assert out.stdout.startswith("MUTATED HERE")
        assert target.read_text() == original
        assert (
            ROOT / "agent_builder" / "__init__.py"
        ).read_text() == original  # the working tree is untouched


def test_verification_fails_when_the_checks_would_import_another_copy(tmp_path: Path) -> None:
    with pytest.raises(ScratchError, match="scratch copy"):
        Scratch(tmp_path, ROOT).verify()  # an empty folder: agent_builder comes from the installed checkout


def test_the_rotating_sample_is_decided_by_the_commit_and_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    mutants = [mutant(id=f"m{n}") for n in range(30)]
    first, again = choose(mutants, [], 10), choose(mutants, [], 10)
    assert first == again and len(first) == 10
    other = choose(mutants, [], 10, "f" * 40)
    assert other == choose(mutants, [], 10, "f" * 40) and other != choose(mutants, [], 10, "e" * 40)
    with pytest.raises(ValueError, match="unknown mutant id"):
        choose(mutants, ["nope"], None)
    announce(other, mutants, 10, "f" * 40, jobs=2)
    said = capsys.readouterr().err
    assert "10 of 30 mutants" in said and "chosen by commit ffffffffffff" in said
    assert said.rstrip().endswith(", ".join(m.id for m in other))


def test_the_kill_table_names_survivors_and_equivalents() -> None:
    killed = Outcome(mutant(id="k"), True, ("features/a.feature:3 A",), 12.0)
    survived = Outcome(mutant(id="s"), False, (), 9.0)
    equivalent = Outcome(mutant(id="e", equivalent="the value is never read"), False, (), 8.0)
    table = kill_table([killed, survived, equivalent], 60.0)
    assert "1 of 3 mutants killed (50% of the non-equivalent ones), 1 accepted as equivalent" in table
    assert "| `s` | a bug |" in table and "**SURVIVED**" in table and "Survivors" in table
    assert "(equivalent: the value is never read)" in table
    assert (
        survived.verdict == "SURVIVED" and equivalent.verdict == "equivalent" and killed.verdict == "killed"
    )


def test_jobs_share_the_copies_one_job_per_copy_and_keep_the_catalogue_order() -> None:
    copies = [Scratch(Path(f"/scratch/{n}"), ROOT) for n in range(2)]
    in_use: set[Path] = set()
    lock = threading.Lock()
    second_done = threading.Event()
    finished: list[int] = []

    def work(scratch: Scratch, item: int) -> str:
        with lock:
            assert scratch.root not in in_use, "two jobs used one copy at once"
            in_use.add(scratch.root)
        if item == 0:  # the first item finishes after the second: results still come in order
            assert second_done.wait(timeout=10)
        with lock:
            in_use.discard(scratch.root)
        return f"item {item}"

    def done(item: int, result: str) -> None:
        finished.append(item)
        if item == 1:
            second_done.set()

    results = run_on_copies(copies, list(range(6)), work, done)
    assert results == [f"item {n}" for n in range(6)]
    assert finished[0] == 1 and sorted(finished) == list(range(6))


def test_the_baseline_runs_each_lane_once_with_only_the_scenarios_its_checks_name() -> None:
    named = [
        mutant(id="a", check=Check(lane="pr", features=("f/a.feature",), names=("one",))),
        mutant(id="b", check=Check(lane="pr", features=("f/b.feature",), names=("two",))),
        mutant(id="c", check=Check(lane="post-merge", features=("f/c.feature",), names=("three",))),
    ]
    runs = baseline_checks(named, workers=2)
    checks = [run.keywords["check"] for run in runs]  # type: ignore[attr-defined]
    assert checks == [
        Check(lane="post-merge", features=("f/c.feature",), names=("three",)),
        Check(lane="pr", features=("f/a.feature", "f/b.feature"), names=("one", "two")),
    ]
    # One check of a lane that names no scenario runs its features whole, so no names narrow them.
    whole = named + [mutant(id="d", check=Check(lane="pr", features=("f/d.feature",)))]
    pr = [run.keywords["check"] for run in baseline_checks(whole, workers=2)][1]  # type: ignore[attr-defined]
    assert pr == Check(lane="pr", features=("f/a.feature", "f/b.feature", "f/d.feature"))


def test_the_slowest_mutants_start_first_by_the_last_run_else_by_their_kind(tmp_path: Path) -> None:
    quick = mutant(id="quick")
    pr = mutant(id="pr", check=Check(lane="pr", features=("f/a.feature",)))
    post_merge = mutant(id="pm", check=Check(lane="post-merge", features=("f/a.feature",)))
    assert [m.id for m in longest_first([quick, pr, post_merge], tmp_path / "none.json")] == [
        "pm",
        "pr",
        "quick",
    ]
    last = tmp_path / "report.json"
    last.write_text(json.dumps({"mutants": [{"id": "quick", "wall_s": 90.0}, {"id": "pm", "wall_s": 3.0}]}))
    assert [m.id for m in longest_first([quick, pr, post_merge], last)] == ["quick", "pr", "pm"]
