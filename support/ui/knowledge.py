"""The knowledge page (`/knowledge`): the list of datasets, and creating one."""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Locator, Page


@dataclass(frozen=True)
class KnowledgePage:
    page: Page

    PATH = "/knowledge"

    def create_dataset(self, name: str) -> None:
        self.page.get_by_role("button", name="Create dataset").click()
        dialog = self.page.get_by_role("dialog", name="Create dataset")
        dialog.get_by_label("Name", exact=True).fill(name)
        dialog.get_by_role("button", name="Create").click()

    def link(self, dataset_name: str) -> Locator:
        return self.page.get_by_role("link", name=dataset_name, exact=True)
