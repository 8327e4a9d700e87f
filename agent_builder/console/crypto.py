"""Secrets at rest: every column in SECRET_COLUMNS holds `fernet:<token>`, never the secret.

The key is AGENT_BUILDER_SECRET_KEY (several comma-separated keys, newest first, during a
rotation), else a key file generated beside the database with mode 0600. Services write with
`seal(db, value)` and read with `unseal(db, stored)`; `install` migrates plaintext rows left by
an older console and refuses to start when the stored secrets do not open with the key.
Rotation: `agent-builder console rotate-secrets` re-encrypts everything with the newest key.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import stat
import weakref
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from cryptography.fernet import Fernet, InvalidToken, MultiFernet

from agent_builder.console.config import ConsoleConfig
from agent_builder.console.db import Database
from agent_builder.settings import ConfigError

logger = logging.getLogger(__name__)

PREFIX = "fernet:"
KEY_FILE_SUFFIX = ".secret-key"
KEY_VARIABLE = "AGENT_BUILDER_SECRET_KEY"


@dataclass(frozen=True)
class SecretColumn:
    table: str
    column: str


# Every column holding a secret. A new one is one line here: migration and rotation cover it.
SECRET_COLUMNS: list[SecretColumn] = [
    SecretColumn("providers", "api_key"),
    SecretColumn("tool_credentials", "secret"),
    SecretColumn("agent_env_vars", "value"),
]


class SecretBox:
    """Encrypts with the first key, decrypts with any of them."""

    def __init__(self, keys: list[bytes], source: str) -> None:
        self._fernet = MultiFernet([Fernet(key) for key in keys])
        self.source = source  # where the keys came from, for error messages

    def seal(self, plaintext: str) -> str:
        return PREFIX + self._fernet.encrypt(plaintext.encode()).decode()

    def open(self, stored: str) -> str:
        if not stored.startswith(PREFIX):
            raise ValueError("not a sealed secret")
        return self._fernet.decrypt(stored.removeprefix(PREFIX).encode()).decode()

    def rotate(self, stored: str) -> str:
        return PREFIX + self._fernet.rotate(stored.removeprefix(PREFIX).encode()).decode()


def key_file(config: ConsoleConfig) -> Path:
    return config.db_path.with_name(config.db_path.name + KEY_FILE_SUFFIX)


def load_box(config: ConsoleConfig) -> SecretBox:
    """The configured keys, else the key file beside the database (created on first use)."""
    if config.secret_key:
        keys = [key.strip().encode() for key in config.secret_key.split(",")]
        return SecretBox(keys, KEY_VARIABLE)
    path = key_file(config)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return SecretBox([_read_key_file(path)], f"the key file {path}")
    with os.fdopen(descriptor, "wb") as handle:
        handle.write(Fernet.generate_key())
    logger.info("generated the secret key file %s (keep it with the database, and private)", path)
    return SecretBox([_read_key_file(path)], f"the key file {path}")


def _read_key_file(path: Path) -> bytes:
    if stat.S_IMODE(path.stat().st_mode) & 0o077:
        logger.warning("%s was readable by others: its mode is now 0600", path)
        path.chmod(0o600)
    key = path.read_bytes().strip()
    try:
        Fernet(key)
    except ValueError:
        raise ConfigError(f"{path} does not hold a Fernet key. Fix: restore it from a backup.") from None
    return key


_boxes: weakref.WeakKeyDictionary[Database, SecretBox] = weakref.WeakKeyDictionary()


def install(db: Database, box: SecretBox) -> None:
    """Use `box` for `db`: seal plaintext rows, and check that every sealed one opens."""
    _boxes[db] = box
    sealed = 0
    with db.write() as conn:
        for column, rowid, value in _stored_secrets(conn):
            if value.startswith(PREFIX):
                _check_opens(box, value, column)
            else:
                _replace(conn, column, rowid, box.seal(value))
                sealed += 1
    if sealed:
        logger.info("encrypted %d stored secrets that were kept in plain text", sealed)


def _stored_secrets(conn: sqlite3.Connection) -> Iterator[tuple[SecretColumn, int, str]]:
    """(column, rowid, stored value) of every secret that is set."""
    for column in SECRET_COLUMNS:
        rows = conn.execute(f"SELECT rowid, {column.column} AS value FROM {column.table}").fetchall()
        for row in rows:
            if row["value"] is not None:
                yield column, row["rowid"], row["value"]


def _replace(conn: sqlite3.Connection, column: SecretColumn, rowid: int, stored: str) -> None:
    conn.execute(f"UPDATE {column.table} SET {column.column} = ? WHERE rowid = ?", (stored, rowid))


def _check_opens(box: SecretBox, stored: str, column: SecretColumn) -> None:
    try:
        box.open(stored)
    except InvalidToken:
        raise ConfigError(
            f"The stored secrets ({column.table}.{column.column}) cannot be decrypted with "
            f"{box.source}. Fix: set {KEY_VARIABLE} to the key they were encrypted with (or "
            "'new,old' during a rotation), or restore the key file beside the database."
        ) from None


def seal(db: Database, plaintext: str) -> str:
    """What to store for a secret."""
    return _boxes[db].seal(plaintext)


def unseal(db: Database, stored: str) -> str:
    """The secret behind a stored value."""
    return _boxes[db].open(stored)


def rotate_secrets(db: Database) -> int:
    """Re-encrypt every stored secret with the newest key; returns how many."""
    box = _boxes[db]
    count = 0
    with db.write() as conn:
        for column, rowid, value in _stored_secrets(conn):
            _replace(conn, column, rowid, box.rotate(value))
            count += 1
    return count


def rotate_secrets_command(db_path: Path) -> int:
    """`agent-builder console rotate-secrets --db PATH`: exit 0 with a count, 2 on a key problem."""
    try:
        config = ConsoleConfig.load(db_path=db_path)
        db = Database(config.db_path)
        try:
            install(db, load_box(config))
            count = rotate_secrets(db)
        finally:
            db.close()
    except ConfigError as exc:
        logger.error("%s", exc)
        return 2
    print(f"re-encrypted {count} stored secrets with the newest key")
    return 0
