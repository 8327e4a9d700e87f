from __future__ import annotations

import asyncio
import json
import re
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from agent_builder.runtime import json_replace
from agent_builder.runtime.json_replace import MAX_DEPTH, JsonReplaceError, parse_path, replace
from agent_builder.runtime.schemas import RunRequest
from agent_builder.runtime.tools import Toolbox, ToolServices
from tests.runtime.run_requests import run_body, run_events

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


DEEP = "[" * 4000 + "]" * 4000  # issue 25, item 8: this used to end the whole run in RecursionError


@pytest.mark.parametrize(
    ("document", "value", "what"),
    [
        (DEEP, "1", "The input"),
        ('{"a": 1}', DEEP, "The value"),
        ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "1", "The input"),
    ],
)
def test_too_deep_json_is_a_clear_error(document: str, value: str, what: str) -> None:
    with pytest.raises(
        JsonReplaceError, match=f"^{what} nests arrays and objects more than {MAX_DEPTH} levels"
    ):
        replace(document, "[0]" if document.startswith("[") else "a", value)


def test_json_as_deep_as_allowed_still_works() -> None:
    deep = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    # The innermost (empty) list replaced by another as deep: the result nests twice as deep.
    result = replace(deep, "[0]" * (MAX_DEPTH - 1), deep)
    assert result == "[" * (2 * MAX_DEPTH - 1) + "]" * (2 * MAX_DEPTH - 1)
    assert replace('{"s": "[[[[ \\" {{{{"}', "s", "1") == '{"s": 1}'  # brackets in a string


def test_too_deep_json_is_a_tool_error_and_the_run_goes_on(
    client: httpx.Client, reference_model_url: str
) -> None:
    query = f"set [0] to 1 in this JSON: {DEEP}"
    events = run_events(client, run_body(reference_model_url, query, tools=("json_replace",)))
    assert (events[-1].name, events[-1].data.get("code")) == ("run.completed", None), events[-1].data
    (result,) = [event.data for event in events if event.name == "tool.result"]
    assert result["is_error"] is True
    assert result["output"].startswith("json_replace failed: The input nests arrays and objects more than")


@pytest.mark.parametrize("error", [RecursionError("maximum recursion depth exceeded"), KeyError("x")])
def test_any_exception_inside_a_tool_is_that_tools_error_result(
    monkeypatch: pytest.MonkeyPatch, error: Exception
) -> None:
    def broken(*_args: object) -> str:
        raise error

    monkeypatch.setattr(json_replace, "replace", broken)
    # Only the dispatch is under test: a toolbox with json_replace enabled, no services wired.
    request = RunRequest.model_validate(
        run_body("http://provider.invalid/v1", "replace it", tools=("json_replace",))
    )
    toolbox = Toolbox(request, httpx.AsyncClient(), ToolServices(shell_timeout_s=1.0))
    call = toolbox.call("json_replace", {"json": "[]", "path": "[0]", "value": "1"})
    # On a thread of its own: a session's sync Playwright keeps an event loop running on this one.
    with ThreadPoolExecutor(max_workers=1) as worker:
        result = worker.submit(asyncio.run, call).result()
    assert (result.output, result.is_error) == (
        f"json_replace failed unexpectedly ({type(error).__name__}).",
        True,
    )
