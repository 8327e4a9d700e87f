"""A tool service that quotes the credential back: the tool card (which web app visitors see)
shows its error without the credential."""

from __future__ import annotations

import json

import httpx

from tests.fakes.upstream import FakeUpstream, Raw
from tests.runtime.run_requests import SEARCH_KEY, run_body, run_events


def test_a_search_service_that_quotes_the_key_is_shown_without_it(
    client: httpx.Client, reference_model_url: str, fake_upstream: FakeUpstream
) -> None:
    fake_upstream.search_answer = Raw(json.dumps({"message": f"Invalid API key: {SEARCH_KEY}"}).encode(), 401)
    body = run_body(
        reference_model_url,
        "search the web for agent builders",
        tools=("web_search",),
        services={"web_search": {"base_url": f"{fake_upstream.url}/search", "api_key": SEARCH_KEY}},
    )
    events = run_events(client, body)
    (search,) = fake_upstream.calls("/search/")
    assert search.headers["authorization"] == f"Bearer {SEARCH_KEY}"  # the key it quoted was sent
    result = next(event.data for event in events if event.name == "tool.result")
    assert result["is_error"] is True
    assert result["output"] == "web_search failed: HTTP 401: Invalid API key: ***"
    assert all(SEARCH_KEY not in json.dumps(event.data) for event in events)
