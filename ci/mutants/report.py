"""The kill table: printed, and written as artifacts/mutants/report.md and report.json."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from ci.mutants.runner import Outcome


def kill_table(outcomes: Sequence[Outcome], wall_s: float) -> str:
    killed = sum(outcome.verdict == "killed" for outcome in outcomes)
    equivalent = [outcome for outcome in outcomes if outcome.verdict == "equivalent"]
    rate = 100 * killed / max(len(outcomes) - len(equivalent), 1)
    head = f"# Mutation lane: {killed} of {len(outcomes)} mutants killed ({rate:.0f}% of the non-equivalent ones)"
    lines = [
        f"{head}, {len(equivalent)} accepted as equivalent, in {wall_s / 60:.1f} min",
        "",
        "| mutant | behaviour broken | scenarios run | killed by | wall |",
        "|---|---|---|---|---|",
    ]
    for outcome in outcomes:
        mutant = outcome.mutant
        by = "; ".join(outcome.killed_by[:3]) + (" ..." if len(outcome.killed_by) > 3 else "")
        by = by.replace("|", "\\|")  # a pipe in an error message would end the table cell
        verdict = {
            "killed": by,
            "equivalent": f"(equivalent: {mutant.equivalent})",
            "error": f"**ERROR**: {outcome.error}",
        }.get(outcome.verdict, "**SURVIVED**")
        lines.append(
            f"| `{mutant.id}` | {mutant.behaviour} | {mutant.check.describe()} | {verdict} | {outcome.wall_s:.0f}s |"
        )
    survivors = [outcome.mutant.id for outcome in outcomes if outcome.verdict == "SURVIVED"]
    if survivors:
        lines += [
            "",
            f"Survivors (a missing scenario or an assertion too weak for its name): {', '.join(survivors)}",
        ]
    return "\n".join(lines) + "\n"


def write_reports(outcomes: Sequence[Outcome], folder: Path, wall_s: float) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    table = kill_table(outcomes, wall_s)
    (folder / "report.md").write_text(table, encoding="utf-8")
    document = {
        "wall_s": round(wall_s, 1),
        "mutants": [
            {
                "id": outcome.mutant.id,
                "capability": outcome.mutant.capability,
                "behaviour": outcome.mutant.behaviour,
                "file": outcome.mutant.file,
                "check": outcome.mutant.check.describe(),
                "verdict": outcome.verdict,
                "killed_by": list(outcome.killed_by),
                "equivalent": outcome.mutant.equivalent,
                "error": outcome.error,
                "wall_s": round(outcome.wall_s, 1),
            }
            for outcome in outcomes
        ],
    }
    (folder / "report.json").write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    return table
