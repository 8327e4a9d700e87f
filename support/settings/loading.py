"""`load_settings()`: pydantic-settings reads the environment and `.env`; this module adds what it
does not do: unknown `E2E_*` variables are errors (with a suggestion), and every invalid value is
reported as `VAR=value is invalid: why. Fix: ...`, secrets shown as `<secret>`.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from pydantic.fields import FieldInfo
from pydantic_settings import DotEnvSettingsSource, EnvSettingsSource

from support.settings.fields import accepts, is_secret, shown_default
from support.settings.model import (
    DEFAULT_ENV_FILE,
    ENV_PREFIX,
    LEGACY_AGENT_BACKEND_URL,
    Settings,
    SettingsError,
    fields_by_variable,
)


class _Environment(EnvSettingsSource):
    """The process environment, or the mapping a caller passes (tests never read the real one).

    `env_vars` keeps empty values, so `.env` can be told what the environment sets at all; an
    empty value is still unset for its field.
    """

    def __init__(self, environ: Mapping[str, str] | None) -> None:
        self._environ = environ
        super().__init__(Settings, env_ignore_empty=False)

    def _load_env_vars(self) -> Mapping[str, str | None]:
        # The hook pydantic-settings' own `.env` source overrides to read somewhere else.
        return super()._load_env_vars() if self._environ is None else dict(self._environ)

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        value, key, is_complex = super().get_field_value(field, field_name)
        return (None if value == "" else value), key, is_complex


def _env_file_source(env_file: Path | None, environment: _Environment) -> DotEnvSettingsSource:
    from_file = DotEnvSettingsSource(Settings, env_file=env_file)
    # A variable the environment sets wins even when empty: that is how a caller unsets a `.env`
    # line for a child process (ci/post_merge.py does, for E2E_START_AGENT_BACKEND).
    from_file.env_vars = {
        name: value for name, value in from_file.env_vars.items() if name not in environment.env_vars
    }
    return from_file


def _ours(name: str) -> bool:
    return name.startswith(ENV_PREFIX) or name == LEGACY_AGENT_BACKEND_URL


def _field_problem(variable: str, value: str | None, message: str) -> str:
    field = fields_by_variable()[variable]
    shown = "<secret>" if is_secret(field) else repr(value)
    message = message.removeprefix("Value error, ")
    return (
        f"{variable}={shown} is invalid: {message}. Fix: set it to {accepts(field)}, "
        f"or unset it (default: {shown_default(field)})."
    )


def _unknown_problem(variable: str, known: list[str]) -> str:
    close = difflib.get_close_matches(variable, known, n=1)
    hint = f"did you mean {close[0]}?" if close else "`python -m support.settings --markdown` lists them all."
    return f"{variable} is not a known setting; {hint} Fix: rename or unset it."


def load_settings(
    environ: Mapping[str, str] | None = None, env_file: Path | None = DEFAULT_ENV_FILE
) -> Settings:
    """Validate the settings from `environ` (default: the process environment) plus `env_file`
    (None: no file); never mutates either."""
    environment = _Environment(environ)
    from_file = _env_file_source(env_file, environment)
    # Every value of ours that is set (a `.env` line without `=` is None); the sources do not overlap.
    given = {
        name: value
        for source in (environment, from_file)
        for name, value in source.env_vars.items()
        if value and _ours(name)
    }
    known = fields_by_variable()
    unknown = sorted(name for name in given if name not in known)
    if unknown:
        raise SettingsError([_unknown_problem(name, sorted(known)) for name in unknown])
    try:
        return Settings(_build_sources=((environment, from_file), {}))
    except ValidationError as error:
        problems = [
            _field_problem(str(detail["loc"][0]), given.get(str(detail["loc"][0])), detail["msg"])
            for detail in error.errors(include_url=False)
        ]
        # `from None`: pydantic's own message echoes input values, secrets included.
        raise SettingsError(problems) from None
