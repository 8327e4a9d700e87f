"""Admin accounts and console sessions. A session token is handed out once (cookie and
`access_token`) and stored only as a SHA-256 hash, so a copy of the database cannot sign in."""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets
from datetime import UTC, datetime, timedelta
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import APIKeyCookie, HTTPAuthorizationCredentials, HTTPBearer

from agent_builder.console.db import Database, to_timestamp, utc_now
from agent_builder.console.errors import ApiError

SESSION_COOKIE = "ab_session"
SESSION_LIFETIME = timedelta(days=7)

# scrypt cost (n, r, p). Stored hashes carry their own parameters, so this can change later.
SCRYPT_COST = (2**14, 8, 1)


def hash_password(password: str) -> str:
    n, r, p = SCRYPT_COST
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=n, r=r, p=p)
    return f"scrypt${n}${r}${p}${salt.hex()}${digest.hex()}"


def verify_password(password: str, stored: str) -> bool:
    scheme, n, r, p, salt_hex, digest_hex = stored.split("$")
    if scheme != "scrypt":
        return False
    digest = hashlib.scrypt(password.encode(), salt=bytes.fromhex(salt_hex), n=int(n), r=int(r), p=int(p))
    return hmac.compare_digest(digest.hex(), digest_hex)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def ensure_admin(db: Database, email: str, password: str) -> None:
    """Create the configured admin, or reset its password when the configuration changed it: that
    ends every session of the account (whoever had the old password is signed out)."""
    email = email.strip().lower()
    _decoy_hash(SCRYPT_COST)  # made now, so that the first unknown account costs no extra
    with db.read() as conn:
        row = conn.execute("SELECT password_hash FROM admins WHERE email = ?", (email,)).fetchone()
    if row is not None and verify_password(password, row["password_hash"]):
        return
    with db.write() as conn:
        conn.execute(
            "INSERT INTO admins (email, password_hash, created_at) VALUES (?, ?, ?) "
            "ON CONFLICT (email) DO UPDATE SET password_hash = excluded.password_hash",
            (email, hash_password(password), utc_now()),
        )
        conn.execute("DELETE FROM sessions WHERE email = ?", (email,))


@functools.cache
def _decoy_hash(cost: tuple[int, int, int]) -> str:
    """A hash to check unknown accounts against, so that they cost the same scrypt work."""
    n, r, p = cost
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(secrets.token_bytes(16), salt=salt, n=n, r=r, p=p)
    return f"scrypt${n}${r}${p}${salt.hex()}${digest.hex()}"


def login(db: Database, email: str, password: str) -> str:
    """Check the credentials and return a new session token. An unknown account is checked
    against a decoy hash of the same cost: its answer takes as long as a wrong password's."""
    email = email.strip().lower()
    with db.read() as conn:
        row = conn.execute("SELECT password_hash FROM admins WHERE email = ?", (email,)).fetchone()
    stored = row["password_hash"] if row is not None else _decoy_hash(SCRYPT_COST)
    if not verify_password(password, stored) or row is None:
        raise ApiError(401, "invalid_credentials", "Invalid email or password.")
    token = secrets.token_urlsafe(32)
    now = datetime.now(UTC)
    with db.write() as conn:
        conn.execute("DELETE FROM sessions WHERE expires_at < ?", (utc_now(),))
        conn.execute(
            "INSERT INTO sessions (token_hash, email, created_at, expires_at) VALUES (?, ?, ?, ?)",
            (token_hash(token), email, utc_now(), to_timestamp(now + SESSION_LIFETIME)),
        )
    return token


def logout(db: Database, token: str) -> None:
    with db.write() as conn:
        conn.execute("DELETE FROM sessions WHERE token_hash = ?", (token_hash(token),))


def session_email(db: Database, token: str) -> str | None:
    with db.read() as conn:
        row = conn.execute(
            "SELECT email FROM sessions WHERE token_hash = ? AND expires_at > ?",
            (token_hash(token), utc_now()),
        ).fetchone()
    return None if row is None else row["email"]


def bearer_token(authorization: str | None) -> str | None:
    """The token of an `Authorization: Bearer <token>` header; None for anything else, a bearer
    without a token (`Bearer`, `Bearer `, only spaces) or with a space inside it included: a
    malformed bearer is not a bearer (so it neither authenticates nor skips the origin check)."""
    scheme, _, credentials = (authorization or "").strip().partition(" ")
    token = credentials.strip()
    if scheme.lower() != "bearer" or not token or any(char.isspace() for char in token):
        return None
    return token


def session_token(request: Request) -> str | None:
    """The session token from a well-formed `Authorization: Bearer` header, else from the cookie."""
    return bearer_token(request.headers.get("authorization")) or request.cookies.get(SESSION_COOKIE) or None


def signed_in_email(request: Request) -> str | None:
    """The signed-in admin's email, or None (used by the UI pages to decide on a redirect)."""
    token = session_token(request)
    if token is None:
        return None
    db: Database = request.app.state.db
    return session_email(db, token)


# Declared only so /openapi.json documents both ways to authenticate; the check is ours.
_cookie_scheme = APIKeyCookie(name=SESSION_COOKIE, auto_error=False, scheme_name="SessionCookie")
_bearer_scheme = HTTPBearer(auto_error=False, scheme_name="SessionBearer")


def require_admin(
    request: Request,
    _cookie: Annotated[str | None, Depends(_cookie_scheme)],
    _bearer: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer_scheme)],
) -> str:
    email = signed_in_email(request)
    if email is None:
        raise ApiError(401, "unauthorized", "Sign in to continue.")
    return email
