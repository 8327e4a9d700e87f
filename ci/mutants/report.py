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
            f"| `{mutant.id}` | {mutant.behaviour} | {mutant.describe_checks()} | {verdict} | {outcome.wall_s:.0f}s |"
        )
    survivors = [outcome.mutant.id for outcome in outcomes if outcome.verdict == "SURVIVED"]
    if survivors:
        lines += [
            "",
            f"Survivors (a missing scenario or an assertion too weak for its name): {', '.join(survivors)}",
        ]
    return "\n".join(lines) + "\n"


def generated_score(outcomes: Sequence[Outcome], commit: str) -> dict[str, object] | None:
    """The generated mutants' score: equivalents left out, kills by lanes and tests together and
    by the lanes alone (a kill only a test made is not the lanes'), survivors by file and line."""
    generated = [outcome for outcome in outcomes if outcome.mutant.capability == "generated"]
    if not generated:
        return None
    counted = [outcome for outcome in generated if outcome.verdict != "equivalent"]
    killed = [outcome for outcome in counted if outcome.verdict == "killed"]
    by_lanes = [o for o in killed if any(not by.startswith("pytest") for by in o.killed_by)]
    return {
        "seed": commit,
        "mutants": len(generated),
        "equivalent": len(generated) - len(counted),
        "killed": len(killed),
        "killed_by_lanes": len(by_lanes),
        "score": round(100 * len(killed) / max(len(counted), 1), 1),
        "lanes_score": round(100 * len(by_lanes) / max(len(counted), 1), 1),
        "survivors": sorted(o.mutant.id for o in counted if o.verdict == "SURVIVED"),
    }


def score_text(score: dict[str, object]) -> str:
    survivors = score["survivors"]
    assert isinstance(survivors, list)
    return "\n".join(
        [
            "",
            f"## Generated mutants (seed: commit {str(score['seed'])[:12]})",
            "",
            (
                f"{score['mutants']} generated, {score['equivalent']} triaged as equivalent"
                " (ci/mutants/generated_equivalents.toml)."
            ),
            (
                f"Killed by the lanes and tests: {score['killed']} ({score['score']}%);"
                f" by the lanes alone: {score['killed_by_lanes']} ({score['lanes_score']}%)."
            ),
            "",
            "Survivors (file:line:operator):" if survivors else "No survivor.",
            *(f"- `{survivor}`" for survivor in survivors),
        ]
    )


def write_reports(outcomes: Sequence[Outcome], folder: Path, wall_s: float, commit: str = "") -> str:
    folder.mkdir(parents=True, exist_ok=True)
    table = kill_table(outcomes, wall_s)
    score = generated_score(outcomes, commit)
    if score is not None:
        table += score_text(score) + "\n"
    (folder / "report.md").write_text(table, encoding="utf-8")
    document = {
        "wall_s": round(wall_s, 1),
        "generated": score,
        "mutants": [
            {
                "id": outcome.mutant.id,
                "capability": outcome.mutant.capability,
                "behaviour": outcome.mutant.behaviour,
                "file": outcome.mutant.file,
                "check": outcome.mutant.describe_checks(),
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
