"""The proof that `--since` (support/lanes/since.py) misses nothing: for every catalogue mutant a
scenario killed, the scenarios `--since` selects from the mutant's edit include every scenario
that killed it (recall 100%), and the selections stay small (the median at most a quarter of the
PR lane). The mutant's edit is read as the diff a developer would make: the lines of `find`
that `replace` changes, in the file as the impact map measured it.
"""

from __future__ import annotations

import difflib
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ci.mutants.runner import Outcome
from support.lanes.impact_map import ImpactMap, StaleMap
from support.lanes.selection import ScenarioRef
from support.lanes.since import Selection, keep_runners, keep_unmeasured

MEDIAN_SHARE_GOAL = 0.25


@dataclass(frozen=True)
class Recall:
    mutant: str
    killers: frozenset[str]  # `file:line` of each scenario that killed it
    selection: Selection

    @property
    def missed(self) -> frozenset[str]:
        return frozenset() if self.selection.whole else self.killers - set(self.selection.kept)

    def share_of(self, lane: Sequence[ScenarioRef]) -> float:
        if self.selection.whole:
            return 1.0
        return sum(ref.location in self.selection.kept for ref in lane) / max(len(lane), 1)


def edited_lines(original: str, find: str, replace: str) -> set[int]:
    """The file's lines (1-based) that the edit changes; an insertion counts the lines around it."""
    first = original[: original.index(find)].count("\n") + 1
    lines: set[int] = set()
    matcher = difflib.SequenceMatcher(a=find.splitlines(), b=replace.splitlines(), autojunk=False)
    for tag, a0, a1, _, _ in matcher.get_opcodes():
        if tag != "equal":
            lines.update(range(first + a0, first + a1) if a1 > a0 else (first + a0 - 1, first + a0))
    return lines


def selection_for(file: str, find: str, replace: str, impact: ImpactMap | None, root: Path) -> Selection:
    selection = Selection()
    if impact is None:
        selection.whole = "there is no impact map"
        return selection
    if not file.startswith("agent_builder/") or not file.endswith((".py", ".js")):
        selection.whole = f"{file} is outside what the impact map measures"
        return selection
    try:
        measured = impact.impact_of(file, root)
    except StaleMap as error:
        selection.whole = str(error)
        return selection
    source = (root / file).read_text(encoding="utf-8")
    selection.whole = keep_runners(file, source, edited_lines(source, find, replace), measured, selection)
    return selection


def recall_of(
    outcomes: Sequence[Outcome], impact: ImpactMap | None, root: Path, lane: Sequence[ScenarioRef]
) -> list[Recall]:
    """One entry per catalogue mutant that lane scenarios killed. `lane`: the PR lane, whose
    scenarios the map has not measured `--since` keeps with any product change."""
    proofs = []
    for outcome in outcomes:
        mutant = outcome.mutant
        killers = frozenset(by.split(" ", 1)[0] for by in outcome.killed_by if by.startswith("features/"))
        if mutant.capability == "generated" or not killers:
            continue
        selection = selection_for(mutant.file, mutant.find, mutant.replace, impact, root)
        if impact is not None and selection.whole is None:
            keep_unmeasured([*(ref.location for ref in lane), *killers], impact, selection)
        proofs.append(Recall(mutant.id, killers, selection))
    return proofs


def recall_text(proofs: Sequence[Recall], pr_lane: Sequence[ScenarioRef]) -> tuple[str, bool]:
    """The proof's section of the report, and whether it holds."""
    if not proofs:
        return "", True
    shares = [proof.share_of(pr_lane) for proof in proofs]
    median = statistics.median(shares)
    missed = [proof for proof in proofs if proof.missed]
    whole = sum(bool(proof.selection.whole) for proof in proofs)
    held = len(proofs) - len(missed)
    summary = (
        f"{len(proofs)} mutants killed by scenarios: the selection from each one's edit holds every scenario"
        f" that killed it for {held} ({100 * held / len(proofs):.0f}%); the median selection is"
        f" {100 * median:.0f}% of the PR lane ({len(pr_lane)} scenarios; goal at most"
        f" {100 * MEDIAN_SHARE_GOAL:.0f}%); {whole} fell back to the whole lane."
    )
    lines = ["", "## `--since` recall (support/lanes/since.py, the impact map)", "", summary]
    for proof in missed:
        lines.append(f"- MISSED by `{proof.mutant}`: {', '.join(sorted(proof.missed))}")
    return "\n".join(lines) + "\n", not missed
