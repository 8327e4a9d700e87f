"""The set_outputs tool built from declared outputs, and the check of what a model sent."""

from __future__ import annotations

from typing import Any

import pytest

from agent_builder.runtime.outputs import mismatch, tool_spec
from agent_builder.runtime.schemas import OutputSpec

OUTPUTS = [
    OutputSpec(name="summary", type="string", description="One line."),
    OutputSpec(name="score", type="number"),
    OutputSpec(name="urgent", type="boolean"),
    OutputSpec(name="tags", type="array", items="number"),
    OutputSpec(name="customer", type="object", fields=[OutputSpec(name="email", type="string")]),
]
GOOD: dict[str, Any] = {
    "summary": "s",
    "score": 2.5,
    "urgent": False,
    "tags": [1, 2],
    "customer": {"email": "e"},
}


def test_the_tool_asks_for_every_output_and_nothing_else() -> None:
    parameters = tool_spec(OUTPUTS)["function"]["parameters"]
    assert parameters["required"] == ["summary", "score", "urgent", "tags", "customer"]
    assert parameters["additionalProperties"] is False
    assert parameters["properties"]["summary"] == {"type": "string", "description": "One line."}
    assert parameters["properties"]["tags"] == {"type": "array", "items": {"type": "number"}}
    customer = parameters["properties"]["customer"]
    assert customer["required"] == ["email"] and customer["additionalProperties"] is False


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"score": "high"}, '"score" must be a number, not str'),
        ({"score": True}, '"score" must be a number, not bool'),
        ({"urgent": "yes"}, '"urgent" must be a boolean, not str'),
        ({"tags": [1, "two"]}, 'every item of "tags" must be a number'),
        ({"customer": {"email": 3}}, '"customer.email" must be a string, not int'),
        ({"customer": {"email": "e", "name": "n"}}, '"customer.name" is not a declared output'),
        ({"extra": 1}, '"extra" is not a declared output'),
    ],
)
def test_outputs_that_do_not_fit_say_why(change: dict[str, Any], reason: str) -> None:
    assert mismatch(GOOD | change, OUTPUTS) == reason


def test_fitting_and_missing_outputs() -> None:
    assert mismatch(GOOD, OUTPUTS) is None
    assert mismatch({k: v for k, v in GOOD.items() if k != "urgent"}, OUTPUTS) == '"urgent" is missing'
    assert mismatch("not an object", OUTPUTS) == "the outputs must be a JSON object"
