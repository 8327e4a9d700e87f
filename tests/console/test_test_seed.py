from __future__ import annotations

from typing import Any

from api_shortcuts import assert_error, create_agent, sign_in
from fastapi.testclient import TestClient

BODY = {
    "created_at": "2024-03-01T09:30:00Z",
    "messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello!"}],
}


def test_seed_router_is_absent_by_default(client: TestClient) -> None:
    agent = create_agent(client)
    assert_error(
        client.post("/__test__/conversations", json={**BODY, "agent_id": agent["id"]}), 404, "not_found"
    )
    assert "/__test__/conversations" not in client.get("/openapi.json").json()["paths"]


def test_seed_writes_a_backdated_conversation(make_client: Any) -> None:
    client = make_client(enable_test_seed=True)
    assert_error(TestClient(client.app).post("/__test__/conversations", json=BODY), 401, "unauthorized")
    sign_in(client)
    agent = create_agent(client)
    response = client.post("/__test__/conversations", json={**BODY, "agent_id": agent["id"]})
    assert response.status_code == 201, response.text
    conversation_id = response.json()["id"]
    with client.app.state.db.read() as conn:
        conversation = conn.execute("SELECT * FROM conversations WHERE id = ?", (conversation_id,)).fetchone()
        messages = conn.execute(
            "SELECT role, content FROM messages WHERE conversation_id = ? ORDER BY position",
            (conversation_id,),
        ).fetchall()
    assert (conversation["agent_id"], conversation["created_at"]) == (
        agent["id"],
        "2024-03-01T09:30:00.000000Z",
    )
    assert [tuple(m) for m in messages] == [("user", "Hi"), ("assistant", "Hello!")]

    # The conversation is a new visitor's: readable with their cookie only.
    token = response.json()["visitor_token"]
    site = client.post(f"/__test__/agents/{agent['id']}/publish", json={}).json()
    assert site["version"] == 1
    web_app_url = client.get(f"/console/api/agents/{agent['id']}").json()["access"]["web_app_url"]
    path = f"/chat/{web_app_url.rsplit('/', 1)[-1]}/api/conversations/{conversation_id}/messages"
    assert_error(TestClient(client.app).get(path), 404, "not_found")
    visitor = TestClient(client.app, cookies={"ab_visitor": token})
    assert [m["content"] for m in visitor.get(path).json()["data"]] == ["Hi", "Hello!"]

    # Conversations go with their agent.
    client.delete(f"/console/api/agents/{agent['id']}")
    with client.app.state.db.read() as conn:
        assert conn.execute("SELECT COUNT(*) FROM messages").fetchone()[0] == 0


def test_seed_input_is_validated(make_client: Any) -> None:
    client = make_client(enable_test_seed=True)
    sign_in(client)
    agent = create_agent(client)
    assert_error(client.post("/__test__/conversations", json={**BODY, "agent_id": "nope"}), 404, "not_found")
    for bad in (
        {**BODY, "agent_id": agent["id"], "created_at": "yesterday"},
        {**BODY, "agent_id": agent["id"], "created_at": "0001-01-01T00:00:00+05:00"},
        {**BODY, "agent_id": agent["id"], "messages": []},
        {**BODY, "agent_id": agent["id"], "messages": [{"role": "system", "content": "x"}]},
    ):
        assert_error(client.post("/__test__/conversations", json=bad), 422, "invalid_request")


def test_a_seeded_message_may_be_10000_characters_and_no_more(make_client: Any) -> None:
    client = make_client(enable_test_seed=True)
    sign_in(client)
    agent = create_agent(client)

    def seed(content: str) -> Any:
        body = {**BODY, "agent_id": agent["id"], "messages": [{"role": "user", "content": content}]}
        return client.post("/__test__/conversations", json=body)

    assert seed("x" * 10000).status_code == 201
    refused = assert_error(seed("x" * 10001), 422, "invalid_request")
    assert [error["field"] for error in refused["errors"]] == ["messages.0.content"]


def test_seeded_messages_are_stored_in_chronological_order(make_client: Any) -> None:
    client = make_client(enable_test_seed=True)
    sign_in(client)
    agent = create_agent(client)

    def exchange(day: int, text: str) -> list[dict[str, str]]:
        when = f"2024-03-0{day}T09:00:00Z"
        return [
            {"role": "user", "content": f"Q {text}", "created_at": when},
            {"role": "assistant", "content": f"A {text}", "created_at": when},
        ]

    # Given out of order on purpose: day 2, day 3, then day 1 (in another timezone).
    messages = [*exchange(2, "second"), *exchange(3, "third")]
    messages += [{**message, "created_at": "2024-03-01T10:00:00+01:00"} for message in exchange(1, "first")]
    body = {"agent_id": agent["id"], "created_at": "2024-03-01T09:00:00Z", "messages": messages}
    conversation_id = client.post("/__test__/conversations", json=body).json()["id"]
    with client.app.state.db.read() as conn:
        rows = conn.execute(
            "SELECT content, created_at FROM messages WHERE conversation_id = ? ORDER BY position",
            (conversation_id,),
        ).fetchall()
    assert [row["content"] for row in rows] == [
        "Q first",
        "A first",
        "Q second",
        "A second",
        "Q third",
        "A third",
    ]
    assert rows[0]["created_at"] == "2024-03-01T09:00:00.000000Z"


def test_seed_publish_needs_no_model_and_is_absent_by_default(make_client: Any, client: TestClient) -> None:
    agent = create_agent(client)
    assert_error(client.post(f"/__test__/agents/{agent['id']}/publish", json={}), 404, "not_found")
    seeding = make_client(enable_test_seed=True)
    sign_in(seeding)
    response = seeding.post(f"/__test__/agents/{agent['id']}/publish", json={"note": "Seeded"})
    assert response.status_code == 201, response.text
    detail = seeding.get(f"/console/api/agents/{agent['id']}").json()
    assert (detail["published"]["version"], detail["published"]["note"]) == (1, "Seeded")
    assert detail["access"]["web_app_enabled"] is True
    assert_error(seeding.post("/__test__/agents/nope/publish", json={}), 404, "not_found")
