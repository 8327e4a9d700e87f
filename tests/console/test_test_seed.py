from __future__ import annotations

from typing import Any

from console_testing import assert_error, create_agent, sign_in
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
