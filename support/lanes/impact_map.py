"""The impact map: which scenarios execute each line of the product, as measured by `make impact-map`
(ci/impact/), read by `--since` (support/lanes/since.py) and the generated mutants.

`ci/impact/map.json` holds, for every product file a scenario executed (Python of every service,
the console's JavaScript as Chromium ran it), the git blob hash of the file as measured and, per
executed line, the scenarios that ran it (each `<lane> <feature>:<line>`); lines that only ran
while the services started (imports, definitions) are listed apart, as every scenario's. A file
whose content is no longer the measured one has no trustworthy lines: `lines_of` says so.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAP_PATH = ROOT / "ci" / "impact" / "map.json"  # measured and written by `make impact-map` (ci/impact/)
TESTS_LANE = "tests"  # the unit tests' measurement, beside the lanes'
# The lanes that start each service: a line a service runs at start-up is run by each of them.
RUNTIME_LANES = ("post-merge",)
CONSOLE_LANES = ("pr", "a11y", "post-merge")


def lanes_starting(path: str) -> tuple[str, ...]:
    """The lanes whose services run `path` when they start: the runtime and the sandbox start in
    post-merge only; the console (and the package's shared modules) in every lane."""
    return (
        RUNTIME_LANES
        if path.startswith(("agent_builder/runtime/", "agent_builder/shellctl/"))
        else CONSOLE_LANES
    )


class StaleMap(LookupError):
    """The map says nothing reliable about a file: missing from it, or changed since it was measured."""


@dataclass
class FileImpact:
    blob: str  # `git hash-object` of the file as measured
    lines: dict[int, frozenset[str]] = field(default_factory=dict)  # line -> scenarios that ran it
    # Lines the lanes ran only while a service started (imports, decorators, constants): every
    # scenario depends on them. Tests may have run them too, under a test's context.
    startup: set[int] = field(default_factory=set)


@dataclass
class ImpactMap:
    commit: str
    files: dict[str, FileImpact] = field(default_factory=dict)

    @property
    def scenarios(self) -> set[str]:
        return {s for impact in self.files.values() for scenarios in impact.lines.values() for s in scenarios}

    def impact_of(self, path: str, root: Path = ROOT) -> FileImpact:
        """The file's measured lines, if the file on disk under `root` is the one measured."""
        impact = self.files.get(path)
        if impact is None:
            raise StaleMap(f"{path} is not in the impact map (no scenario ran it, or it is new)")
        if blob_of(root / path) != impact.blob:
            raise StaleMap(f"{path} changed since the impact map was measured: run `make impact-map`")
        return impact

    def save(self, path: Path = MAP_PATH) -> None:
        """Lines sharing one set of scenarios (a block's lines do) store that set once."""
        sets: dict[frozenset[str], int] = {}
        names = sorted(self.scenarios)
        index = {name: i for i, name in enumerate(names)}
        files = {}
        for name, impact in sorted(self.files.items()):
            by_set: dict[int, list[int]] = {}
            for line, scenarios in sorted(impact.lines.items()):
                by_set.setdefault(sets.setdefault(scenarios, len(sets)), []).append(line)
            files[name] = {
                "blob": impact.blob,
                "lines": {str(k): _ranges(v) for k, v in sorted(by_set.items())},
                "startup": _ranges(sorted(impact.startup)),
            }
        ordered_sets = sorted(sets, key=sets.__getitem__)
        data = {
            "commit": self.commit,
            "scenarios": names,
            "sets": [sorted(index[s] for s in scenarios) for scenarios in ordered_sets],
            "files": files,
        }
        path.write_text(json.dumps(data, indent=0, separators=(",", ":")) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path = MAP_PATH) -> ImpactMap:
        if not path.is_file():
            raise StaleMap(f"no impact map at {path.relative_to(ROOT)}: run `make impact-map`")
        data = json.loads(path.read_text(encoding="utf-8"))
        names = data["scenarios"]
        sets = [frozenset(names[i] for i in members) for members in data["sets"]]
        files = {}
        for name, entry in data["files"].items():
            lines = {line: sets[int(k)] for k, spans in entry["lines"].items() for line in _expand(spans)}
            files[name] = FileImpact(entry["blob"], lines, set(_expand(entry["startup"])))
        return cls(data["commit"], files)


def _ranges(lines: Iterable[int]) -> str:
    """[1, 2, 3, 7] -> "1-3,7"."""
    spans: list[list[int]] = []
    for line in lines:
        if spans and spans[-1][1] == line - 1:
            spans[-1][1] = line
        else:
            spans.append([line, line])
    return ",".join(f"{a}-{b}" if a != b else str(a) for a, b in spans)


def _expand(spans: str) -> list[int]:
    lines: list[int] = []
    for span in filter(None, spans.split(",")):
        first, _, last = span.partition("-")
        lines += range(int(first), int(last or first) + 1)
    return lines


def blob_of(path: Path) -> str:
    return subprocess.run(
        ["git", "hash-object", str(path)], capture_output=True, text=True, check=True
    ).stdout.strip()
