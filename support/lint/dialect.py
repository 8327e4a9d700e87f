"""Gherkin the official parser accepts but behave 1.3.3's own parser refuses or reads otherwise:
`behave-dialect`, at the line of the construct, with the spelling both parsers read alike.

The linter parses with gherkin-official; behave runs features with its parser
(`behave/parser.py`), so a file that passes lint would otherwise abort the run, or run steps,
tags or cells other than those the linter checked:

- aborts: a ``` doc string; Examples under a plain `Scenario:`; a description under Examples; a
  `# language :` header with a space before the colon (behave then parses the file as English);
  a doc string line indented less than its opening `\"\"\"`; `And`/`But` first, with no Background
  step before it; a keyword of the language behave's table lacks (Feature, Scenario ...);
- skips: a `Scenario Outline:` without Examples (the linter checks it as a scenario);
- misreads: a step keyword behave's table lacks (the step becomes description) or files under
  another type; a description line behave takes for a step (it matches step keywords in any
  case); tags written without a space (`@a@b` is one tag); table cells with `\\\\` or `\\n`
  escapes, or text after the last `|`; an escaped `\\"\\"\\"` in a doc string; a doc string after a
  data table (it keeps its indentation).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from behave.i18n import languages as BEHAVE_KEYWORDS
from gherkin.dialect import Dialect

from support.lint.problem import Problem

RULE = "behave-dialect"
_STEP_CATEGORIES = ("given", "when", "then", "and", "but")  # the order behave tries them in
_BLOCK_CATEGORIES = ("rule", "scenario", "scenario_outline", "examples")
_GHERKIN_LANGUAGE = re.compile(r"^\s*#\s*language\s*:\s*([a-zA-Z\-_]+)\s*$")

Node = Mapping[str, Any]


class _File:
    """One feature file: its lines, its language's keywords in both parsers, its findings."""

    def __init__(self, shown: str, text: str, language: str) -> None:
        self.shown = shown
        self.lines = text.splitlines()
        self.language = language
        self.behave: Mapping[str, Any] = BEHAVE_KEYWORDS.get(language, BEHAVE_KEYWORDS["en"])
        self.gherkin = Dialect.for_name(language)
        self.problems: list[Problem] = []

    def report(self, line: int, message: str) -> None:
        self.problems.append(Problem(self.shown, line, RULE, message))

    def line(self, number: int) -> str:
        return self.lines[number - 1] if 0 < number <= len(self.lines) else ""

    def step_category(self, line: str) -> str | None:
        """The step type behave's parser gives a line (a stripped line), or None: not a step."""
        for category in _STEP_CATEGORIES:
            for keyword in self.behave[category]:
                if line.startswith(keyword) or line.lower().startswith(keyword.lower()):
                    return category
        return None

    def known(self, category: str) -> str:
        return ", ".join(
            f'"{keyword.strip()}"' for keyword in self.behave[category] if keyword.strip() != "*"
        )


def dialect_problems(shown: str, text: str, document: Node) -> list[Problem]:
    feature = document.get("feature")
    if feature is None:
        return _language_header(shown, text.splitlines())
    file = _File(shown, text, feature["language"])
    file.problems += _language_header(shown, file.lines)
    _block_keyword(file, feature, "feature")
    _tags(file, feature)
    _children(file, feature["children"], background_steps=False)
    return sorted(dict.fromkeys(file.problems), key=lambda problem: problem.line)


def _language_header(shown: str, lines: Sequence[str]) -> list[Problem]:
    """behave reads `# language: xx` only with `language:` right after the `#` and spaces."""
    for number, line in enumerate(lines, start=1):
        if line.strip() and not line.strip().startswith("#"):
            break
        match = _GHERKIN_LANGUAGE.match(line)
        if match and not line.strip()[1:].strip().lower().startswith("language:"):
            message = (
                f'behave 1.3.3 reads a language header only as "# language: {match[1]}" (no space before '
                "the colon): it ignores this one, parses the file as English and aborts; write "
                f'"# language: {match[1]}"'
            )
            return [Problem(shown, number, RULE, message)]
    return []


