"""Knowledge datasets: uploaded text documents, their paragraph segments, and keyword retrieval
over an SQLite FTS5 index. Indexing itself runs in the background (see `indexing.py`)."""

from __future__ import annotations

import re
import sqlite3
from pathlib import PurePosixPath

from agent_builder.console.db import Database, like_pattern, new_id, to_model, utc_now
from agent_builder.console.errors import ApiError, not_found
from agent_builder.console.schemas.knowledge import (
    Dataset,
    DatasetCreate,
    DatasetUpdate,
    Document,
    RetrievalRecord,
    Segment,
)
from agent_builder.console.services import agents

DOCUMENT_EXTENSIONS = (".txt", ".md")
_MAX_QUERY_WORDS = 32
_WORD = re.compile(r"\w+")


def check_document_type(name: str) -> None:
    if PurePosixPath(name).suffix.lower() not in DOCUMENT_EXTENSIONS:
        raise ApiError(
            415,
            "unsupported_file_type",
            f"Only {' and '.join(DOCUMENT_EXTENSIONS)} documents can be uploaded.",
        )


# --- datasets -------------------------------------------------------------------------------

_DATASET_SELECT = (
    "SELECT d.*, (SELECT COUNT(*) FROM documents WHERE dataset_id = d.id) AS document_count FROM datasets d"
)


def _dataset_in(conn: sqlite3.Connection, dataset_id: str) -> Dataset:
    row = conn.execute(f"{_DATASET_SELECT} WHERE d.id = ?", (dataset_id,)).fetchone()
    if row is None:
        raise not_found("Dataset")
    return to_model(Dataset, row)


def list_datasets(db: Database, search: str | None = None) -> list[Dataset]:
    where, params = ("WHERE d.name LIKE ? ESCAPE '\\'", (like_pattern(search),)) if search else ("", ())
    with db.read() as conn:
        rows = conn.execute(f"{_DATASET_SELECT} {where} ORDER BY d.created_at DESC, d.id", params).fetchall()
    return [to_model(Dataset, row) for row in rows]


def get_dataset(db: Database, dataset_id: str) -> Dataset:
    with db.read() as conn:
        return _dataset_in(conn, dataset_id)


def create_dataset(db: Database, body: DatasetCreate) -> Dataset:
    dataset_id = new_id()
    with db.write() as conn:
        conn.execute(
            "INSERT INTO datasets (id, name, description, created_at) VALUES (?, ?, ?, ?)",
            (dataset_id, body.name, body.description, utc_now()),
        )
        return _dataset_in(conn, dataset_id)


def update_dataset(db: Database, dataset_id: str, body: DatasetUpdate) -> Dataset:
    with db.write() as conn:
        current = _dataset_in(conn, dataset_id)
        conn.execute(
            "UPDATE datasets SET name = ?, description = ? WHERE id = ?",
            (body.name or current.name, _or(body.description, current.description), dataset_id),
        )
        return _dataset_in(conn, dataset_id)


def delete_dataset(db: Database, dataset_id: str) -> None:
    with db.write() as conn:
        if conn.execute("DELETE FROM datasets WHERE id = ?", (dataset_id,)).rowcount == 0:
            raise not_found("Dataset")
        agents.detach_dataset(conn, dataset_id)


def _or(value: str | None, default: str) -> str:
    return default if value is None else value


# --- documents ------------------------------------------------------------------------------

_DOCUMENT_SELECT = (
    "SELECT d.id, d.dataset_id, d.name, d.size, d.indexing_status, d.error, d.created_at, "
    "(SELECT COUNT(*) FROM segments WHERE document_id = d.id) AS segment_count FROM documents d"
)


def _document_in(conn: sqlite3.Connection, dataset_id: str, document_id: str) -> Document:
    _dataset_in(conn, dataset_id)
    row = conn.execute(
        f"{_DOCUMENT_SELECT} WHERE d.id = ? AND d.dataset_id = ?", (document_id, dataset_id)
    ).fetchone()
    if row is None:
        raise not_found("Document")
    return to_model(Document, row)


def add_document(db: Database, dataset_id: str, name: str, data: bytes) -> Document:
    """Store an uploaded document as `waiting`; the indexing worker picks it up."""
    if not data.strip():
        raise ApiError(400, "empty_file", "The file is empty.")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ApiError(400, "invalid_encoding", "The file is not UTF-8 text.") from None
    document_id = new_id()
    with db.write() as conn:
        _dataset_in(conn, dataset_id)
        conn.execute(
            "INSERT INTO documents (id, dataset_id, name, size, content, indexing_status, created_at) "
            "VALUES (?, ?, ?, ?, ?, 'waiting', ?)",
            (document_id, dataset_id, name, len(data), text, utc_now()),
        )
        return _document_in(conn, dataset_id, document_id)


