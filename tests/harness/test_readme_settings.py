"""The README's configuration table is generated from Settings; it must not drift from it."""

from pathlib import Path

from support.settings.cli import settings_markdown

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_lists_every_setting_as_generated() -> None:
    assert settings_markdown().strip() in README.read_text(encoding="utf-8"), (
        "README.md's configuration table is stale: paste `python -m support.settings --markdown` into it."
    )
