"""The building blocks of `Settings`: value types with their validators, and the field metadata.

Every field carries, besides pydantic's own description, what it `accepts` and optionally the
default as the README shows it (`shown_default`): error messages and the README table read them
through `accepts()`, `shown_default()` and `is_secret()`, so both stay in step with the model.
"""

from __future__ import annotations

import os
import re
import secrets
import ssl
import string
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal, get_args
from urllib.parse import urlsplit

from pydantic import AfterValidator, BeforeValidator, Field, SecretStr
from pydantic.fields import FieldInfo


def _parse_bool(value: object) -> object:
    # Stricter than pydantic's bool parsing (which also takes on/off, t/f, y/n): the README
    # promises exactly these words.
    if isinstance(value, str):
        word = value.strip().lower()
        if word in ("1", "true", "yes"):
            return True
        if word in ("0", "false", "no"):
            return False
        raise ValueError("expected 1/0, true/false or yes/no")
    return value


def _url(*schemes: str) -> Callable[[str], str]:
    def check(value: str) -> str:
        parts = urlsplit(value)
        if parts.scheme not in schemes or not parts.hostname:
            raise ValueError(
                f"expected a URL starting with {' or '.join(f'{scheme}://' for scheme in schemes)}"
            )
        # Callers append paths; a trailing slash would double up.
        return value.rstrip("/")

    return check


def executable(path: Path) -> Path:
    if not path.is_file():
        raise ValueError("no such file")
    if not os.access(path, os.X_OK):
        raise ValueError("file is not executable")
    return path


def ca_file(path: Path) -> Path:
    """A PEM file with at least one certificate that an SSL context accepts."""
    try:
        ssl.create_default_context(cafile=str(path))
    except FileNotFoundError:
        raise ValueError("no such file") from None
    except (ssl.SSLError, OSError) as error:
        raise ValueError(f"not a PEM certificate file ({error})") from None
    return path


HOST_RULE = re.compile(r"MAP ([A-Za-z0-9.-]+) (\d{1,3}(?:\.\d{1,3}){3})")


def host_rules(value: str) -> str:
    """Chromium's `--host-resolver-rules`, the subset the suite applies to its own calls too:
    `MAP <host name> <IPv4 address>`, comma-separated."""
    for rule in value.split(","):
        if not HOST_RULE.fullmatch(rule.strip()):
            raise ValueError(f"{rule.strip()!r} is not `MAP <host name> <IPv4 address>`")
    return value


def _trimmed(secret: SecretStr) -> SecretStr:
    value = secret.get_secret_value()
    if value != value.strip():
        raise ValueError("has leading or trailing whitespace (copied with a newline?)")
    return secret


def new_run_id() -> str:
    return "".join(secrets.choice(string.ascii_lowercase + string.digits) for _ in range(8))


MAX_AUTO_WORKERS = 4
MAX_WORKERS = 16


def _workers(value: object) -> object:
    text = str(value).strip()
    if text == "auto":
        return text
    if not text.isdigit() or not 1 <= int(text) <= MAX_WORKERS:
        raise ValueError(f"expected `auto` or a whole number from 1 to {MAX_WORKERS}")
    return int(text)


EnvBool = Annotated[bool, BeforeValidator(_parse_bool)]
HttpUrl = Annotated[str, AfterValidator(_url("http", "https"))]
WsUrl = Annotated[str, AfterValidator(_url("ws", "wss"))]
Port = Annotated[int, Field(ge=1, le=65535)]
NonEmpty = Annotated[str, Field(min_length=1)]
ApiKey = Annotated[SecretStr, AfterValidator(_trimmed)]
Workers = Annotated[Literal["auto"] | int, BeforeValidator(_workers)]
CaFile = Annotated[Path, AfterValidator(ca_file)]
HostRules = Annotated[str, AfterValidator(host_rules)]


def var(
    env: str,
    default: Any = None,
    *,
    meaning: str,
    accepts: str,
    default_factory: Callable[[], Any] | None = None,
    shown_default: str | None = None,
) -> Any:
    """A field read from variable `env`; `meaning`/`accepts` feed errors and the README table."""
    extra: dict[str, Any] = {"accepts": accepts}
    if shown_default is not None:
        extra["shown_default"] = shown_default
    if default_factory is not None:
        return Field(default_factory=default_factory, alias=env, description=meaning, json_schema_extra=extra)
    return Field(default, alias=env, description=meaning, json_schema_extra=extra)


def _extra(field: FieldInfo, key: str) -> str | None:
    extra = field.json_schema_extra
    value = extra.get(key) if isinstance(extra, dict) else None
    return None if value is None else str(value)


def accepts(field: FieldInfo) -> str:
    return _extra(field, "accepts") or ""


def shown_default(field: FieldInfo) -> str:
    shown = _extra(field, "shown_default")
    if shown is not None:
        return shown
    default = field.get_default(call_default_factory=False)
    if default is None:
        return "unset"
    if isinstance(default, bool):
        return "1" if default else "0"
    return str(default)


def is_secret(field: FieldInfo) -> bool:
    def mentions_secret(annotation: Any) -> bool:  # through `| None` and `Annotated[...]`
        return annotation is SecretStr or any(mentions_secret(arg) for arg in get_args(annotation))

    return mentions_secret(field.annotation)
