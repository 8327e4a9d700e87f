"""Feature linter: `python -m support.lint [paths...]` (default `features/`).

Parses every `.feature` with the official Gherkin parser and enforces the tag grammar of
`support/tags.py`, the fixture and setup-step contracts, what each step declares it needs (its
tags and earlier steps), unique scenario names, that every step has exactly one definition in
`steps/` (an undefined one gets the closest sentences), that no two sentences overlap and that
the editor reads every sentence as behave does (support/lint/step_sources.py).
Prints `path:line: rule: message` per problem (the rules: support/lint/rules.py).

A scenario is checked the way it runs: with the tags of its Feature, Rule and Examples and
the steps of every Background above it. A Scenario Outline is checked once per Examples
block, its placeholders filled from the block's first row.
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from gherkin.errors import CompositeParserException, ParserException
from gherkin.parser import Parser
from gherkin.token_scanner import TokenScanner

from support.lint.cassettes import check_cassettes
from support.lint.dialect import dialect_problems
from support.lint.problem import Problem
from support.lint.review import reload_problems
from support.lint.rules import LintCase, LintStep, case_problems
from support.lint.step_code import check_step_code
from support.lint.step_definitions import StepDefinitions, loaded_steps, relative
from support.lint.step_sources import editor_problems
from support.naming import scenario_slug
from support.replay.cassette import DEFAULT_CASSETTES_DIR
from support.settings import load_settings
from support.tags import FORBIDDEN_TAGS, KNOWN_TAGS

# Gherkin's keyword types -> behave's step types; "And"/"But" and "*" continue the previous one.
_STEP_TYPES = {"Context": "given", "Action": "when", "Outcome": "then"}
_PLACEHOLDER = re.compile(r"<([^<>]+)>")


@dataclass(frozen=True)
class LintReport:
    problems: list[Problem]
    feature_files: int
    scenarios: int


def lint_paths(paths: Sequence[Path], steps_dir: Path = Path("steps")) -> list[Problem]:
    return lint(paths, steps_dir).problems


def lint(paths: Sequence[Path], steps_dir: Path = Path("steps")) -> LintReport:
    problems: list[Problem] = []
    files: list[Path] = []
    for path in paths:
        found = sorted(path.rglob("*.feature")) if path.is_dir() else [path] if path.is_file() else []
        if not found:
            problems.append(Problem(relative(path), 0, "no-features", "no .feature files here"))
        files += found
    scenarios = 0
    with loaded_steps(steps_dir) as definitions:
        problems += definitions.problems + definitions.overlaps() + editor_problems(steps_dir)
        problems += check_step_code(steps_dir)
        # While definitions fail to load, "undefined" would be noise: report only the cause.
        steps = None if definitions.problems else definitions
        for path in files:
            file_problems, count = _lint_file(path, steps)
            problems += file_problems
            scenarios += count
    return LintReport(problems, len(files), scenarios)


# -- feature files ------------------------------------------------------------------------------


def _lint_file(path: Path, steps: StepDefinitions | None) -> tuple[list[Problem], int]:
    shown = relative(path)
    text = path.read_text(encoding="utf-8")
    try:
        document = Parser().parse(TokenScanner(text))
    except (CompositeParserException, ParserException) as error:
        errors = error.errors if isinstance(error, CompositeParserException) else [error]
        return [_syntax_problem(shown, parse_error) for parse_error in errors], 0
    parsed: Mapping[str, Any] = document  # gherkin types "feature" as required; a comments-only file has none
    feature = parsed.get("feature")
    if feature is None:
        return [], 0
    problems = _tag_problems(shown, feature) + _duplicate_names(shown, feature)
    problems += _placeholder_problems(shown, feature) + dialect_problems(shown, text, document)
    cases = list(_cases(feature["children"], _tag_names(feature), ()))
    for case in cases:
        problems += case_problems(shown, case, steps)
        problems += reload_problems(shown, case)
    # Inherited tags and Background steps repeat a problem in every scenario: report it once.
    unique = sorted(dict.fromkeys(problems), key=lambda problem: problem.line)
    return unique, sum(1 for _ in _scenarios(feature["children"]))


def _syntax_problem(shown: str, error: ParserException) -> Problem:
    message = re.sub(r"^\(\d+:\d+\): ", "", str(error))
    return Problem(shown, error.location["line"], "syntax", message)


def _tag_names(node: Mapping[str, Any]) -> frozenset[str]:
    return frozenset(tag["name"] for tag in node.get("tags", ()))


def _scenarios(children: Sequence[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    for child in children:
        if "scenario" in child:
            yield child["scenario"]
        elif "rule" in child:
            yield from _scenarios(child["rule"]["children"])


def _tag_problems(shown: str, feature: Mapping[str, Any]) -> list[Problem]:
    """Each tag as written (feature, rule, scenario, examples), reported where it is written."""
    nodes: list[Mapping[str, Any]] = [feature]
    for child in feature["children"]:
        if "rule" in child:
            nodes.append(child["rule"])
    for scenario in _scenarios(feature["children"]):
        nodes += [scenario, *scenario.get("examples", ())]
    problems = []
    for node in nodes:
        for tag in node.get("tags", ()):
            name, line = tag["name"], tag["location"]["line"]
            if name in FORBIDDEN_TAGS:
                message = f"{name} must not be committed: fix the scenario, or delete it"
                problems.append(Problem(shown, line, "forbidden-tag", message))
            elif name not in KNOWN_TAGS:
                close = difflib.get_close_matches(name, sorted(KNOWN_TAGS), n=1)
                hint = f"did you mean {close[0]}?" if close else "the known tags are in support/tags.py"
                problems.append(
                    Problem(shown, line, "unknown-tag", f"{name} is not in the tag grammar; {hint}")
                )
    return problems


def _duplicate_names(shown: str, feature: Mapping[str, Any]) -> list[Problem]:
    first_line: dict[str, int] = {}
    by_slug: dict[str, tuple[str, int]] = {}
    problems = []
    for scenario in _scenarios(feature["children"]):
        name, line = scenario["name"], scenario["location"]["line"]
        slug = scenario_slug(name)
        if name in first_line:
            message = (
                f'scenario name "{name}" is already used on line {first_line[name]}; names must be unique'
            )
            problems.append(Problem(shown, line, "duplicate-scenario", message))
        elif slug in by_slug:
            other, other_line = by_slug[slug]
            message = (
                f'"{name}" and "{other}" (line {other_line}) share the file name "{slug}": one\'s failure '
                "evidence (and cassette) would overwrite the other's; make the names differ in more than "
                "case, accents or punctuation"
            )
            problems.append(Problem(shown, line, "duplicate-scenario-slug", message))
        else:
            first_line[name] = line
            by_slug[slug] = (name, line)
    return problems


def _placeholder_problems(shown: str, feature: Mapping[str, Any]) -> list[Problem]:
    """A `<placeholder>` in an outline's steps, tables or doc strings that no column of an
    Examples block provides: behave runs that block with the literal `<text>`."""
    problems = []
    for scenario in _scenarios(feature["children"]):
        for block in scenario.get("examples", ()):
            header = [cell["value"] for cell in block.get("tableHeader", {}).get("cells", ())]
            if not header:
                continue
            for line, name in _placeholders(scenario["steps"]):
                if name not in header:
                    problems.append(_unknown_placeholder(shown, line, name, header, block))
    return problems


def _placeholders(raw_steps: Sequence[Mapping[str, Any]]) -> Iterator[tuple[int, str]]:
    """(line, name) of every `<name>` in the steps' texts, table cells and doc strings."""
    for raw in raw_steps:
        texts = [(raw["location"]["line"], raw["text"])]
        for row in raw.get("dataTable", {}).get("rows", ()):
            texts += [(row["location"]["line"], cell["value"]) for cell in row["cells"]]
        if "docString" in raw:
            first = raw["docString"]["location"]["line"] + 1
            texts += list(enumerate(raw["docString"]["content"].split("\n"), start=first))
        for line, text in texts:
            yield from ((line, match[1]) for match in _PLACEHOLDER.finditer(text))


