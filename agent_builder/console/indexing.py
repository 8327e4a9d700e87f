"""Background indexing of knowledge documents: `waiting → indexing → completed | error`.

The worker finds its work in the database, not in memory, so documents left `waiting` or
`indexing` by a stopped console are picked up again at the next start."""

from __future__ import annotations

import logging
import re
import threading

from agent_builder.console.db import Database, new_id

logger = logging.getLogger(__name__)

MAX_SEGMENT_CHARS = 800
_BLANK_LINES = re.compile(r"\n[ \t\r\f\v]*\n")
_POLL_SECONDS = 5.0


def split_into_segments(text: str) -> list[str]:
    """Paragraphs (separated by blank lines); paragraphs longer than MAX_SEGMENT_CHARS are cut,
    at the last whitespace before the limit when there is one."""
    segments: list[str] = []
    for paragraph in _BLANK_LINES.split(text.replace("\r\n", "\n")):
        rest = paragraph.strip()
        while len(rest) > MAX_SEGMENT_CHARS:
            window = rest[: MAX_SEGMENT_CHARS + 1]
            cut = max(window.rfind(" "), window.rfind("\n"), window.rfind("\t"))
            if cut < MAX_SEGMENT_CHARS // 2:
                cut = MAX_SEGMENT_CHARS
            segments.append(rest[:cut].strip())
            rest = rest[cut:].strip()
        if rest:
            segments.append(rest)
    return segments


def index_next_document(db: Database) -> bool:
    """Index the oldest unfinished document. Returns False when there was nothing to do."""
    with db.write() as conn:
        row = conn.execute(
            "SELECT id, content FROM documents WHERE indexing_status IN ('waiting', 'indexing') "
            "ORDER BY created_at, id LIMIT 1"
        ).fetchone()
        if row is None:
            return False
        document_id, content = row["id"], row["content"]
        conn.execute("UPDATE documents SET indexing_status = 'indexing' WHERE id = ?", (document_id,))
    segments = split_into_segments(content)
    _finish(db, document_id, segments, None if segments else "The document contains no text to index.")
    return True


def _finish(db: Database, document_id: str, segments: list[str], error: str | None) -> None:
    with db.write() as conn:
        # The document may have been deleted while we were splitting it.
        if conn.execute("SELECT 1 FROM documents WHERE id = ?", (document_id,)).fetchone() is None:
            return
        conn.executemany(
            "INSERT INTO segments (id, document_id, position, content) VALUES (?, ?, ?, ?)",
            [(new_id(), document_id, position, text) for position, text in enumerate(segments)],
        )
        conn.execute(
            "UPDATE documents SET indexing_status = ?, error = ? WHERE id = ?",
            ("error" if error else "completed", error, document_id),
        )


class IndexingWorker:
    """One daemon thread that indexes documents until stopped; `notify()` wakes it early."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="knowledge-indexing", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def notify(self) -> None:
        self._wake.set()

    def stop(self) -> None:
        self._stopping.set()
        self._wake.set()
        self._thread.join(timeout=10)

    def _run(self) -> None:
        while not self._stopping.is_set():
            self._wake.clear()
            try:
                while not self._stopping.is_set() and index_next_document(self._db):
                    pass
            except Exception:
                # Keep the worker alive: a failing database call must not stop all future indexing.
                logger.exception("knowledge indexing failed")
            self._wake.wait(_POLL_SECONDS)
