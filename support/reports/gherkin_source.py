"""The feature files behind a lane report, as the Cucumber formats want them: source text, Gherkin
document and pickles (official `gherkin` parser), and which pickle each result ran.

Reports are built from the LaneReport, not from behave's live model, so a merged report of
shards gets the same output; the feature files are read from the checkout that writes it. A
result whose feature file is gone or no longer has its scenario at that line gets no pickle: the
writers then describe it from the result alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from gherkin.ast_builder import AstBuilder
from gherkin.errors import CompositeParserException, ParserException
from gherkin.parser import Parser
from gherkin.pickles.compiler import Compiler, GherkinDocumentWithURI
from gherkin.stream.id_generator import IdGenerator
from gherkin.token_scanner import TokenScanner

from support.reports.model import ScenarioResult

Json = dict[str, Any]


@dataclass
class FeatureSource:
    uri: str
    text: str
    document: Json  # the Gherkin document (camelCase keys, as the messages have them)
    pickles: list[Json]

    def pickle_at(self, line: int) -> Json | None:
        return next((pickle for pickle in self.pickles if _pickle_line(pickle) == line), None)

    @property
    def feature(self) -> Json:
        feature: Json = self.document.get("feature") or {}
        return feature


@dataclass
class Sources:
    ids: IdGenerator = field(default_factory=IdGenerator)
    features: dict[str, FeatureSource] = field(default_factory=dict)

    def next_id(self) -> str:
        return self.ids.get_next_id()


def read_sources(results: Iterable[ScenarioResult], root: Path = Path()) -> Sources:
    """Every feature file the results ran, parsed once, with ids unique across all of them."""
    sources = Sources()
    for uri in dict.fromkeys(result.feature_path for result in results):
        path = root / uri
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        try:
            document = Parser(AstBuilder(sources.ids)).parse(TokenScanner(text))
        except (CompositeParserException, ParserException):
            continue  # edited since the run: its results are described from the report alone
        with_uri: GherkinDocumentWithURI = {**document, "uri": uri}
        pickles = Compiler(sources.ids).compile(with_uri)
        sources.features[uri] = FeatureSource(uri, text, dict(with_uri), [dict(pickle) for pickle in pickles])
    return sources


def pickle_of(sources: Sources, result: ScenarioResult) -> Json | None:
    """The pickle a result ran, if its steps still line up with it."""
    source = sources.features.get(result.feature_path)
    pickle = source.pickle_at(result.line) if source else None
    gherkin_steps = [step for step in result.steps if not step.hook]
    if pickle is None or len(pickle["steps"]) != len(gherkin_steps):
        return None
    return pickle


def _pickle_line(pickle: Mapping[str, Any]) -> int | None:
    location = pickle.get("location")
    return location["line"] if location else None


def started(result: ScenarioResult, fallback: str) -> datetime:
    return datetime.fromisoformat(result.started_at or fallback).astimezone(UTC)


def step_starts(result: ScenarioResult, fallback: str) -> list[datetime]:
    """When each step started: one after another from the scenario's start."""
    moment = started(result, fallback)
    starts = []
    for step in result.steps:
        starts.append(moment)
        moment += timedelta(seconds=step.duration_s)
    return starts
