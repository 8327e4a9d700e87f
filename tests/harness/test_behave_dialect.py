"""Gherkin the linter accepts must run: what behave 1.3.3's parser refuses or reads otherwise
than the official parser is a `behave-dialect` finding at its line. Each construct is checked
against both parsers here, so a finding is never only the linter's opinion."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from behave.parser import ParserError, parse_feature
from gherkin.parser import Parser
from gherkin.token_scanner import TokenScanner

from support.lint.dialect import dialect_problems
from support.lint.features import lint_paths
from tests.harness.lint_project import line_of, write_feature


def feature(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def findings(text: str) -> list[tuple[int, str]]:
    document = Parser().parse(TokenScanner(text))  # the official parser accepts every case here
    return [(problem.line, problem.message) for problem in dialect_problems("x.feature", text, document)]


ABORTS = {
    "backtick_doc_string": (
        """
        Feature: F
          Scenario: S
            Given a doc
              ```json
              {}
              ```
        """,
        "```json",
        'reads only """ doc strings: this ``` one makes it abort; write """ instead',
    ),
    "examples_under_a_plain_scenario": (
        """
        Feature: F
          Scenario: S <x>
            Given a <x>

            Examples:
              | x |
              | 1 |
        """,
        "Scenario: S",
        'this "Scenario:" with Examples makes it abort; write "Scenario Outline:"',
    ),
    "examples_description_between_comments": (
        """
        Feature: F
          Scenario Outline: S
            Given a <x>

          Examples: with a description
          # comment
          This is an examples description
          # comment

            | x |
            | 1 |
        """,
        "This is an examples",
        "takes no description under Examples: this line makes it abort; make it a # comment",
    ),
    "language_header_with_spaces": (
        """
          #  language  :  fr
        Fonctionnalité: F
          Scénario: S
            Soit a x
        """,
        "language",
        'reads a language header only as "# language: fr" (no space before the colon)',
    ),
    "doc_string_line_left_of_its_delimiter": (
        """
        Feature: F
          Scenario: S
            Given a doc
              \"\"\"
            left
              \"\"\"
        """,
        "left",
        "indented less than its opening",
    ),
    "and_as_the_first_step": (
        """
        Feature: F
          Scenario: S
            And a x
        """,
        "And a x",
        'refuses "And" as the first step with no Background step before it, and aborts; start with Given',
    ),
    "a_keyword_behave_does_not_know": (
        """
        # language: tr
        İşlev: F
          Senaryo: S
            Diyelim ki a x
        """,
        "İşlev",
        'does not know the tr keyword "İşlev" and aborts; write one it knows: "Özellik"',
    ),
}

MISREADS = {
    "a_step_keyword_behave_does_not_know": (
        """
        # language: tr
        Özellik: F
          Senaryo: S
            Varsayalım ki a x
        """,
        "Varsayalım",
        'does not know the tr step keyword "Varsayalım ki": it reads the line as description',
    ),
    "a_description_line_behave_reads_as_a_step": (
        """
        Feature: F
          Scenario: S
          given this line describes the scenario
            Given a x
        """,
        "given this line",
        "reads this description line as a step",
    ),
    "tags_without_a_space": (
        """
        Feature: F
          @core@prepared
          Scenario: S
            Given a x
        """,
        "@core@prepared",
        'reads "@core@prepared" as one tag (the official parser as @core @prepared)',
    ),
    "escaped_cells": (
        """
        Feature: F
          Scenario: S
            Given a table
              | a \\\\ b | c\\nd |
        """,
        "| a",
        "reads this row as ['a \\\\\\\\ b', 'c\\\\nd'] where the official parser reads ['a \\\\ b', 'c\\nd']",
    ),
    "text_after_the_last_pipe": (
        """
        Feature: F
          Scenario: S
            Given a table
              | a | b | trailing text
        """,
        "trailing",
        "takes text after the last | as a cell",
    ),
    "escaped_doc_string_delimiter": (
        """
        Feature: F
          Scenario: S
            Given a doc
              \"\"\"
              a \\"\\"\\" b
              \"\"\"
        """,
        "a \\",
        'keeps the backslashes of \\"\\"\\" in a doc string',
    ),
    "doc_string_after_a_data_table": (
        """
        Feature: F
          Scenario: S
            Given both
              | id |
              \"\"\"
              hello
              \"\"\"
        """,
        '"""',
        "put the doc string before the table",
    ),
    "outline_without_examples": (
        """
        Feature: F
          Scenario Outline: S
            Given a x
        """,
        "Scenario Outline",
        'runs a "Scenario Outline:" without Examples zero times',
    ),
}

BOTH_READ_ALIKE = {
    "descriptions_with_comments_outside_examples": """
        Feature: F
          This is a description
          # comment
          with a comment in the middle

          Scenario: two lines
          This description
          # comment
          has two lines
            Given the minimalism

          Scenario Outline: outline
        # comment
        An outline description
            Given the <x>

          Examples:
          # only a comment here
            | x |
            | 1 |
        """,
    "languages_rules_and_conjunctions": """
        # language: zh-CN
        功能: F
          背景:
            假如 a b
          规则: R
            场景: S
              而且 a x
              当 a y
              那么 a z
        """,
    "doc_strings_tables_tags_and_stars": """
        @a @b #comment
        Feature: F
          Rule: R
            Scenario: S
              * a doc
                \"\"\"json
                  {"indented": true}
                \"\"\"
              And a table
                | foo | \\| pipe |
                # a comment between rows
                |     | b        |
              But the docstring comes first
                \"\"\"
                hi
                \"\"\"
                | id |
        """,
}


@pytest.mark.parametrize(("text", "needle", "message"), list(ABORTS.values()), ids=list(ABORTS))
def test_what_makes_behave_abort_is_reported_at_its_line(text: str, needle: str, message: str) -> None:
    text = feature(text)
    with pytest.raises(ParserError):
        parse_feature(text)
    [(line, found)] = findings(text)
    assert line == line_of(text, needle)
    assert message in found


@pytest.mark.parametrize(("text", "needle", "message"), list(MISREADS.values()), ids=list(MISREADS))
def test_what_behave_reads_otherwise_is_reported_at_its_line(text: str, needle: str, message: str) -> None:
    text = feature(text)
    parse_feature(text)  # behave runs it, but not as the linter read it
    [(line, found)] = findings(text)
    assert line == line_of(text, needle)
    assert message in found


@pytest.mark.parametrize("text", list(BOTH_READ_ALIKE.values()), ids=list(BOTH_READ_ALIKE))
def test_gherkin_both_parsers_read_alike_is_fine(text: str) -> None:
    text = feature(text)
    assert parse_feature(text) is not None
    assert findings(text) == []


def test_the_feature_linter_reports_it(project: Path) -> None:
    text = write_feature(project, ABORTS["backtick_doc_string"][0].replace("Feature", "@core\nFeature"))
    [problem] = [p for p in lint_paths([Path("features")]) if p.rule == "behave-dialect"]
    assert (problem.path, problem.line) == ("features/x.feature", line_of(text, "```json"))
