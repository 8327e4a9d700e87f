"""Loads and checks the mutant catalogue, `ci/mutants/catalogue/*.toml`: one `[[mutant]]` table per
realistic bug.

Each mutant is one declarative edit (replace `find`, which must occur exactly once in `file`, by
`replace`), the behaviour it breaks in one sentence, and the check that must catch it: lane
scenarios (`lane` plus `features`, optionally `names`), pytest node ids (`pytest`), or the
feature linter (`lint = true`). A mutant no check can catch is listed with `equivalent`, the
reason it changes no behaviour anyone could observe; it is then run but its survival is accepted.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, TypeGuard, get_args

from behave.parser import parse_file

CATALOGUE_DIR = Path(__file__).resolve().parent / "catalogue"
Lane = Literal["pr", "post-merge", "a11y", "deployed"]


class CatalogueError(ValueError):
    """A catalogue entry that cannot be run: the message names its file and id."""


@dataclass(frozen=True)
class Check:
    lane: Lane | None = None
    features: tuple[str, ...] = ()
    names: tuple[str, ...] = ()  # behave --name patterns, to narrow the features to scenarios
    pytest: tuple[str, ...] = ()
    lint: bool = False
    # Stop at the first failure (a lane's --stop, pytest's -x): enough to know the mutant is
    # killed. Generated mutants' checks are whole swathes of a lane; the catalogue's are narrow,
    # and the --since recall proof needs every scenario that kills one of them.
    first_failure: bool = False

    def describe(self) -> str:
        parts = []
        if self.lane:
            scope = ", ".join(self.features) or "the whole lane"
            named = f" ({'; '.join(self.names)})" if self.names else ""
            parts.append(f"{self.lane}: {scope}{named}")
        parts += [f"pytest {node}" for node in self.pytest]
        if self.lint:
            parts.append("make lint (feature linter)")
        return "; ".join(parts)


@dataclass(frozen=True)
class Mutant:
    id: str
    behaviour: str
    file: str  # relative to the project root
    find: str
    replace: str
    check: Check
    capability: str  # the catalogue file it comes from, e.g. console_api
    equivalent: str | None = None
    source: Path = field(default=CATALOGUE_DIR, compare=False)
    # A generated mutant's line runs in several lanes and tests: one check each (ci/mutants/generated.py).
    extra_checks: tuple[Check, ...] = ()

    @property
    def checks(self) -> tuple[Check, ...]:
        return (self.check, *self.extra_checks)

    def describe_checks(self) -> str:
        return "; ".join(check.describe() for check in self.checks)


def _check(raw: dict[str, object], where: str) -> Check:
    lane = raw.get("lane")
    if lane is not None and not _is_lane(lane):
        raise CatalogueError(f"{where}: check.lane must be pr, post-merge, a11y or deployed, not {lane!r}")
    check = Check(
        lane=lane,
        features=_strings(raw, "features", where),
        names=_strings(raw, "names", where),
        pytest=_strings(raw, "pytest", where),
        lint=bool(raw.get("lint", False)),
    )
    if not (check.lane or check.pytest or check.lint):
        raise CatalogueError(f"{where}: check needs a lane, pytest node ids or lint = true")
    if (check.features or check.names) and not check.lane:
        raise CatalogueError(f"{where}: check.features and check.names need check.lane")
    return check


def _is_lane(value: object) -> TypeGuard[Lane]:
    return value in get_args(Lane)


def _strings(raw: dict[str, object], key: str, where: str) -> tuple[str, ...]:
    value = raw.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise CatalogueError(f"{where}: check.{key} must be a list of strings, not {value!r}")
    return tuple(value)


def load_catalogue(folder: Path = CATALOGUE_DIR, root: Path | None = None) -> list[Mutant]:
    """Every mutant, validated: unique ids, files that exist, `find` present exactly once."""
    mutants: list[Mutant] = []
    for path in sorted(folder.glob("*.toml")):
        for raw in tomllib.loads(path.read_text(encoding="utf-8")).get("mutant", []):
            where = f"{path.name}: mutant {raw.get('id', '?')!r}"
            missing = [
                key for key in ("id", "behaviour", "file", "find", "replace", "check") if key not in raw
            ]
            if missing:
                raise CatalogueError(f"{where}: missing {', '.join(missing)}")
            mutants.append(
                Mutant(
                    id=raw["id"],
                    behaviour=raw["behaviour"],
                    file=raw["file"],
                    find=raw["find"],
                    replace=raw["replace"],
                    check=_check(raw["check"], where),
                    capability=path.stem,
                    equivalent=raw.get("equivalent"),
                    source=path,
                )
            )
    _validate(mutants, root or folder.parents[2])
    return mutants


def _validate(mutants: list[Mutant], root: Path) -> None:
    seen: set[str] = set()
    for mutant in mutants:
        where = f"{mutant.source.name}: mutant {mutant.id!r}"
        if mutant.id in seen:
            raise CatalogueError(f"{where}: the id is used twice")
        seen.add(mutant.id)
        target = root / mutant.file
        if not target.is_file():
            raise CatalogueError(f"{where}: no such file {mutant.file}")
        count = target.read_text(encoding="utf-8").count(mutant.find)
        if count != 1:
            raise CatalogueError(
                f"{where}: `find` occurs {count} times in {mutant.file}, not exactly once: the code moved; "
                "update the mutant to the bug it stands for"
            )
        if mutant.find == mutant.replace:
            raise CatalogueError(f"{where}: `replace` is the same as `find`")
        _validate_selection(mutant.check, root, where)


def _validate_selection(check: Check, root: Path, where: str) -> None:
    """Every feature exists and every `names` pattern selects a scenario in them: a check that
    selects nothing would fail the lane's zero-scenario gate and count as a kill for nothing."""
    names: list[str] = []
    for feature in check.features:
        path = root / feature.split(":")[0]
        if not path.is_file():
            raise CatalogueError(f"{where}: no such feature file {feature}")
        parsed = parse_file(str(path))
        names += [scenario.name for scenario in parsed.walk_scenarios()] if parsed else []
    for pattern in check.names:
        if check.features and not any(re.search(pattern, name) for name in names):
            raise CatalogueError(
                f"{where}: names pattern {pattern!r} selects no scenario of {', '.join(check.features)}"
            )
