from __future__ import annotations

from typing import Any

from api_shortcuts import assert_error, create_agent, sign_in, upload
from fastapi.testclient import TestClient

AGENTS = "/console/api/agents"


def test_allowed_files_are_stored_as_blobs(client: TestClient) -> None:
    agent = create_agent(client)
    stored = []
    for name, content_type in (
        ("notes.txt", "text/plain"),
        ("README.md", "text/markdown"),
        ("data.CSV", "text/csv"),
        ("config.json", "application/json"),
        ("paper.pdf", "application/pdf"),
    ):
        content = b"%PDF-1.4 \x00\xff binary ok" if name.endswith("pdf") else f"hello {name}".encode()
        response = upload(client, f"{AGENTS}/{agent['id']}/files", name, content)
        assert response.status_code == 201, response.text
        file = response.json()
        assert (file["name"], file["size"], file["content_type"]) == (name, len(content), content_type)
        with client.app.state.db.read() as conn:
            blob = conn.execute("SELECT content FROM agent_files WHERE id = ?", (file["id"],)).fetchone()[0]
        assert blob == content
        stored.append(file)
    assert client.get(f"{AGENTS}/{agent['id']}/files").json()["data"] == stored


def test_delete_file(client: TestClient) -> None:
    agent = create_agent(client)
    stored = upload(client, f"{AGENTS}/{agent['id']}/files", "a.txt", b"hi").json()
    assert client.delete(f"{AGENTS}/{agent['id']}/files/{stored['id']}").status_code == 204
    assert client.get(f"{AGENTS}/{agent['id']}/files").json()["data"] == []
    assert_error(client.delete(f"{AGENTS}/{agent['id']}/files/{stored['id']}"), 404, "not_found")
    other = create_agent(client, "Other")
    kept = upload(client, f"{AGENTS}/{agent['id']}/files", "b.txt", b"hi").json()
    assert_error(client.delete(f"{AGENTS}/{other['id']}/files/{kept['id']}"), 404, "not_found")


def test_bad_files_are_refused(make_client: Any) -> None:
    client = make_client(max_agent_file_bytes=4096)
    sign_in(client)
    agent = create_agent(client)
    for name, content, status, code in (
        ("run.exe", b"MZ", 415, "unsupported_file_type"),
        ("archive.tar.gz", b"x", 415, "unsupported_file_type"),
        ("empty.txt", b"", 400, "empty_file"),
        ("big.csv", b"x" * 4097, 413, "file_too_large"),
        ("huge.csv", b"x" * (200 << 10), 413, "file_too_large"),
    ):
        assert_error(upload(client, f"{AGENTS}/{agent['id']}/files", name, content), status, code)
    assert client.get(f"{AGENTS}/{agent['id']}/files").json()["data"] == []


def test_files_of_unknown_agents_are_404(client: TestClient) -> None:
    assert_error(upload(client, f"{AGENTS}/nope/files", "a.txt", b"hi"), 404, "not_found")
    assert_error(client.get(f"{AGENTS}/nope/files"), 404, "not_found")
