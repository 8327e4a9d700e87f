"""`make mutants` (`python -m ci.mutants [--only ID...] [--sample N] [--generated N] [--jobs N] [--workers N]`): the mutation lane.

1. Load the catalogue (ci/mutants/catalogue/*.toml) and choose the mutants: all of them, `--only`
   some, or `--sample N` chosen by the commit hash (the rotating sample `make test` runs); with
   `--generated N`, also N mutants standard operators make on lines the commit hash chooses
   among those a scenario runs (ci/mutants/generated.py; alone, it runs only those).
2. Copy the checkout to a scratch folder per job (`--jobs`, mutants checked at once) and prove the
   checks import the copy (ci/mutants/scratch.py, pool.py).
3. Baseline: the chosen mutants' checks, run together on the UNMUTATED copy, must pass; otherwise a
   kill would mean nothing and the lane stops.
4. For each mutant, the slowest first: apply it, run its check, restore; a check that fails kills
   the mutant, and the kill names the failing scenario, step and error.
5. Print the kill table and write artifacts/mutants/report.md and report.json (a `--sample` or
   `--only` run writes them under artifacts/mutants/sample/ or only/, keeping the full run's).

6. The `--since` recall proof (ci/mutants/recall.py): the selection from each killed mutant's
   edit must hold every scenario that killed it.

Exit code 1 when the recall proof misses a killing scenario, when a catalogue mutant survives that the catalogue does not mark as equivalent (a
generated survivor is reported with the score, not failed: nobody chose it), when a mutant
cannot be applied, or when the baseline fails; 2 for bad arguments or a broken catalogue.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from ci.mutants.catalogue_loader import CatalogueError, Check, Mutant, load_catalogue
from ci.mutants.generated import GENERATED, generated_mutants
from ci.mutants.pool import run_on_copies, scratch_copies
from ci.mutants.recall import recall_of, recall_text
from ci.mutants.report import write_reports
from ci.mutants.runner import Outcome, lane_check, lint_check, pytest_check, run_mutant
from ci.mutants.scratch import Scratch, ScratchError
from support.lanes.impact_map import ImpactMap, StaleMap
from support.lanes.selection import select_scenarios
from support.tags import behave_args

ROOT = Path(__file__).resolve().parents[2]
REPORT_DIR = ROOT / "artifacts" / "mutants"


def head_commit() -> str:
    return subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()


def choose(mutants: list[Mutant], only: list[str], sample: int | None, commit: str = "") -> list[Mutant]:
    if only:
        unknown = sorted(set(only) - {mutant.id for mutant in mutants})
        if unknown:
            raise ValueError(
                f"unknown mutant id(s): {', '.join(unknown)}; `python -m ci.mutants --list` lists them"
            )
        return [mutant for mutant in mutants if mutant.id in only]
    if sample is not None:
        # The commit decides: every commit tries another part of the catalogue, reproducibly.
        chosen = random.Random(int(commit or head_commit(), 16)).sample(mutants, min(sample, len(mutants)))
        return sorted(chosen, key=lambda mutant: mutant.id)
    return mutants


def announce(
    chosen: list[Mutant], catalogue: list[Mutant], sample: int | None, commit: str, jobs: int
) -> None:
    """Say what runs and why: a sample names its mutants and the commit that chose them."""
    line = f"[mutants] {len(chosen)} of {len(catalogue)} mutants, {jobs} at a time"
    if sample is not None:
        line += (
            f"; a rotating sample chosen by commit {commit[:12]} (each commit checks another part of"
            f" the catalogue; `make mutants` runs all of it): {', '.join(m.id for m in chosen)}"
        )
    print(line, file=sys.stderr, flush=True)


def report_folder(only: list[str], sample: int | None) -> Path:
    """A subset run keeps the whole catalogue's kill table: it reports under only/ or sample/."""
    if only:
        return REPORT_DIR / "only"
    if sample is not None:
        return REPORT_DIR / "sample"
    return REPORT_DIR


def baseline_checks(mutants: list[Mutant], workers: int) -> list[Callable[[Scratch], list[str]]]:
    """The chosen mutants' checks, merged per kind (lint, pytest, each lane), to run once on the
    unmutated copy: a check that fails there would make every kill meaningless."""
    checks = [check for mutant in mutants for check in mutant.checks]
    runs: list[Callable[[Scratch], list[str]]] = []
    if any(check.lint for check in checks):
        runs.append(lint_check)
    nodes = tuple(sorted({node for check in checks for node in check.pytest}))
    if nodes:
        runs.append(lambda scratch: pytest_check(scratch, nodes))
    for lane in sorted({check.lane for check in checks if check.lane}):
        same = [check for check in checks if check.lane == lane]
        whole = any(not check.features for check in same)
        features = () if whole else tuple(sorted({feature for check in same for feature in check.features}))
        # Only the scenarios some check runs (a pattern may also match in another of the
        # features: a superset, never less); every scenario when one check names none.
        named = all(check.names for check in same)
        names = tuple(sorted({name for check in same for name in check.names})) if named else ()
        baseline = Check(lane=lane, features=features, names=names)
        runs.append(partial(lane_check, check=baseline, workers=workers))
    return runs


# Seconds a check of each kind takes when no earlier run says (a lane starts its stack first).
_TYPICAL_S = {"post-merge": 25.0, "pr": 15.0, "a11y": 15.0, "deployed": 30.0}


