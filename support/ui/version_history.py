"""The configure page's version history: the published versions and the read-only view of one,
with "Restore to draft"."""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Locator, Page


@dataclass(frozen=True)
class VersionDialog:
    root: Locator

    @property
    def instructions(self) -> Locator:
        return self.root.get_by_label("Instructions of this version", exact=True)

    @property
    def detail_terms(self) -> Locator:
        """The names of the version's details (Model, Temperature, Tools ...), in order."""
        return self.root.get_by_role("term")

    @property
    def detail_values(self) -> Locator:
        """The values of the version's details, in the order of their names."""
        return self.root.get_by_role("definition")

    @property
    def published(self) -> Locator:
        """The line under the title: "Published <time>", then " · <note>" when it has one."""
        return self.root.get_by_text("Published ")

    def restore(self) -> None:
        self.root.get_by_role("button", name="Restore to draft").click()

    def close(self) -> None:
        self.root.get_by_role("button", name="Close").click()


@dataclass(frozen=True)
class VersionHistory:
    page: Page

    @property
    def root(self) -> Locator:
        return self.page.get_by_role("region", name="Version history", exact=True)

    @property
    def versions(self) -> Locator:
        """The list's entries, newest first."""
        return self.root.get_by_role("list", name="Published versions").get_by_role("listitem")

    def entry_colors(self, version: int) -> dict[str, str]:
        """The text colours a sighted user sees in the version's entry: its number, its "No note"
        and its time (computed, as `rgb(...)`)."""
        button = self.page.get_by_role("button", name=f"Open version {version}", exact=True)
        entry = self.versions.filter(has=button)
        parts = {
            "number": entry.get_by_text(f"v{version}", exact=True),
            "no note": entry.get_by_text("No note"),
        }
        parts["time"] = entry.locator("time")
        return {name: part.evaluate("el => getComputedStyle(el).color") for name, part in parts.items()}

    def open(self, version: int) -> VersionDialog:
        self.root.get_by_role("button", name=f"Open version {version}", exact=True).click()
        return self.dialog(version)

    def dialog(self, version: int) -> VersionDialog:
        return VersionDialog(self.page.get_by_role("dialog", name=f"Version {version}", exact=True))