def _unknown_placeholder(
    shown: str, line: int, name: str, header: list[str], block: Mapping[str, Any]
) -> Problem:
    close = difflib.get_close_matches(name, header, n=1)
    hint = f"did you mean <{close[0]}>? " if close else ""
    columns = ", ".join(header)
    message = (
        f"<{name}> is not a column of the Examples on line {block['location']['line']} (its columns: "
        f"{columns}), so behave would run the step with the literal text <{name}>; {hint}"
        "rename the placeholder to a column, or add the column to the Examples"
    )
    return Problem(shown, line, "unknown-placeholder", message)


def _cases(
    children: Sequence[Mapping[str, Any]], tags: frozenset[str], background: tuple[LintStep, ...]
) -> Iterator[LintCase]:
    for child in children:
        if "background" in child:
            fallback = background[-1].step_type if background else None
            steps = _typed_steps(child["background"]["steps"], fallback, {})
            background += tuple(replace(step, background=True) for step in steps)
        elif "rule" in child:
            rule = child["rule"]
            yield from _cases(rule["children"], tags | _tag_names(rule), background)
        elif "scenario" in child:
            yield from _scenario_cases(child["scenario"], tags, background)


def _scenario_cases(
    scenario: Mapping[str, Any], inherited: frozenset[str], background: tuple[LintStep, ...]
) -> Iterator[LintCase]:
    tags = inherited | _tag_names(scenario)
    fallback = background[-1].step_type if background else None
    line = scenario["location"]["line"]
    examples = scenario.get("examples", ())
    if not examples:
        yield LintCase(
            scenario["name"], line, tags, background + _typed_steps(scenario["steps"], fallback, {})
        )
    for block in examples:
        header = [cell["value"] for cell in block.get("tableHeader", {}).get("cells", ())]
        rows = block.get("tableBody", ())
        first_row = dict(zip(header, (cell["value"] for cell in rows[0]["cells"]))) if rows else {}
        steps = _typed_steps(scenario["steps"], fallback, first_row)
        yield LintCase(scenario["name"], line, tags | _tag_names(block), background + steps)


