"""Environment variables in the configure page's advanced settings: the list, the add/edit
dialog, deleting, and importing a `.env` file with its report."""

from __future__ import annotations

import re
from dataclasses import dataclass

from playwright.sync_api import FilePayload, Locator, Page

from support.browser.held_requests import HeldRequest, hold

# One variable's URL: a change or a deletion (the page lists them all at the collection's URL).
_ONE_VARIABLE = re.compile(r"/env-vars/[^/?]+$")


@dataclass(frozen=True)
class EnvVarDialog:
    root: Locator

    @property
    def name(self) -> Locator:
        return self.root.get_by_label("Name", exact=True)

    @property
    def value(self) -> Locator:
        return self.root.get_by_label("Value", exact=True)

    @property
    def secret(self) -> Locator:
        return self.root.get_by_role("checkbox", name="Secret (write-only, not passed to sandbox commands)")

    def save(self) -> None:
        self.root.get_by_role("button", name="Save variable").click()

    def cancel(self) -> None:
        self.root.get_by_role("button", name="Cancel", exact=True).click()

    def field_error(self, text: str) -> Locator:
        return self.root.get_by_text(text)


@dataclass(frozen=True)
class EnvVarsSection:
    page: Page

    @property
    def root(self) -> Locator:
        return self.page.get_by_role("region", name="Environment variables", exact=True)

    def row(self, name: str) -> Locator:
        return self.root.get_by_role("row").filter(
            has=self.page.get_by_role("rowheader", name=name, exact=True)
        )

    def value_of(self, name: str) -> Locator:
        return self.row(name).get_by_role("cell").first

    @property
    def rows(self) -> Locator:
        return self.root.get_by_role("rowheader")

    def open_add(self) -> EnvVarDialog:
        self.root.get_by_role("button", name="Add variable").click()
        return self.dialog("Add variable")

    def open_edit(self, name: str) -> EnvVarDialog:
        self.edit_button(name).click()
        return self.dialog(f"Edit {name}")

    def dialog(self, title: str) -> EnvVarDialog:
        return EnvVarDialog(self.page.get_by_role("dialog", name=title, exact=True))

    @property
    def open_dialogs(self) -> Locator:
        return self.page.get_by_role("dialog")

    def edit_button(self, name: str) -> Locator:
        return self.root.get_by_role("button", name=f"Edit {name}", exact=True)

    def add(self, name: str, value: str, *, secret: bool = False) -> None:
        dialog = self.open_add()
        dialog.name.fill(name)
        dialog.value.fill(value)
        dialog.secret.set_checked(secret)
        dialog.save()

    def delete_button(self, name: str) -> Locator:
        return self.root.get_by_role("button", name=f"Delete {name}", exact=True)

    def delete(self, name: str) -> None:
        self.delete_button(name).click()
        self.page.get_by_role("dialog", name=f"Delete {name}?").get_by_role("button", name="Delete").click()

    def hold_next_deletion(self, timeout_ms: float) -> HeldRequest:
        """Hold the page's next request to one variable: the deletion that follows."""
        return hold(
            self.page, "the variable deletion", lambda url: bool(_ONE_VARIABLE.search(url)), timeout_ms
        )

    def import_file(self, name: str, content: bytes) -> None:
        self.root.get_by_label("Import .env file", exact=True).set_input_files(
            files=[FilePayload(name=name, mimeType="text/plain", buffer=content)]
        )

    def says(self, text: str) -> Locator:
        """A message of the section's own: what was saved, deleted or imported."""
        return self.root.get_by_role("status").filter(has_text=text)

    @property
    def skipped_lines(self) -> Locator:
        return self.root.get_by_role("list", name="Skipped lines").get_by_role("listitem")

    @property
    def error(self) -> Locator:
        return self.root.get_by_role("alert")
