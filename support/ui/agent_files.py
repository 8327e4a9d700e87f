"""The files section of an agent's configure page: upload, list, errors, delete."""

from __future__ import annotations

import re
from dataclasses import dataclass

from playwright.sync_api import FilePayload, Locator, Page

from support.browser.held_requests import HeldRequest, hold

_FILES = re.compile(r"/console/api/agents/[^/]+/files$")


@dataclass(frozen=True)
class AgentFilesSection:
    page: Page

    @property
    def root(self) -> Locator:
        return self.page.get_by_role("region", name="Files", exact=True)

    def upload(self, name: str, mime_type: str, content: bytes) -> None:
        self.page.get_by_label("Upload file", exact=True).set_input_files(
            files=[FilePayload(name=name, mimeType=mime_type, buffer=content)]
        )

    def file(self, name: str) -> Locator:
        return self.root.get_by_text(name, exact=True)

    @property
    def rows(self) -> Locator:
        """The listed files, in the order shown (a lone "No files yet" is not one)."""
        return (
            self.root.get_by_role("list", name="Files")
            .get_by_role("listitem")
            .filter(has=self.page.get_by_role("button", name="Delete"))
        )

    def row_named(self, index: int, name: str) -> Locator:
        """The `index`th listed file (from 0), when its name is exactly `name`."""
        return self.rows.nth(index).get_by_text(name, exact=True)

    @property
    def upload_field(self) -> Locator:
        return self.page.get_by_label("Upload file", exact=True)

    @property
    def count_note(self) -> Locator:
        """How many files the agent has out of its limit ("3 of 20 files")."""
        return self.root.get_by_text(re.compile(r"^\d+ of \d+ files"))

    @property
    def status(self) -> Locator:
        """What the uploads in progress and the last settled one say."""
        return self.root.get_by_role("status")

    def hold_next_upload(self, timeout_ms: float) -> HeldRequest:
        """Hold the page's next request to the agent's files (open the page first: its load lists
        them through the same URL)."""
        return hold(self.page, "the file upload", lambda url: bool(_FILES.search(url)), timeout_ms)

    @property
    def error(self) -> Locator:
        return self.root.get_by_role("alert")

    def delete(self, name: str, *, first: bool = False) -> None:
        """Delete the file of that name (`first`: the first of several listed under it)."""
        button = self.root.get_by_role("button", name=f"Delete {name}", exact=True)
        (button.first if first else button).click()
