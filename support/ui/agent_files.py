"""The files section of an agent's configure page: upload, list, errors, delete."""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import FilePayload, Locator, Page


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
    def error(self) -> Locator:
        return self.root.get_by_role("alert")

    def delete(self, name: str, *, first: bool = False) -> None:
        """Delete the file of that name (`first`: the first of several listed under it)."""
        button = self.root.get_by_role("button", name=f"Delete {name}")
        (button.first if first else button).click()
