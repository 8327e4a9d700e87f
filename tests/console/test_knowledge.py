from __future__ import annotations

from pathlib import Path
from typing import Any

from api_shortcuts import assert_error, create_agent, save_config, sign_in, upload, wait_for_indexing
from fastapi.testclient import TestClient

from agent_builder.console.db import Database
from agent_builder.console.indexing import MAX_SEGMENT_CHARS, index_next_document, split_into_segments
from agent_builder.console.schemas.knowledge import DatasetCreate
from agent_builder.console.services import knowledge
from agent_builder.console.services.knowledge import bm25_to_score, fts_query

DATASETS = "/console/api/datasets"

HANDBOOK = b"""# Handbook

Refunds are processed within five business days.

Shipping to Norway takes two weeks.
Express shipping is available.

Our office dog is called Biscuit.
"""


def _dataset(client: TestClient, name: str = "Handbook") -> dict[str, Any]:
    response = client.post(DATASETS, json={"name": name, "description": "Company facts"})
    assert response.status_code == 201, response.text
    return response.json()


def _indexed(
    client: TestClient, dataset: dict[str, Any], name: str = "handbook.md", content: bytes = HANDBOOK
):
    response = upload(client, f"{DATASETS}/{dataset['id']}/documents", name, content)
    assert response.status_code == 201, response.text
    return wait_for_indexing(client, dataset["id"], response.json()["id"])


def _retrieve(client: TestClient, dataset_id: str, **body: Any) -> Any:
    return client.post(f"{DATASETS}/{dataset_id}/retrieve", json=body)


def test_dataset_crud_and_search(client: TestClient) -> None:
    dataset = _dataset(client)
    assert dataset["name"] == "Handbook" and dataset["document_count"] == 0 and dataset["description"]
    _dataset(client, "Recipes 100%")
    assert [d["name"] for d in client.get(DATASETS, params={"search": "hand"}).json()["data"]] == ["Handbook"]
    assert [d["name"] for d in client.get(DATASETS, params={"search": "0%"}).json()["data"]] == [
        "Recipes 100%"
    ]
    assert client.get(DATASETS, params={"search": "_"}).json()["data"] == []  # LIKE wildcards are literal
    assert len(client.get(DATASETS).json()["data"]) == 2

    updated = client.patch(f"{DATASETS}/{dataset['id']}", json={"description": ""}).json()
    assert (updated["name"], updated["description"]) == ("Handbook", "")
    assert client.get(f"{DATASETS}/{dataset['id']}").json() == updated
    assert_error(client.patch(f"{DATASETS}/{dataset['id']}", json={"name": ""}), 422, "invalid_request")
    assert_error(client.get(f"{DATASETS}/nope"), 404, "not_found")


def test_upload_is_indexed_in_the_background_into_paragraph_segments(client: TestClient) -> None:
    dataset = _dataset(client)
    response = upload(client, f"{DATASETS}/{dataset['id']}/documents", "handbook.md", HANDBOOK)
    assert response.status_code == 201
    document = response.json()
    assert document["indexing_status"] == "waiting" and document["size"] == len(HANDBOOK)
    assert document["name"] == "handbook.md" and document["error"] is None

    done = wait_for_indexing(client, dataset["id"], document["id"])
    assert done["indexing_status"] == "completed" and done["segment_count"] == 4
    segments = client.get(f"{DATASETS}/{dataset['id']}/documents/{document['id']}/segments").json()["data"]
    assert [s["content"] for s in segments] == [
        "# Handbook",
        "Refunds are processed within five business days.",
        "Shipping to Norway takes two weeks.\nExpress shipping is available.",
        "Our office dog is called Biscuit.",
    ]
    assert [s["position"] for s in segments] == [0, 1, 2, 3] and all(s["enabled"] for s in segments)
    assert client.get(f"{DATASETS}/{dataset['id']}").json()["document_count"] == 1
    assert [d["id"] for d in client.get(f"{DATASETS}/{dataset['id']}/documents").json()["data"]] == [
        document["id"]
    ]


def test_long_paragraphs_are_cut_near_the_limit_at_whitespace() -> None:
    words = " ".join(f"word{i}" for i in range(400))
    segments = split_into_segments(f"intro\n\n{words}\n  \n\n\noutro")
    assert segments[0] == "intro" and segments[-1] == "outro"
    middle = segments[1:-1]
    assert len(middle) >= 3 and all(len(s) <= MAX_SEGMENT_CHARS for s in middle)
    assert " ".join(middle) == words  # nothing lost, no word split
    assert split_into_segments("x" * 2000) == ["x" * 800, "x" * 800, "x" * 400]
    assert split_into_segments("a\r\n\r\nb") == ["a", "b"]


