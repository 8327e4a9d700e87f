"""A console started the way production starts it (the CLI, no AGENT_BUILDER_ENABLE_TEST_SEED)
has no test seeding router: its routes are unknown, not merely refused."""

import httpx


def test_a_console_started_without_the_flag_has_no_test_seeding_router(
    api: httpx.Client, agent: dict
) -> None:
    for path in (f"/__test__/agents/{agent['id']}/publish", "/__test__/conversations"):
        response = api.post(path, json={})
        assert (response.status_code, response.json()["message"]) == (404, "No such route."), response.text
    assert not [path for path in api.get("/openapi.json").json()["paths"] if path.startswith("/__test__")]
