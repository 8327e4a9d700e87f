"""What the services' settings share: `AGENT_BUILDER_*` variables read by pydantic-settings, the
http(s) URL type, and errors that name the variable (or CLI flag) and the fix. Each service
declares its own fields beside its app (console/config.py, runtime/config.py, shellctl)."""

from __future__ import annotations

from typing import Annotated, Any, Self
from urllib.parse import urlsplit

from pydantic import AfterValidator, Field, JsonValue, ValidationError
from pydantic_core import ErrorDetails
from pydantic_settings import BaseSettings, SettingsConfigDict

ENV_PREFIX = "AGENT_BUILDER_"


def http_url(value: str) -> str:
    """An http(s) URL with a host, without a trailing slash (paths are appended to it)."""
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("Must be an http(s):// URL with a host.")
    return value.rstrip("/")


HttpUrl = Annotated[str, AfterValidator(http_url)]


def setting(default: Any, accepts: str, *, flag: str | None = None, **constraints: Any) -> Any:
    """A field read from the environment. `accepts` completes "must be ..." in its error message;
    `flag` names the CLI option that overrides it."""
    extra: dict[str, JsonValue] = {"accepts": accepts}
    if flag:
        extra["flag"] = flag
    return Field(default, json_schema_extra=extra, **constraints)


class ConfigError(ValueError):
    """Invalid settings: one line per problem, each naming the variable or flag and the fix."""


class ServiceSettings(BaseSettings):
    """A service's settings: a subclass sets `env_prefix` and declares its fields with `setting`.
    Empty variables count as unset."""

    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, env_ignore_empty=True, frozen=True)

    @classmethod
    def load(cls, **flags: Any) -> Self:
        """The settings from the environment, where the CLI flags given (not None) win."""
        given = {name: value for name, value in flags.items() if value is not None}
        try:
            return cls(**given)
        except ValidationError as error:
            problems = [cls._problem(detail, given) for detail in error.errors(include_url=False)]
            raise ConfigError("\n".join(problems)) from None

    @classmethod
    def _problem(cls, detail: ErrorDetails, given: dict[str, Any]) -> str:
        if not detail["loc"]:  # a model validator's, about several settings: its message says it all
            error = detail.get("ctx", {}).get("error")
            return str(error) if error is not None else detail["msg"]
        name = str(detail["loc"][0])
        field = cls.model_fields[name]
        extra = field.json_schema_extra if isinstance(field.json_schema_extra, dict) else {}
        accepts = extra.get("accepts", "valid")
        # A secret setting (repr=False) is never echoed: the message may end up in a log.
        shown_input = repr(detail["input"]) if field.repr else "another value (not shown: it is secret)"
        got = f"must be {accepts}, got {shown_input}"
        if name in given:
            flag = extra.get("flag", f"--{name.replace('_', '-')}")
            return f"{flag} {got}. Fix: pass {accepts}, or leave {flag} out."
        variable = f"{cls.model_config.get('env_prefix', '')}{name}".upper()
        default = field.get_default(call_default_factory=False)
        shown = "unset" if default is None else repr(default)
        return f"{variable} {got}. Fix: set {variable} to {accepts}, or unset it (default: {shown})."