def _typed_steps(
    raw_steps: Sequence[Mapping[str, Any]], fallback: str | None, row: Mapping[str, str]
) -> tuple[LintStep, ...]:
    """Resolve And/But/`*` to Given/When/Then as behave does, and fill outline placeholders."""
    steps = []
    previous: str | None = None
    for raw in raw_steps:
        keyword_type = raw["keywordType"]
        if keyword_type in _STEP_TYPES:
            step_type = _STEP_TYPES[keyword_type]
        elif keyword_type == "Conjunction":
            step_type = previous or fallback or "given"
        else:  # "*"
            step_type = previous or "given"
        previous = step_type
        text = _PLACEHOLDER.sub(lambda match: row.get(match[1], match[0]), raw["text"]).strip()
        steps.append(LintStep(raw["location"]["line"], raw["keyword"].strip(), step_type, text))
    return tuple(steps)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m support.lint", description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path, default=[Path("features")], help="files or folders")
    parser.add_argument("--steps", type=Path, default=Path("steps"), help="step definitions folder")
    parser.add_argument(
        "--cassettes", type=Path, default=DEFAULT_CASSETTES_DIR, help="model cassettes folder"
    )
    args = parser.parse_args(argv)
    report = lint(args.paths, args.steps)
    problems = list(report.problems)
    for features_dir in (path for path in args.paths if path.is_dir()):
        problems += check_cassettes(features_dir, args.cassettes, load_settings().model_mode)
    for problem in problems:
        print(problem)
    if problems:
        print(
            f"{len(problems)} problem(s) in {report.feature_files} feature files; fix each as its message says, "
            "then run `make lint` again (features/README.md explains every rule)",
            file=sys.stderr,
        )
        return 1
    print(f"{report.feature_files} feature files, {report.scenarios} scenarios: OK")
    return 0
