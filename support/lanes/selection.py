"""Which scenarios a lane runs, decided by behave's own rules (tags, names, `file:line`, include/exclude)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

from behave.configuration import Configuration
from behave.runner_util import collect_feature_locations, parse_features


@dataclass(frozen=True, order=True)
class ScenarioRef:
    """One scenario (an outline contributes one per example row), addressable as `file:line`."""

    feature_path: str  # relative to the project root, e.g. features/agent/publish.feature
    line: int
    name: str

    @property
    def location(self) -> str:
        return f"{self.feature_path}:{self.line}"

    @property
    def key(self) -> str:
        """Stable across edits that move lines: the key of recorded durations."""
        return f"{self.feature_path}::{self.name}"


def select_scenarios(behave_args: Sequence[str]) -> list[ScenarioRef]:
    """The scenarios `behave <behave_args>` would run, in file order; nothing is executed."""
    config = Configuration(command_args=list(behave_args))
    locations = [
        location
        for location in collect_feature_locations(config.paths)
        if not config.exclude(location.filename)
    ]
    language: str | None = getattr(config, "lang", None)  # an option behave's argparse sets on config
    return [
        ScenarioRef(os.path.relpath(feature.filename), scenario.line, scenario.name)
        for feature in parse_features(locations, language=language)
        for scenario in feature.walk_scenarios()
        if scenario.should_run(config)
    ]
