"""The rerun file: `file:line` of every failed scenario, and in its header how the lane ran.

`make rerun` (ci/rerun.py) reads it and runs exactly those scenarios, as the same lane with the
same workers, repeat count, order seed and settings. behave reads the locations too: `behave @rerun.txt`.

```
# rerun file: lane pr, run ab12cd34, 2 failed scenario(s); `make rerun` runs exactly these
# lane: pr
# workers: 2
# repeat: 1
# order: random:401873
# setting: E2E_START_AGENT_BACKEND=1
features/agent/publish.feature:12
```
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from support.reports.model import LaneReport

RERUN_FILE = "rerun.txt"


@dataclass(frozen=True)
class Rerun:
    lane: str
    workers: int = 1
    repeat: int = 1
    settings: Mapping[str, str] = field(default_factory=dict)
    locations: tuple[str, ...] = ()
    order: str | None = None  # "random:<seed>" when the lane ran in a random order


def write_rerun(report: LaneReport, path: Path) -> Path:
    run = report.run
    # Each failed scenario once, in file order, however many of its attempts failed.
    locations = list(dict.fromkeys(result.location for result in report.results if result.failed))
    head = f"# rerun file: lane {run.lane}, run {run.run_id}, {len(locations)} failed scenario(s)"
    lines = [
        f"{head}; `make rerun` runs exactly these",
        f"# lane: {run.lane}",
        f"# workers: {run.workers}",
        f"# repeat: {run.repeat}",
        *([f"# order: {run.order}"] if run.order.startswith("random:") else []),
        *(f"# setting: {name}={value}" for name, value in sorted(run.settings.items())),
        *locations,
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def read_rerun(path: Path) -> Rerun:
    header: dict[str, str] = {}
    settings: dict[str, str] = {}
    locations: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        if not line.startswith("#"):
            locations.append(line.strip())
            continue
        name, colon, value = line.lstrip("# ").partition(": ")
        if colon and name == "setting":
            key, _, setting = value.partition("=")
            settings[key] = setting
        elif colon:
            header[name] = value
    if "lane" not in header:
        raise ValueError(f"{path}: no `# lane:` header; it was not written by a lane run")
    return Rerun(
        header["lane"],
        int(header.get("workers", "1")),
        int(header.get("repeat", "1")),
        settings,
        tuple(locations),
        header.get("order"),
    )
