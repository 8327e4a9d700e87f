"""The impact map built from what `make impact-map` measured: coverage data of the services and the
tests, and the pages' JavaScript lines (support/run/impact.py)."""

from __future__ import annotations

import json
from pathlib import Path

import coverage

from support.lanes.impact_map import ROOT, TESTS_LANE, FileImpact, ImpactMap, blob_of

PRODUCT = "agent_builder"
STATIC = "agent_builder/console/ui/static"


def build(measured: dict[str, Path], commit: str, root: Path = ROOT) -> ImpactMap:
    """The map from each lane's measurement folder (`lane -> E2E_IMPACT_DIR` of its run)."""
    lines: dict[str, dict[int, set[str]]] = {}
    startup: dict[str, set[int]] = {}
    scenario_lines: dict[str, set[int]] = {}  # run under a scenario's context (not a test's)
    for lane, folder in measured.items():
        for data_file in sorted(folder.glob("**/data/.coverage*")):  # the unit tests': per worker too
            data = coverage.CoverageData(basename=str(data_file))
            data.read()
            for measured_file in data.measured_files():
                path = _product_path(measured_file)
                if path is None:
                    continue
                for line, contexts in (data.contexts_by_lineno(measured_file) or {}).items():
                    scenarios = {f"{lane} {context}" for context in contexts if context}
                    if scenarios:
                        lines.setdefault(path, {}).setdefault(line, set()).update(scenarios)
                        if lane != TESTS_LANE:
                            scenario_lines.setdefault(path, set()).add(line)
                    elif lane != TESTS_LANE:  # a test run imports without a context too
                        startup.setdefault(path, set()).add(line)
        for js_file in sorted((folder / "js").glob("*.json")):
            record = json.loads(js_file.read_text(encoding="utf-8"))
            for name, executed in record["lines"].items():
                by_line = lines.setdefault(f"{STATIC}/{name}", {})
                for line in executed:
                    by_line.setdefault(line, set()).add(f"{lane} {record['scenario']}")
    impacts = {}
    for path in sorted(set(lines) | set(startup)):
        ran = {line: frozenset(s) for line, s in lines.get(path, {}).items()}
        # A line the lanes ran at start and a test under its context stays a start-up line: the
        # lanes depend on it, not only that test.
        at_start = startup.get(path, set()) - scenario_lines.get(path, set())
        impacts[path] = FileImpact(blob_of(root / path), ran, at_start)
    return ImpactMap(commit, impacts)


def _product_path(measured_file: str) -> str | None:
    """`/any/checkout/agent_builder/console/app.py` -> `agent_builder/console/app.py`."""
    parts = Path(measured_file).parts
    if PRODUCT not in parts:
        return None
    return "/".join(parts[len(parts) - parts[::-1].index(PRODUCT) - 1 :])
