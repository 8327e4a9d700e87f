"""Names for everything a scenario creates: `E2E-<run_id>-<worker_id>-<label>-<n>`; and
`scenario_slug`, the file name a scenario's evidence folder and cassette take from its name.

The prefix plus run and worker ids let parallel workers stay apart and let a leftover audit
tell which run (and worker) created a resource that was not cleaned up.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

E2E_PREFIX = "E2E"
RUN_ID_PATTERN = re.compile(r"[a-z0-9]{1,12}")
WORKER_ID_PATTERN = re.compile(r"[a-z0-9]{1,8}")
# Keeps names short enough for product name limits while staying readable.
MAX_LABEL_LENGTH = 32

_NAME = re.compile(
    rf"{E2E_PREFIX}-(?P<run_id>{RUN_ID_PATTERN.pattern})-(?P<worker_id>{WORKER_ID_PATTERN.pattern})"
    r"-(?P<label>[a-z0-9]+(?:-[a-z0-9]+)*)-(?P<number>[0-9]+)"
)


@dataclass(frozen=True)
class E2EName:
    run_id: str
    worker_id: str
    label: str
    number: int


def slugify(label: str) -> str:
    """`"Support Bot (v2)"` -> `"support-bot-v2"`."""
    slug = re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")
    return slug[:MAX_LABEL_LENGTH].rstrip("-")


def scenario_slug(name: str, max_bytes: int = 80) -> str:
    """A file name for a scenario, unique per name, in any script:

    - a name whose letters and digits are ASCII once accents are taken off keeps the slug it has
      always had (committed cassettes are named by it): `"Café: 500 → retry!"` -> `"cafe-500-retry"`;
    - any other name keeps its letters in their own script, lowercased, and ends with 8 hex digits
      of the name's hash, so names that differ only in what the slug drops never share a file:
      `"保存智能体"` -> `"保存智能体-<hash>"`; a name with no letter or digit is `scenario-<hash>`.

    At most `max_bytes` bytes of UTF-8 (a file name takes 255).
    """
    decomposed = unicodedata.normalize("NFKD", name)
    digest = hashlib.sha1(name.encode("utf-8")).hexdigest()[:8]
    if all(char.isascii() for char in decomposed if _is_letter_or_digit(char)):
        ascii_name = decomposed.encode("ascii", "ignore").decode()
        slug = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")[:max_bytes].rstrip("-")
        return slug or f"scenario-{digest}"
    kept = (char if unicodedata.category(char)[0] in "LNM" else " " for char in name.lower())
    words = "-".join(unicodedata.normalize("NFC", "".join(kept)).split())
    room = max_bytes - len(digest) - 1
    readable = words.encode("utf-8")[:room].decode("utf-8", "ignore").rstrip("-")
    return f"{readable}-{digest}" if readable else f"scenario-{digest}"


def _is_letter_or_digit(char: str) -> bool:
    return unicodedata.category(char)[0] in "LN"


def e2e_name(label: str, *, run_id: str, worker_id: str, counter: Iterator[int]) -> str:
    """A unique, auditable name; `counter` (e.g. `itertools.count(1)`) supplies `n`.

    Share one counter per worker process: a per-scenario counter would repeat names across
    scenarios, which collides with a leftover whose cleanup failed.
    """
    if not RUN_ID_PATTERN.fullmatch(run_id):
        raise ValueError(f"run id {run_id!r} must match {RUN_ID_PATTERN.pattern}")
    if not WORKER_ID_PATTERN.fullmatch(worker_id):
        raise ValueError(f"worker id {worker_id!r} must match {WORKER_ID_PATTERN.pattern}")
    slug = slugify(label)
    if not slug:
        raise ValueError(f"label {label!r} has no letters or digits to name a resource by")
    return f"{E2E_PREFIX}-{run_id}-{worker_id}-{slug}-{next(counter)}"


def parse_e2e_name(name: str) -> E2EName | None:
    match = _NAME.fullmatch(name)
    if match is None:
        return None
    return E2EName(match["run_id"], match["worker_id"], match["label"], int(match["number"]))


def is_e2e_name(name: str) -> bool:
    return parse_e2e_name(name) is not None


def belongs_to_run(name: str, run_id: str) -> bool:
    parsed = parse_e2e_name(name)
    return parsed is not None and parsed.run_id == run_id
