"""Order and split a lane's scenarios by their recorded durations.

Longest first, so the slowest scenarios never start last and leave one worker busy while the
others idle. Shards are a deterministic longest-processing-time partition: the same commit and
durations file give the same disjoint shards on any machine, and together they are the lane.
"""

from __future__ import annotations

import json
import re
import statistics
import sys
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from support.lanes.selection import ScenarioRef
from support.reports import LaneReport, read_json

DURATIONS_PATH = Path(__file__).resolve().parents[2] / "ci" / "durations.json"
# For a scenario with no recorded duration when nothing is recorded at all.
UNKNOWN_DURATION_S = 5.0
_SHARD = re.compile(r"([1-9][0-9]*)/([1-9][0-9]*)")


@dataclass(frozen=True)
class Shard:
    index: int  # 1-based
    total: int

    @classmethod
    def parse(cls, text: str) -> Shard:
        match = _SHARD.fullmatch(text.strip())
        if match is None or int(match[1]) > int(match[2]):
            raise ValueError(f"--shard {text!r}: expected I/N with 1 <= I <= N, e.g. --shard 1/2")
        return cls(int(match[1]), int(match[2]))

    def __str__(self) -> str:
        return f"{self.index}/{self.total}"


def load_durations(path: Path = DURATIONS_PATH) -> dict[str, float]:
    """Scenario key -> seconds; a missing file means nothing is known yet."""
    if not path.is_file():
        return {}
    return {str(key): float(value) for key, value in json.loads(path.read_text(encoding="utf-8")).items()}


def recorded_durations(reports: Iterable[LaneReport]) -> dict[str, float]:
    """Mean duration of each scenario's passed runs (a failed run's duration says nothing)."""
    runs: dict[str, list[float]] = defaultdict(list)
    for report in reports:
        for result in report.results:
            if result.status == "passed":
                runs[f"{result.feature_path}::{result.name}"].append(result.duration_s)
    return {key: round(statistics.fmean(seconds), 2) for key, seconds in runs.items()}


def main(argv: list[str]) -> int:
    """`python -m support.lanes.schedule REPORT.json...` (`make durations`): update ci/durations.json.

    Scenarios in the reports get their new durations; the others keep theirs, so the PR and
    post-merge lanes can be recorded from different runs.
    """
    if not argv:
        print("usage: python -m support.lanes.schedule artifacts/<lane>/report.json...", file=sys.stderr)
        return 2
    durations = load_durations() | recorded_durations(read_json(Path(path)) for path in argv)
    DURATIONS_PATH.write_text(json.dumps(dict(sorted(durations.items())), indent=2) + "\n", encoding="utf-8")
    print(f"{DURATIONS_PATH}: {len(durations)} scenario durations", file=sys.stderr)
    return 0


class Estimates:
    """Expected duration of each scenario: recorded, else the median of what is recorded."""

    def __init__(self, durations: Mapping[str, float]) -> None:
        self._durations = dict(durations)
        self._default = statistics.median(self._durations.values()) if self._durations else UNKNOWN_DURATION_S

    def of(self, ref: ScenarioRef) -> float:
        return self._durations.get(ref.key, self._default)

    def longest_first(self, refs: Iterable[ScenarioRef]) -> list[ScenarioRef]:
        # The location breaks ties, so the order never depends on the input order.
        return sorted(refs, key=lambda ref: (-self.of(ref), ref.location))

    def shard(self, refs: Sequence[ScenarioRef], shard: Shard) -> list[ScenarioRef]:
        """The scenarios of `shard`: each scenario, longest first, joins the lightest shard."""
        loads = [0.0] * shard.total
        mine: list[ScenarioRef] = []
        for ref in self.longest_first(refs):
            lightest = min(range(shard.total), key=lambda index: (loads[index], index))
            loads[lightest] += self.of(ref)
            if lightest == shard.index - 1:
                mine.append(ref)
        return mine


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
