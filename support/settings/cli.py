"""`python -m support.settings [--markdown]`: validate the configuration, or print the README table."""

from __future__ import annotations

import argparse
import sys

from support.settings.fields import accepts, shown_default
from support.settings.loading import load_settings
from support.settings.model import SettingsError, fields_by_variable


def settings_table() -> list[tuple[str, str, str, str]]:
    """README rows: (variable, default, accepted values, meaning), in declaration order."""
    return [
        (variable, shown_default(field), accepts(field), field.description or "")
        for variable, field in fields_by_variable().items()
    ]


def settings_markdown() -> str:
    lines = ["| Variable | Default | Values | Meaning |", "|---|---|---|---|"]
    lines += [
        f"| `{variable}` | {default} | {accepts} | {meaning} |"
        for variable, default, accepts, meaning in settings_table()
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m support.settings",
        description="Validate the E2E settings, or print their documentation.",
    )
    parser.add_argument("--markdown", action="store_true", help="print the README configuration table")
    args = parser.parse_args(argv)
    if args.markdown:
        print(settings_markdown())
        return 0
    try:
        settings = load_settings()
    except SettingsError as error:
        print(error, file=sys.stderr)
        return 2
    print(repr(settings))
    return 0