def longest_first(mutants: list[Mutant], last_report: Path) -> list[Mutant]:
    """The order to start the mutants in: the slowest first (by the last whole run's wall times,
    else by the kind of check), so the quick pytest checks fill the end instead of one job
    finishing a long lane check alone."""
    known: dict[str, float] = {}
    if last_report.is_file():
        known = {entry["id"]: entry["wall_s"] for entry in json.loads(last_report.read_text())["mutants"]}

    def cost(mutant: Mutant) -> float:
        lane = mutant.check.lane
        return known.get(mutant.id, _TYPICAL_S.get(lane, 5.0) if lane else 5.0)

    return sorted(mutants, key=cost, reverse=True)


def _run(scratch: Scratch, mutant: Mutant, workers: int) -> Outcome:
    try:
        return run_mutant(scratch, mutant, workers)
    except ScratchError as error:
        return Outcome(mutant, False, (), 0.0, str(error))


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m ci.mutants", description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", default=[], metavar="ID")
    parser.add_argument("--sample", type=int, metavar="N", help="N mutants chosen by the commit hash")
    parser.add_argument(
        "--generated",
        type=int,
        metavar="N",
        help="N mutants made by standard operators where the commit hash says",
    )
    parser.add_argument("--workers", type=int, default=2, help="lane workers of each check")
    # Three at once on 2 cores: a check mostly waits (a stack starting, a browser, an assertion's
    # timeout on a killed mutant), so the whole catalogue took 14 min with 3 jobs, ~20 with 2.
    parser.add_argument("--jobs", type=int, default=3, help="mutants checked at once, each on its own copy")
    parser.add_argument("--list", action="store_true", help="list the catalogue and exit")
    return parser.parse_args(argv)


def progress(total: int) -> Callable[[Mutant, Outcome], None]:
    """Prints each outcome as it comes in: `[mutants] 3/94 <id>: killed in 12s by ...`."""
    done: list[Outcome] = []

    def report(mutant: Mutant, outcome: Outcome) -> None:
        done.append(outcome)
        print(
            f"[mutants] {len(done)}/{total} {mutant.id}: {outcome.verdict} in {outcome.wall_s:.0f}s"
            + (f" by {outcome.killed_by[0]}" if outcome.killed_by else ""),
            file=sys.stderr,
            flush=True,
        )

    return report


def run_chosen(chosen: list[Mutant], jobs: int, workers: int) -> list[Outcome] | None:
    """The baseline, then every mutant; the outcomes in the catalogue's order (None: the baseline
    failed, and the failures are printed)."""
    with scratch_copies(ROOT, jobs) as scratches:
        failures = run_on_copies(
            scratches, baseline_checks(chosen, workers), lambda scratch, check: check(scratch)
        )
        if any(failures):
            print("[mutants] the UNMUTATED product fails these checks; fix them first:", file=sys.stderr)
            print("\n".join(f"  {failure}" for found in failures for failure in found), file=sys.stderr)
            return None
        order = longest_first(chosen, REPORT_DIR / "report.json")
        finished = run_on_copies(
            scratches, order, lambda scratch, mutant: _run(scratch, mutant, workers), progress(len(chosen))
        )
    # The kill table keeps the catalogue's order, whatever order the mutants ran in.
    by_id = {outcome.mutant.id: outcome for outcome in finished}
    return [by_id[mutant.id] for mutant in chosen]


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    commit = head_commit() if args.sample is not None or args.generated else ""
    try:
        catalogue = load_catalogue()
        only_generated = bool(args.generated) and not (args.only or args.sample is not None)
        chosen = [] if only_generated else choose(catalogue, args.only, args.sample, commit)
        generated = generated_mutants(args.generated, int(commit, 16)) if args.generated else []
    except CatalogueError as error:
        # Loud on purpose: a mutant whose code moved would otherwise test nothing, silently.
        print(f"[mutants] the catalogue is broken, no mutant was run: {error}", file=sys.stderr)
        return 2
    except (ValueError, StaleMap) as error:
        print(f"[mutants] {error}", file=sys.stderr)
        return 2
    if args.list:
        for mutant in catalogue:
            print(f"{mutant.id:<40} {mutant.capability:<14} {mutant.behaviour}")
        return 0
    started = time.monotonic()
    announce(chosen, catalogue, args.sample, commit, args.jobs)
    if generated:
        print(
            f"[mutants] {len(generated)} generated mutants, lines chosen by commit {commit[:12]}: "
            + ", ".join(mutant.id for mutant in generated),
            file=sys.stderr,
            flush=True,
        )
    outcomes = run_chosen(chosen + generated, args.jobs, args.workers)
    if outcomes is None:
        return 1
    folder = REPORT_DIR / "generated" if only_generated else report_folder(args.only, args.sample)
    table = write_reports(outcomes, folder, time.monotonic() - started, commit)
    proof, recall_holds = recall_section(outcomes)
    with (folder / "report.md").open("a", encoding="utf-8") as report:
        report.write(proof)
    print(table + proof)
    # A generated survivor is a finding for the score and the triage, not a broken build.
    bad = [
        outcome
        for outcome in outcomes
        if outcome.verdict == "error"
        or (outcome.verdict == "SURVIVED" and outcome.mutant.capability != GENERATED)
    ]
    return 1 if bad or not recall_holds else 0


def recall_section(outcomes: list[Outcome]) -> tuple[str, bool]:
    """`--since` proven on this run's kills (ci/mutants/recall.py)."""
    try:
        impact: ImpactMap | None = ImpactMap.load()
    except StaleMap:
        impact = None
    pr_lane = select_scenarios(behave_args("pr"))
    return recall_text(recall_of(outcomes, impact, ROOT, pr_lane), pr_lane)


if __name__ == "__main__":
    sys.exit(main())
