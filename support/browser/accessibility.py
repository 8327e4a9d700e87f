"""Accessibility scans with axe-core, as bundled (and pinned) by axe-playwright-python: the
page is checked by axe's own rules, never by checks of ours.

`scan(page, rule_tags)` runs the rules carrying any of the axe tags (`wcag2a`, `wcag21aa`, ...)
on the page as it is now, open dialogs included, and returns every violation with what a
developer needs to fix it: the rule id, each element (CSS target and HTML snippet) and the help
URL. support/tags.py maps the `@wcag-a` / `@wcag-aa` scenario tags to those axe tags.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

_AXE = Axe()
_SNIPPET_CHARS = 300


@dataclass(frozen=True)
class Element:
    target: str
    html: str


@dataclass(frozen=True)
class Violation:
    rule: str
    impact: str | None
    help: str
    help_url: str
    elements: tuple[Element, ...]

    def describe(self) -> str:
        lines = [
            f"- {self.rule} ({self.impact or 'no impact given'}): {self.help}",
            f"  help: {self.help_url}",
        ]
        lines += [f"  at {element.target}: {element.html}" for element in self.elements]
        return "\n".join(lines)


def scan(page: Page, rule_tags: Sequence[str]) -> list[Violation]:
    options = {"runOnly": {"type": "tag", "values": list(rule_tags)}, "resultTypes": ["violations"]}
    results = _AXE.run(page, options=options).response
    return [_violation(raw) for raw in results["violations"]]


def _violation(raw: dict[str, object]) -> Violation:
    nodes = raw.get("nodes") or []
    assert isinstance(nodes, list)
    elements = tuple(
        Element(
            target=" ".join(str(part) for part in node.get("target", [])),
            html=str(node.get("html", "")).replace("\n", " ")[:_SNIPPET_CHARS],
        )
        for node in nodes
    )
    return Violation(
        rule=str(raw["id"]),
        impact=str(raw["impact"]) if raw.get("impact") else None,
        help=str(raw.get("help", "")),
        help_url=str(raw.get("helpUrl", "")),
        elements=elements,
    )


def report(where: str, violations: Sequence[Violation]) -> str:
    """The failure message: one block per violated rule, each element and the help URL."""
    header = f"{len(violations)} accessibility violation(s) on {where}:"
    return "\n".join([header, *(violation.describe() for violation in violations)])
