"""Cassette drift checks for `make lint`: `check_cassettes(...)` -> `file:line: rule: message` problems.

Rules:
- `replay-cassette-malformed`: a cassette that does not load (names the reason);
- `replay-cassette-orphan`: a cassette that belongs to no scenario (renamed or deleted scenario);
  cassettes recorded without a feature (`"feature": null`, e.g. the seed stage's) are exempt;
- `replay-cassette-shared`: two scenarios map to one cassette path (e.g. an outline whose name has
  no `<placeholder>`), so recording one overwrites the other;
- `replay-cassette-missing`: an `@external-model` scenario without a cassette (replay mode only);
- `replay-cassette-empty`: a cassette that recorded no call, for a scenario that sets no provider
  fault (a fault answers the call instead of the cassette): the scenario calls nothing at run time,
  so it is `@prepared` (e.g. it only selects or saves a model), not `@external-model`;
- `replay-prompt-drift`: a user prompt the cassette recorded no longer appears in the scenario's
  text, or no longer in the recorded order (every prompt, in order: turn 2 of a two-turn scenario
  counts as much as turn 1). A prompt must be inside a step text, doc string or table cell of
  the scenario, or one of the scenario's quoted strings / doc strings (8+ characters) must be
  inside it (for products that wrap the typed prompt). Both sides are normalized like match keys.

Every message names the command that fixes it (`make record-cassettes ARGS='-n "..."'`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from gherkin.errors import ParserError
from gherkin.parser import Parser
from gherkin.pickles.compiler import Compiler, GherkinDocumentWithURI
from gherkin.token_scanner import TokenScanner

from support.lint.problem import Problem
from support.replay.cassette import Cassette, CassetteError, cassette_relpath, feature_stem, load_cassette
from support.replay.explain import rerecord_command
from support.replay.matching import ChatRequest, normalize_text
from support.replay.scope import Mode

EXTERNAL_MODEL_TAG = "@external-model"
EXTERNAL_TAGS = frozenset({EXTERNAL_MODEL_TAG, "@external-tool"})
_QUOTED = re.compile(r'"([^"]*)"')
_MIN_WRAPPED = 8
# The fault steps (steps/model_faults.py) that answer a call themselves, so it is never recorded.
_FAULT_STEP = re.compile(r"the model provider (?:fails|stalls) the next ")
_PREPARED_HINT = (
    "a scenario that makes no model or tool call at run time (e.g. one that only selects or saves a "
    "model) is @prepared, not @external-model"
)


@dataclass(frozen=True)
class _Scenario:
    file: Path
    line: int
    name: str
    tags: frozenset[str]
    texts: tuple[str, ...]  # step texts, doc strings, table cells: the prompt may sit inside one
    quoted: tuple[str, ...]  # quoted strings and doc strings: one may sit inside a wrapped prompt
    faulted: bool = False  # a step sets a provider fault that answers a call instead of the cassette


Owners = dict[PurePosixPath, list[_Scenario]]


def check_cassettes(features_dir: Path, cassettes_dir: Path, mode: Mode = "replay") -> list[Problem]:
    owners, unparsable, problems = _owners(features_dir)
    problems += _shared(owners)
    problems += _cassette_problems(features_dir, cassettes_dir, owners, unparsable)
    if mode == "replay":
        problems += _missing(cassettes_dir, owners)
    return sorted(problems, key=lambda p: (p.path, p.line, p.rule))


def _owners(features_dir: Path) -> tuple[Owners, set[PurePosixPath], list[Problem]]:
    """The scenarios each cassette path belongs to; the features that do not parse (as stems)."""
    owners: Owners = {}
    unparsable: set[PurePosixPath] = set()
    problems: list[Problem] = []
    for feature in sorted(features_dir.rglob("*.feature")):
        relative = feature.relative_to(features_dir).as_posix()
        try:
            for scenario in _scenarios(feature):
                # Only scenarios that call providers at run time get a replay scope, so only they own cassettes.
                if scenario.tags & EXTERNAL_TAGS:
                    owners.setdefault(cassette_relpath(relative, scenario.name), []).append(scenario)
        except ParserError as error:
            # The tag linter reports the syntax; here it only means this feature's cassettes are unchecked.
            unparsable.add(feature_stem(relative))
            problems.append(
                Problem(str(feature), 1, "replay-feature-unparsable", str(error).splitlines()[-1])
            )
    return owners, unparsable, problems


def _shared(owners: Owners) -> list[Problem]:
    problems = []
    for path, scenarios in owners.items():
        if len(scenarios) > 1:
            names = ", ".join(f'"{s.name}" (line {s.line})' for s in scenarios)
            problems.append(
                Problem(
                    str(scenarios[1].file),
                    scenarios[1].line,
                    "replay-cassette-shared",
                    f"scenarios {names} all map to cassette {path}; give each a distinct name",
                )
            )
    return problems


def _cassette_problems(
    features_dir: Path, cassettes_dir: Path, owners: Owners, unparsable: set[PurePosixPath]
) -> list[Problem]:
    """Each cassette: it loads, a scenario owns it, and that scenario still asks its prompt."""
    problems = []
    for path in sorted(cassettes_dir.rglob("*.json")):
        relative = PurePosixPath(path.relative_to(cassettes_dir).as_posix())
        try:
            cassette = load_cassette(path)
        except CassetteError as error:
            fix = f"fix it by hand (`python -m support.replay verify {cassettes_dir}`) or re-record its scenario"
            problems.append(
                Problem(str(path), error.line or 1, "replay-cassette-malformed", f"{error.reason}; {fix}")
            )
            continue
        if relative.parent in unparsable or cassette.feature is None:
            continue
        scenarios = owners.get(relative)
        if not scenarios:
            problems.append(_orphan(features_dir, path, relative, cassette))
            continue
        if not cassette.entries:
            problems.extend(_empty(path, scenario) for scenario in scenarios if not scenario.faulted)
            continue
        problems.extend(drift for scenario in scenarios if (drift := _prompt_drift(path, cassette, scenario)))
    return problems


def _orphan(features_dir: Path, path: Path, relative: PurePosixPath, cassette: Cassette) -> Problem:
    return Problem(
        str(path),
        1,
        "replay-cassette-orphan",
        f'recorded for scenario "{cassette.scenario}", but no scenario in '
        f"{features_dir / relative.parent}.feature maps to {relative.name}; delete it, or re-record the "
        "renamed scenario: make record-cassettes ARGS='-n \"<its new name>\"'",
    )


def _empty(path: Path, scenario: _Scenario) -> Problem:
    external = " ".join(sorted(scenario.tags & EXTERNAL_TAGS))
    location = f"{scenario.file}:{scenario.line}"
    return Problem(
        str(scenario.file),
        scenario.line,
        "replay-cassette-empty",
        f'{path} holds no call: "{scenario.name}" made no model or tool call when it was recorded; '
        f"{_PREPARED_HINT}: replace {external} with @prepared and delete the cassette. If it should call "
        f"the model, the call never happened: fix the steps, then re-record: "
        f"{rerecord_command(scenario.name, location)}",
    )


def _missing(cassettes_dir: Path, owners: Owners) -> list[Problem]:
    return [
        Problem(
            str(scenario.file),
            scenario.line,
            "replay-cassette-missing",
            f'"{scenario.name}" is {EXTERNAL_MODEL_TAG} but has no cassette {cassettes_dir / path}; '
            f"record it: {rerecord_command(scenario.name, f'{scenario.file}:{scenario.line}')}; "
            f"but {_PREPARED_HINT}",
        )
        for path, scenarios in owners.items()
        for scenario in scenarios
        if EXTERNAL_MODEL_TAG in scenario.tags and not (cassettes_dir / path).exists()
    ]


def _scenarios(feature: Path) -> Iterator[_Scenario]:
    document = Parser().parse(TokenScanner(feature.read_text(encoding="utf-8")))
    with_uri: GherkinDocumentWithURI = {**document, "uri": str(feature)}
    for pickle in Compiler().compile(with_uri):
        texts: list[str] = []
        quoted: list[str] = []
        faulted = any(_FAULT_STEP.match(step["text"]) for step in pickle["steps"])
        for step in pickle["steps"]:
            # A {string} argument reaches the step with its \" unescaped: so does a prompt it sends.
            texts.append(step["text"].replace('\\"', '"'))
            quoted.extend(_QUOTED.findall(step["text"]))
            # gherkin types a step's argument as an empty TypedDict; it holds a docString or a dataTable
            argument: dict[str, Any] = dict(step.get("argument", {}))
            if "docString" in argument:
                texts.append(argument["docString"]["content"])
                quoted.append(argument["docString"]["content"])
            for row in argument.get("dataTable", {}).get("rows", []):
                texts.extend(cell["value"] for cell in row["cells"])
        yield _Scenario(
            file=feature,
            line=pickle["location"]["line"],
            name=pickle["name"],
            tags=frozenset(tag["name"] for tag in pickle["tags"]),
            texts=tuple(_squash(text) for text in texts),
            quoted=tuple(_squash(text) for text in quoted if len(_squash(text)) >= _MIN_WRAPPED),
            faulted=faulted,
        )


def _squash(text: str) -> str:
    return " ".join(normalize_text(text).split())


def user_prompts(cassette: Cassette) -> list[str]:
    """Every distinct user message the cassette recorded, in the order they were first sent (each
    chat call repeats the conversation so far, so a two-turn scenario records two prompts)."""
    prompts: dict[str, None] = {}
    for entry in cassette.entries:
        if isinstance(entry.request, ChatRequest):
            for message in entry.request.messages:
                if message.role == "user" and message.content:
                    prompts.setdefault(_squash(message.content), None)
    return list(prompts)


def _where(prompt: str, scenario: _Scenario) -> int | None:
    """The index of the scenario text holding the prompt (or held by it: a wrapped prompt)."""
    for index, text in enumerate(scenario.texts):
        if prompt in text:
            return index
    for quoted in scenario.quoted:
        if quoted in prompt:
            return next(index for index, text in enumerate(scenario.texts) if quoted in text)
    return None


def _drifted(cassette: Cassette, scenario: _Scenario) -> tuple[int, str, str] | None:
    """(turn, prompt, why) of the first recorded prompt the scenario no longer sends, or sends out
    of order; None when every prompt is still there, in order."""
    last = -1
    for turn, prompt in enumerate(user_prompts(cassette), start=1):
        where = _where(prompt, scenario)
        if where is None:
            return turn, prompt, "no longer appears in"
        if where < last:
            return turn, prompt, "now comes before an earlier prompt in"
        last = where
    return None


def _prompt_drift(path: Path, cassette: Cassette, scenario: _Scenario) -> Problem | None:
    drift = _drifted(cassette, scenario)
    if drift is None:
        return None
    turn, prompt, why = drift
    shown = prompt if len(prompt) <= 80 else prompt[:77] + "..."
    location = f"{scenario.file}:{scenario.line}"
    return Problem(
        str(scenario.file),
        scenario.line,
        "replay-prompt-drift",
        f'{path} recorded user prompt {turn} "{shown}", which {why} "{scenario.name}"; restore the '
        f"step text, or re-record the scenario: {rerecord_command(scenario.name, location)}",
    )