def test_the_indexer_says_whether_there_was_a_document_to_index(tmp_path: Path) -> None:
    # The worker keeps indexing while this is True, so a False after real work would stall the backlog.
    db = Database(tmp_path / "console.db")
    dataset = knowledge.create_dataset(db, DatasetCreate(name="Backlog"))
    for name in ("one.md", "two.md"):
        knowledge.add_document(db, dataset.id, name, b"Alpha paragraph.")
    assert [index_next_document(db) for _ in range(3)] == [True, True, False]
    assert [d.indexing_status for d in knowledge.list_documents(db, dataset.id)] == ["completed"] * 2
    db.close()


def test_retrieval_ranks_keyword_matches_with_scores_in_0_1(client: TestClient) -> None:
    dataset = _dataset(client)
    document = _indexed(client, dataset)
    records = _retrieve(client, dataset["id"], query="How long does shipping take?").json()["records"]
    assert records[0]["content"].startswith("Shipping to Norway")
    assert records[0]["document_id"] == document["id"] and records[0]["document_name"] == "handbook.md"
    assert all(0 < r["score"] <= 1 for r in records)
    assert [r["score"] for r in records] == sorted((r["score"] for r in records), reverse=True)
    # Stemming: "refund" finds "Refunds".
    assert (
        _retrieve(client, dataset["id"], query="refund").json()["records"][0]["content"].startswith("Refunds")
    )
    assert _retrieve(client, dataset["id"], query="zebra").json()["records"] == []


def test_retrieval_top_k_and_score_threshold(client: TestClient) -> None:
    dataset = _dataset(client)
    _indexed(client, dataset)
    query = "shipping refunds dog handbook"
    assert len(_retrieve(client, dataset["id"], query=query).json()["records"]) == 3  # default top_k
    assert len(_retrieve(client, dataset["id"], query=query, top_k=1).json()["records"]) == 1
    everything = _retrieve(client, dataset["id"], query=query, top_k=20).json()["records"]
    assert len(everything) == 4
    cut = everything[1]["score"]
    above = _retrieve(client, dataset["id"], query=query, top_k=20, score_threshold=cut).json()["records"]
    assert [r["segment_id"] for r in above] == [r["segment_id"] for r in everything if r["score"] >= cut]
    assert _retrieve(client, dataset["id"], query=query, score_threshold=1).json()["records"] == []


def test_fts_syntax_in_user_text_is_harmless(client: TestClient) -> None:
    dataset = _dataset(client)
    _indexed(client, dataset)
    for query in (
        '"foo AND (',
        "NEAR(a b)",
        "*",
        "a:b",
        "-x",
        '""',
        "^start",
        "))) OR ((( NOT",
        "x" * 2000,
        "!!!",
    ):
        response = _retrieve(client, dataset["id"], query=query)
        assert response.status_code == 200, (query, response.text)
        assert isinstance(response.json()["records"], list)
    # Operators are plain words: "and" matches nothing here, "dog" still does.
    assert len(_retrieve(client, dataset["id"], query="dog AND (").json()["records"]) == 1


def test_fts_query_quotes_every_word() -> None:
    assert fts_query('"foo AND (bar') == '"foo" OR "and" OR "bar"'
    assert fts_query("?!") is None
    assert 0 < bm25_to_score(-0.000001) < bm25_to_score(-1.0) < bm25_to_score(-50.0) <= 1


def test_disabled_segments_are_not_retrieved(client: TestClient) -> None:
    dataset = _dataset(client)
    document = _indexed(client, dataset)
    segment = _retrieve(client, dataset["id"], query="biscuit").json()["records"][0]
    url = f"{DATASETS}/{dataset['id']}/segments/{segment['segment_id']}"
    response = client.patch(url, json={"enabled": False})
    assert response.status_code == 200 and response.json()["enabled"] is False
    assert _retrieve(client, dataset["id"], query="biscuit").json()["records"] == []
    segments = client.get(f"{DATASETS}/{dataset['id']}/documents/{document['id']}/segments").json()["data"]
    assert [s["enabled"] for s in segments].count(False) == 1
    client.patch(url, json={"enabled": True})
    assert len(_retrieve(client, dataset["id"], query="biscuit").json()["records"]) == 1
    # A segment is only reachable through its own dataset.
    other = _dataset(client, "Other")
    assert_error(
        client.patch(f"{DATASETS}/{other['id']}/segments/{segment['segment_id']}", json={"enabled": False}),
        404,
        "not_found",
    )


def test_retrieval_is_scoped_to_the_dataset(client: TestClient) -> None:
    first, second = _dataset(client, "First"), _dataset(client, "Second")
    _indexed(client, first)
    _indexed(client, second, "other.txt", b"Biscuits are tasty.")
    records = _retrieve(client, second["id"], query="biscuit").json()["records"]
    assert [r["document_name"] for r in records] == ["other.txt"]