def _children(file: _File, children: Sequence[Node], *, background_steps: bool) -> None:
    for child in children:
        if "background" in child:
            background = child["background"]
            _block_keyword(file, background, "background")
            _description(file, background)
            _steps(file, background["steps"], background_steps=background_steps)
            background_steps = background_steps or bool(background["steps"])
        elif "rule" in child:
            _block_keyword(file, child["rule"], "rule")
            _tags(file, child["rule"])
            _children(file, child["rule"]["children"], background_steps=background_steps)
        elif "scenario" in child:
            _scenario(file, child["scenario"], background_steps=background_steps)


def _scenario(file: _File, scenario: Node, *, background_steps: bool) -> None:
    _tags(file, scenario)
    examples = scenario.get("examples", ())
    keyword, line = scenario["keyword"], scenario["location"]["line"]
    if examples and _block_category(file, keyword) != "scenario_outline":
        outline = file.behave["scenario_outline"][0]
        message = (
            f'behave 1.3.3 takes Examples only under "{outline}:": this "{keyword}:" with Examples makes '
            f'it abort; write "{outline}:"'
        )
        file.report(line, message)
    elif not examples and _block_category(file, keyword) == "scenario_outline":
        message = (
            f'behave 1.3.3 runs a "{keyword}:" without Examples zero times (the linter checks it as a '
            f'scenario, so it would pass unrun); add Examples, or write "{file.behave["scenario"][-1]}:"'
        )
        file.report(line, message)
    else:
        _block_keyword(file, scenario, "scenario", "scenario_outline")
    _description(file, scenario)
    _steps(file, scenario["steps"], background_steps=background_steps)
    for block in examples:
        _block_keyword(file, block, "examples")
        _tags(file, block)
        lines = _description_lines(file, block)
        if lines:
            message = (
                "behave 1.3.3 takes no description under Examples: this line makes it abort; make it a "
                "# comment, or move it to the scenario's description"
            )
            file.report(lines[0], message)
        for row in [block["tableHeader"], *block.get("tableBody", ())] if "tableHeader" in block else ():
            _row(file, row)


def _block_category(file: _File, keyword: str) -> str | None:
    """What behave's parser takes a `Keyword:` line for (it tries the categories in this order)."""
    return next((cat for cat in _BLOCK_CATEGORIES if keyword in file.behave[cat]), None)


def _block_keyword(file: _File, node: Node, *categories: str) -> None:
    keyword = node["keyword"]
    if not any(keyword in file.behave[category] for category in categories):
        message = (
            f'behave 1.3.3 does not know the {file.language} keyword "{keyword}" and aborts; write one it '
            f"knows: {file.known(categories[0])}"
        )
        file.report(node["location"]["line"], message)


def _tags(file: _File, node: Node) -> None:
    for line in sorted({tag["location"]["line"] for tag in node.get("tags", ())}):
        words = file.line(line).split("#", 1)[0].split()
        for word in (word for word in words if "@" in word[1:]):
            separated = " ".join(f"@{part}" for part in word.split("@") if part)
            message = (
                f'behave 1.3.3 reads "{word}" as one tag (the official parser as {separated}), so the '
                f"scenario is in no lane the linter checked; write {separated}"
            )
            file.report(line, message)


def _description_lines(file: _File, node: Node) -> list[int]:
    """The lines of a node's description (comments and blank lines are not part of it)."""
    wanted = sum(1 for text in node.get("description", "").splitlines() if text.strip())
    found: list[int] = []
    number = node["location"]["line"]
    while len(found) < wanted and number < len(file.lines):
        number += 1
        text = file.line(number).strip()
        if text and not text.startswith("#"):
            found.append(number)
    return found


def _description(file: _File, node: Node) -> None:
    """behave looks for the first step among a Scenario's or Background's description lines."""
    for line in _description_lines(file, node):
        if file.step_category(file.line(line).strip()) is not None:
            message = (
                "behave 1.3.3 reads this description line as a step (it matches step keywords in any case, "
                "and `*`), so the scenario runs a step the linter never checked; reword the line so it does "
                "not start with a step keyword, or make it a # comment"
            )
            file.report(line, message)