def list_documents(db: Database, dataset_id: str) -> list[Document]:
    with db.read() as conn:
        _dataset_in(conn, dataset_id)
        rows = conn.execute(
            f"{_DOCUMENT_SELECT} WHERE d.dataset_id = ? ORDER BY d.created_at, d.id", (dataset_id,)
        ).fetchall()
    return [to_model(Document, row) for row in rows]


def get_document(db: Database, dataset_id: str, document_id: str) -> Document:
    with db.read() as conn:
        return _document_in(conn, dataset_id, document_id)


def delete_document(db: Database, dataset_id: str, document_id: str) -> None:
    with db.write() as conn:
        _document_in(conn, dataset_id, document_id)
        conn.execute("DELETE FROM documents WHERE id = ?", (document_id,))


# --- segments and retrieval -----------------------------------------------------------------


def list_segments(db: Database, dataset_id: str, document_id: str) -> list[Segment]:
    with db.read() as conn:
        _document_in(conn, dataset_id, document_id)
        rows = conn.execute(
            "SELECT * FROM segments WHERE document_id = ? ORDER BY position", (document_id,)
        ).fetchall()
    return [to_model(Segment, row) for row in rows]


def set_segment_enabled(db: Database, dataset_id: str, segment_id: str, enabled: bool) -> Segment:
    with db.write() as conn:
        _dataset_in(conn, dataset_id)
        updated = conn.execute(
            "UPDATE segments SET enabled = ? WHERE id = ? "
            "AND document_id IN (SELECT id FROM documents WHERE dataset_id = ?)",
            (int(enabled), segment_id, dataset_id),
        ).rowcount
        if updated == 0:
            raise not_found("Segment")
        return to_model(
            Segment, conn.execute("SELECT * FROM segments WHERE id = ?", (segment_id,)).fetchone()
        )


def fts_query(text: str) -> str | None:
    """User text as a safe FTS5 query: each distinct word quoted, any of them may match.
    Quoting makes operators and punctuation (`AND`, `(`, `"`, `*`) plain words."""
    words = list(dict.fromkeys(word.lower() for word in _WORD.findall(text)))[:_MAX_QUERY_WORDS]
    return " OR ".join(f'"{word}"' for word in words) or None


def bm25_to_score(rank: float) -> float:
    """FTS5's bm25() is negative, lower is better; map its magnitude into (0, 1)."""
    relevance = max(-rank, 0.0)
    return relevance / (1.0 + relevance)


def retrieve(
    db: Database, dataset_id: str, query: str, top_k: int, score_threshold: float | None
) -> list[RetrievalRecord]:
    with db.read() as conn:
        _dataset_in(conn, dataset_id)
        return _search(conn, [dataset_id], query, top_k, score_threshold)


def search(
    db: Database, dataset_ids: list[str], query: str, top_k: int, score_threshold: float | None
) -> list[RetrievalRecord]:
    """`retrieve` across several datasets at once (best first); datasets that no longer exist
    simply contribute nothing."""
    with db.read() as conn:
        return _search(conn, dataset_ids, query, top_k, score_threshold)


def _search(
    conn: sqlite3.Connection, dataset_ids: list[str], query: str, top_k: int, score_threshold: float | None
) -> list[RetrievalRecord]:
    match = fts_query(query)
    if match is None or not dataset_ids:
        return []
    placeholders = ", ".join("?" * len(dataset_ids))
    rows = conn.execute(
        "SELECT s.id AS segment_id, s.document_id, d.name AS document_name, d.dataset_id, "
        "ds.name AS dataset_name, s.content, bm25(segments_fts) AS rank "
        "FROM segments_fts JOIN segments s ON s.pk = segments_fts.rowid "
        "JOIN documents d ON d.id = s.document_id JOIN datasets ds ON ds.id = d.dataset_id "
        f"WHERE segments_fts MATCH ? AND d.dataset_id IN ({placeholders}) "
        "AND d.indexing_status = 'completed' AND s.enabled = 1 ORDER BY rank LIMIT ?",
        (match, *dataset_ids, top_k),
    ).fetchall()
    records = [to_model(RetrievalRecord, row, score=bm25_to_score(row["rank"])) for row in rows]
    if score_threshold is not None:
        records = [record for record in records if record.score >= score_threshold]
    return records
