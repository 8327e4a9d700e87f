"""The configure page's Skills card: upload (a zip or a folder's files), the list, replace, remove,
the count under the field, the error and the status."""

from __future__ import annotations

import re
from dataclasses import dataclass

from playwright.sync_api import FilePayload, Locator, Page

_TYPES = {".zip": "application/zip", ".md": "text/markdown"}


def _payloads(files: dict[str, bytes]) -> list[FilePayload]:
    return [
        FilePayload(name=name, mimeType=_TYPES.get(name[name.rfind(".") :], "text/plain"), buffer=content)
        for name, content in files.items()
    ]


@dataclass(frozen=True)
class SkillsCard:
    page: Page

    @property
    def root(self) -> Locator:
        return self.page.get_by_role("region", name="Skills", exact=True)

    @property
    def upload_field(self) -> Locator:
        return self.root.get_by_label("Upload skill", exact=True)

    def upload(self, files: dict[str, bytes]) -> None:
        """Choose these files (by name) in the Upload skill field: one zip, or a folder's files."""
        self.upload_field.set_input_files(files=_payloads(files))

    def replace(self, name: str, files: dict[str, bytes]) -> None:
        """Choose these files for the skill's Replace button."""
        self.root.get_by_label(f"Replace {name}", exact=True).set_input_files(files=_payloads(files))

    def remove(self, name: str) -> None:
        self.root.get_by_role("button", name=f"Remove {name}", exact=True).click()

    @property
    def rows(self) -> Locator:
        """The listed skills, in the order shown (a lone "No skills yet" is not one)."""
        return (
            self.root.get_by_role("list", name="Skills")
            .get_by_role("listitem")
            .filter(has=self.page.get_by_role("button", name=re.compile("^Remove ")))
        )

    @property
    def empty_note(self) -> Locator:
        return self.root.get_by_text("No skills yet", exact=True)

    @property
    def count_note(self) -> Locator:
        """How many skills the agent has out of its limit ("3 of 10 skills")."""
        return self.root.get_by_text(re.compile(r"^\d+ of \d+ skills"))

    @property
    def status(self) -> Locator:
        return self.root.get_by_role("status")

    @property
    def error(self) -> Locator:
        return self.root.get_by_role("alert")
