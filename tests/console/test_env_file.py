"""`.env` parsing for import: valid lines, refused lines by number, and the edge cases."""

from __future__ import annotations

from agent_builder.console.services.env_file import parse_env_file


def test_valid_lines_in_their_forms() -> None:
    parsed = parse_env_file(
        "# a comment\n"
        "\n"
        "PLAIN=value\n"
        "export EXPORTED=yes\n"
        "SPACED = trimmed value   # a comment\n"
        'DOUBLE="two words # not a comment"\n'
        'ESCAPED="line\\nbreak \\"quoted\\""\n'
        "SINGLE='literal \\n $HOME'\n"
        "EMPTY=\n"
        'EMPTY_QUOTED=""\n'
        "HASH=a#b\n"
        "   # indented comment\n"
    )
    assert parsed.values == {
        "PLAIN": "value",
        "EXPORTED": "yes",
        "SPACED": "trimmed value",
        "DOUBLE": "two words # not a comment",
        "ESCAPED": 'line\nbreak "quoted"',
        "SINGLE": "literal \\n $HOME",
        "EMPTY": "",
        "EMPTY_QUOTED": "",
        "HASH": "a#b",
    }
    assert parsed.skipped == [] and parsed.duplicates == {}


def test_invalid_lines_are_skipped_with_their_numbers_and_reasons() -> None:
    parsed = parse_env_file(
        "GOOD=1\n"
        "lower=x\n"
        "1DIGIT=x\n"
        "NO_EQUALS\n"
        'UNCLOSED="open\n'
        "TRAILER='a' b\n"
        "PATH=/bin\n"
        f"{'L' * 65}=x\n"
        "AFTER=2\n"
    )
    assert parsed.values == {"GOOD": "1", "AFTER": "2"}
    reasons = dict(parsed.skipped)
    assert sorted(reasons) == [2, 3, 4, 5, 6, 7, 8]
    assert "not a valid name" in reasons[2] and "not a valid name" in reasons[3]
    assert "No '='" in reasons[4]
    assert "closing quote" in reasons[5]
    assert "after the closing quote" in reasons[6]
    assert "set by the sandbox" in reasons[7]
    assert "longer than 64" in reasons[8]


def test_a_name_set_twice_keeps_the_last_value_and_is_reported() -> None:
    parsed = parse_env_file("A=1\nB=2\nexport A=3\r\nA='4'\n")
    assert parsed.values == {"B": "2", "A": "4"}
    assert parsed.duplicates == {"A": [1, 3, 4]}