def _steps(file: _File, steps: Sequence[Node], *, background_steps: bool) -> None:
    for index, step in enumerate(steps):
        line = step["location"]["line"]
        keyword = step["keyword"]
        if index == 0 and step["keywordType"] == "Conjunction" and not background_steps:
            message = (
                f'behave 1.3.3 refuses "{keyword.strip()}" as the first step with no Background step before '
                "it, and aborts; start with Given, When or Then"
            )
            file.report(line, message)
        _step_keyword(file, line, keyword)
        if "docString" in step:
            _doc_string(file, step)
        for row in step.get("dataTable", {}).get("rows", ()):
            _row(file, row)


def _step_keyword(file: _File, line: int, keyword: str) -> None:
    if keyword.strip() == "*":
        return
    category = file.step_category(file.line(line).strip())
    meant = [cat for cat in _STEP_CATEGORIES if keyword in getattr(file.gherkin, f"{cat}_keywords")]
    if category in meant:
        return
    known = file.known(meant[0]) if meant else ""
    if category is None:
        message = (
            f'behave 1.3.3 does not know the {file.language} step keyword "{keyword.strip()}": it reads the '
            f"line as description and runs the scenario without the step; write one it knows: {known}"
        )
    else:
        message = (
            f'behave 1.3.3 reads "{keyword.strip()}" as a {category.title()} step (the official parser as a '
            f"{meant[0].title() if meant else 'step'}), so another sentence may match it; write one of {known}"
        )
    file.report(line, message)


def _doc_string(file: _File, step: Node) -> None:
    doc = step["docString"]
    opening = doc["location"]["line"]
    delimiter = doc["delimiter"]
    if delimiter != '"""':
        message = 'behave 1.3.3 reads only """ doc strings: this ``` one makes it abort; write """ instead'
        file.report(opening, message)
        return
    table = step.get("dataTable")
    if table is not None and table["location"]["line"] < opening:
        message = (
            "behave 1.3.3 keeps the indentation of a doc string that follows a data table (the official "
            "parser removes it), so the step gets other text than the linter read; put the doc string "
            "before the table"
        )
        file.report(opening, message)
    indent = len(file.line(opening)) - len(file.line(opening).lstrip())
    for number in _doc_string_lines(file, opening, delimiter):
        text = file.line(number)
        if text[:indent].strip():
            message = (
                f'behave 1.3.3 refuses a doc string line indented less than its opening """ (line {opening}) '
                'and aborts (BAD-INDENT); indent it at least as far as the """'
            )
            file.report(number, message)
        if '\\"\\"\\"' in text:
            message = (
                'behave 1.3.3 keeps the backslashes of \\"\\"\\" in a doc string (the official parser reads '
                '"""), so the step gets other text than the linter read; write the text without it'
            )
            file.report(number, message)


def _doc_string_lines(file: _File, opening: int, delimiter: str) -> Iterator[int]:
    number = opening + 1
    while number <= len(file.lines) and not file.line(number).strip().startswith(delimiter):
        yield number
        number += 1


def _row(file: _File, row: Node) -> None:
    """behave splits a row at each `|` not after a backslash, unescapes only `\\|`, and drops
    the first and last character of the row, whatever they are."""
    line = row["location"]["line"]
    text = file.line(line).strip()
    behave_cells = [cell.replace("\\|", "|").strip() for cell in re.split(r"(?<!\\)\|", text[1:-1])]
    cells = [cell["value"] for cell in row["cells"]]
    if behave_cells != cells:
        message = (
            f"behave 1.3.3 reads this row as {behave_cells} where the official parser reads {cells} (behave "
            "unescapes only \\|, keeps \\\\ and \\n as written, and takes text after the last | as a cell); "
            "write the cells without \\\\ or \\n escapes, and end the row with |"
        )
        file.report(line, message)
