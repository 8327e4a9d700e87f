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


def test_an_agent_holds_at_most_its_file_limit(make_client: Any) -> None:
    client = make_client(max_agent_files=3)
    sign_in(client)
    agent, other = create_agent(client), create_agent(client, "Other")
    files = f"{AGENTS}/{agent['id']}/files"
    for number in range(3):  # the limit itself is allowed
        assert upload(client, files, f"{number}.txt", b"hi").status_code == 201
    listed = client.get(files).json()
    assert (len(listed["data"]), listed["limit"]) == (3, 3)
    refused = upload(client, files, "fourth.txt", b"hi")
    assert_error(refused, 409, "file_limit_reached")
    assert refused.json()["message"] == "An agent can have at most 3 files. Delete a file to upload another."
    assert [file["name"] for file in client.get(files).json()["data"]] == ["0.txt", "1.txt", "2.txt"]
    assert upload(client, f"{AGENTS}/{other['id']}/files", "a.txt", b"hi").status_code == 201  # per agent
    client.delete(f"{files}/{listed['data'][0]['id']}")
    assert upload(client, files, "fourth.txt", b"hi").status_code == 201  # a freed place is usable


def test_names_with_spaces_dots_and_other_scripts_are_kept_exactly(client: TestClient) -> None:
    agent = create_agent(client)
    files = f"{AGENTS}/{agent['id']}/files"
    names = ["meeting notes 2026.md", "Überblick café – naïve.txt", "report.v2.final.csv", "データ 一覧.json"]
    for name in names:
        assert upload(client, files, name, b"hi").json()["name"] == name
    assert [file["name"] for file in client.get(files).json()["data"]] == names