def test_bad_documents_are_refused(make_client: Any) -> None:
    client = make_client(max_document_bytes=2048)
    sign_in(client)
    dataset = _dataset(client)
    for name, content, status, code in (
        ("notes.pdf", b"%PDF-1.4", 415, "unsupported_file_type"),
        ("notes", b"text", 415, "unsupported_file_type"),
        ("notes.txt", b"", 400, "empty_file"),
        ("notes.txt", b" \n\n \t", 400, "empty_file"),
        ("notes.txt", "café".encode("latin-1"), 400, "invalid_encoding"),
        ("notes.md", b"x" * 2049, 413, "file_too_large"),
        ("   ", b"x", 400, "invalid_request"),
    ):
        assert_error(upload(client, f"{DATASETS}/{dataset['id']}/documents", name, content), status, code)
    assert client.get(f"{DATASETS}/{dataset['id']}/documents").json()["data"] == []


def test_huge_uploads_are_cut_off_while_reading(make_client: Any) -> None:
    client = make_client(max_document_bytes=1024)
    sign_in(client)
    dataset = _dataset(client)
    # Far beyond the limit plus multipart overhead: refused by the body limit, not parsed.
    response = upload(client, f"{DATASETS}/{dataset['id']}/documents", "big.txt", b"a" * (2 << 20))
    assert_error(response, 413, "file_too_large")


def test_upload_accepts_exactly_the_limit_and_strips_paths_and_bom(make_client: Any) -> None:
    client = make_client(max_document_bytes=64)
    sign_in(client)
    dataset = _dataset(client)
    content = "\ufeffhello".encode() + b"!" * (64 - 8)
    assert len(content) == 64
    response = upload(client, f"{DATASETS}/{dataset['id']}/documents", "C:\\Users\\me\\notes.TXT", content)
    assert response.status_code == 201, response.text
    assert response.json()["name"] == "notes.TXT"
    document = wait_for_indexing(client, dataset["id"], response.json()["id"])
    segments = client.get(f"{DATASETS}/{dataset['id']}/documents/{document['id']}/segments").json()["data"]
    assert segments[0]["content"].startswith("hello")


def test_upload_needs_a_file_field(client: TestClient) -> None:
    dataset = _dataset(client)
    url = f"{DATASETS}/{dataset['id']}/documents"
    assert_error(client.post(url, data={"other": "x"}), 422, "invalid_request")
    assert_error(client.post(url, json={"file": "x"}), 422, "invalid_request")
    truncated = client.post(
        url, content=b"--x\r\nbroken", headers={"Content-Type": "multipart/form-data; boundary=x"}
    )
    assert_error(truncated, 422, "invalid_request")
    no_boundary = client.post(url, content=b"whatever", headers={"Content-Type": "multipart/form-data"})
    assert_error(no_boundary, 400, "invalid_request")
    assert_error(upload(client, f"{DATASETS}/nope/documents", "a.txt", b"hi"), 404, "not_found")


def test_whitespace_only_unicode_document_ends_in_error(client: TestClient) -> None:
    dataset = _dataset(client)
    response = upload(client, f"{DATASETS}/{dataset['id']}/documents", "blank.txt", "\u3000\u00a0".encode())
    assert response.status_code == 201
    document = wait_for_indexing(client, dataset["id"], response.json()["id"])
    assert document["indexing_status"] == "error"
    assert document["error"] == "The document contains no text to index."


def test_deleting_a_document_removes_its_segments_from_retrieval(client: TestClient) -> None:
    dataset = _dataset(client)
    document = _indexed(client, dataset)
    assert client.delete(f"{DATASETS}/{dataset['id']}/documents/{document['id']}").status_code == 204
    assert_error(client.get(f"{DATASETS}/{dataset['id']}/documents/{document['id']}"), 404, "not_found")
    assert _retrieve(client, dataset["id"], query="biscuit").json()["records"] == []
    assert client.get(f"{DATASETS}/{dataset['id']}").json()["document_count"] == 0


def test_deleting_a_dataset_detaches_it_from_drafts(client: TestClient) -> None:
    dataset, kept = _dataset(client), _dataset(client, "Kept")
    _indexed(client, dataset)
    agent = create_agent(client)
    draft = save_config(client, agent, knowledge={"dataset_ids": [dataset["id"], kept["id"]], "top_k": 5})
    assert client.delete(f"{DATASETS}/{dataset['id']}").status_code == 204
    assert_error(client.get(f"{DATASETS}/{dataset['id']}"), 404, "not_found")
    after = client.get(f"/console/api/agents/{agent['id']}").json()["draft"]
    assert after["config"]["knowledge"] == {
        "dataset_ids": [kept["id"]],
        "top_k": 5,
        "score_threshold": None,
        "retrieval_mode": "agent_decided",
    }
    assert after["revision"] == draft["revision"] + 1  # a change to the draft, visible to open editors
    assert_error(client.delete(f"{DATASETS}/{dataset['id']}"), 404, "not_found")


def test_retrieve_input_bounds(client: TestClient) -> None:
    dataset = _dataset(client)
    for body in (
        {"query": ""},
        {"query": "x", "top_k": 0},
        {"query": "x", "top_k": 21},
        {"query": "x", "score_threshold": 1.5},
    ):
        assert_error(_retrieve(client, dataset["id"], **body), 422, "invalid_request")
    assert_error(_retrieve(client, "nope", query="x"), 404, "not_found")
