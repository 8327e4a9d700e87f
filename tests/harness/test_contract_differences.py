"""support/api/contract.py names a served API's differences from the contract where a client meets them."""

import copy
from typing import Any

from support.api.contract import committed_contract, contract_differences

DRAFT_SAVE = "PUT /console/api/agents/{agent_id}/draft"


def _served() -> dict[str, Any]:
    return copy.deepcopy(committed_contract())


def test_the_contract_itself_has_no_differences() -> None:
    assert contract_differences(committed_contract(), _served()) == []


def test_a_changed_bound_is_named_at_every_operation_that_uses_it() -> None:
    served = _served()
    served["components"]["schemas"]["AgentConfig"]["properties"]["suggested_questions"]["maxItems"] = 4

    differences = contract_differences(committed_contract(), served)

    assert (
        f"{DRAFT_SAVE} requestBody.content.application/json.schema.properties.config.properties.suggested_questions.maxItems: contract 5, served 4"
        in (differences)
    )
    assert all(line.endswith("served 4") or "more differences" in line for line in differences), differences


def test_a_route_gone_or_added_is_named_and_the_test_router_is_not() -> None:
    served = _served()
    gone = served["paths"].pop("/console/api/agents/{agent_id}/duplicate")
    served["paths"]["/__test__/anything"] = gone
    served["paths"]["/console/api/new"] = gone

    assert contract_differences(committed_contract(), served) == [
        "POST /console/api/agents/{agent_id}/duplicate: in the contract, not served",
        "POST /console/api/new: served, not in the contract",
    ]


def test_a_moved_status_is_named() -> None:
    served = _served()
    responses = served["paths"]["/console/api/agents/{agent_id}/duplicate"]["post"]["responses"]
    responses["202"] = responses.pop("201")

    differences = contract_differences(committed_contract(), served)

    assert [line.split(":")[0] for line in differences] == [
        "POST /console/api/agents/{agent_id}/duplicate responses.201",
        "POST /console/api/agents/{agent_id}/duplicate responses.202",
    ]
