from __future__ import annotations

import json
import re

import pytest

from agent_builder.runtime.json_replace import JsonReplaceError, parse_path, replace

DOCUMENT = json.dumps({"a": {"b": [{"c": 1}, {"c": 2}]}, "name": "x"})


def test_parse_path() -> None:
    assert parse_path("a.b[0].c") == ["a", "b", 0, "c"]
    assert parse_path("[1][2]") == [1, 2]
    assert parse_path("first name") == ["first name"]


@pytest.mark.parametrize("path", ["", "a..b", "a.", ".a", "a[x]", "a[0", "a.[0]"])
def test_invalid_paths(path: str) -> None:
    with pytest.raises(JsonReplaceError):
        parse_path(path)


@pytest.mark.parametrize(
    ("path", "value", "expected"),
    [
        ("a.b[1].c", "42", 42),
        ("a.b[1].c", "hello", "hello"),
        ("a.b[1].c", '{"d": true}', {"d": True}),
        ("a.b[1].new", "null", None),
        ("name", 7, 7),
    ],
)
def test_replace_sets_the_value(path: str, value: object, expected: object) -> None:
    result = json.loads(replace(DOCUMENT, path, value))
    target = result
    for step in parse_path(path)[:-1]:
        target = target[step]
    assert target[parse_path(path)[-1]] == expected


@pytest.mark.parametrize(
    ("document", "path", "message"),
    [
        ("{not json", "a", "not valid JSON"),
        (DOCUMENT, "a.x.c", "a.x: no such key"),
        (DOCUMENT, "a.b[5]", "a.b[5]: index out of range"),
        (DOCUMENT, "a.b.c", "a.b.c: cannot set a key in a list"),
        (DOCUMENT, "name[0]", "name[0]: cannot index into a string"),
    ],
)
def test_errors_say_where(document: str, path: str, message: str) -> None:
    with pytest.raises(JsonReplaceError, match=re.escape(message)):
        replace(document, path, "1")
