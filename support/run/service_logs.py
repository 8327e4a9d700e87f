"""What the services a worker started logged as errors while one scenario ran.

A bug can break nothing a step looks at and still raise: in a run's background task, a cleanup, a
reply stored after its stream closed. The services log it (an `ERROR` line, a traceback) and the
page stays fine. A clean run of every lane logs none, so any is a failure of the scenario that
was running, with the lines that say what broke. Only services whose logs this process can read
are watched: those a lane started under `<worker>/services/` (the embedded console; post-merge's
runtime, shellctl and replay server), not a deployment's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

# agent_builder's services log `<date> <time> <LEVEL> <logger>: <message>`; the replay server
# keeps uvicorn's `<LEVEL>:  <message>`.
_ERROR_LINE = re.compile(
    r"^\S+ \S+ (ERROR|CRITICAL) |^(ERROR|CRITICAL):|^Traceback \(most recent call last\)"
)
_SHOWN_LINES = 20


@dataclass
class ServiceLogs:
    """The logs under `folder`, each read from where it ended when the scenario started."""

    folder: Path
    offsets: dict[Path, int] = field(default_factory=dict)

    @classmethod
    def mark(cls, folder: Path) -> ServiceLogs:
        logs = cls(folder)
        logs.offsets = {path: path.stat().st_size for path in sorted(folder.glob("*.log"))}
        return logs

    def errors_since_mark(self) -> list[str]:
        """Per service that logged an error since the mark: its name and the lines from the
        first error on (at most a screenful)."""
        found = []
        for path in sorted(self.folder.glob("*.log")):
            with path.open("rb") as log:
                log.seek(self.offsets.get(path, 0))
                lines = log.read().decode("utf-8", "replace").splitlines()
            first = next((n for n, line in enumerate(lines) if _ERROR_LINE.search(line)), None)
            if first is not None:
                shown = "\n    ".join(lines[first : first + _SHOWN_LINES])
                found.append(f"{path.stem} logged an error (services/{path.name}):\n    {shown}")
        return found
