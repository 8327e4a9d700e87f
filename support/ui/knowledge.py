"""The knowledge page (`/knowledge`): the list of datasets, and creating one."""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Locator, Page


@dataclass(frozen=True)
class KnowledgePage:
    page: Page

    PATH = "/knowledge"

    def create_dataset(self, name: str, description: str = "") -> None:
        self.page.get_by_role("button", name="Create dataset").click()
        dialog = self.page.get_by_role("dialog", name="Create dataset")
        dialog.get_by_label("Name", exact=True).fill(name)
        if description:
            dialog.get_by_label("Description", exact=True).fill(description)
        dialog.get_by_role("button", name="Create").click()

    def link(self, dataset_name: str) -> Locator:
        return self.page.get_by_role("link", name=dataset_name, exact=True)

    @property
    def alerts(self) -> Locator:
        """What the page says went wrong (loading the list, deleting a dataset): none when all is well."""
        return self.page.get_by_role("alert")

    def row_text(self, dataset_name: str, text: str) -> Locator:
        """Exactly this text in the dataset's row of the list (its description, its document count)."""
        row = self.page.get_by_role("listitem").filter(has=self.link(dataset_name))
        return row.get_by_text(text, exact=True)
