"""A dataset's page (`/knowledge/<id>`): documents and their indexing status, segments, and the
retrieval test."""

from __future__ import annotations

import re
from dataclasses import dataclass

from playwright.sync_api import FilePayload, Locator, Page, expect


@dataclass(frozen=True)
class DatasetPage:
    page: Page

    @staticmethod
    def path(dataset_id: str) -> str:
        return f"/knowledge/{dataset_id}"

    @staticmethod
    def url(dataset_id: str | None = None) -> re.Pattern[str]:
        """This page's URL, for `expect(page).to_have_url`; any dataset's when `dataset_id` is None."""
        return re.compile(rf"/knowledge/{re.escape(dataset_id) if dataset_id else '[^/]+'}$")

    def dataset_id(self) -> str:
        """The id of the dataset the page shows, read from its URL."""
        return self.page.url.rstrip("/").split("/")[-1]

    def title(self, dataset_name: str) -> Locator:
        return self.page.get_by_role("heading", name=dataset_name, exact=True)

    def upload(self, name: str, text: str) -> None:
        """Choose the file and wait until the page says it is uploaded or refused, as a user does:
        a second file chosen before the first is in would race it to the server and the list."""
        self.page.get_by_label("Upload document", exact=True).set_input_files(
            files=[FilePayload(name=name, mimeType="text/plain", buffer=text.encode())]
        )
        uploaded = self.page.get_by_role("status").filter(
            has_text=re.compile(rf"^Uploaded {re.escape(name)}$")
        )
        expect(uploaded.or_(self.error)).to_be_visible()

    @property
    def error(self) -> Locator:
        return self.page.get_by_role("alert")

    def document_row(self, name: str) -> Locator:
        return self.page.get_by_role("row").filter(has=self.page.get_by_role("button", name=name, exact=True))

    def document_button(self, name: str) -> Locator:
        """The document's name, a button that shows its segments (aria-expanded says if they are)."""
        return self.document_row(name).get_by_role("button", name=name, exact=True)

    def document_status(self, name: str) -> Locator:
        return self.document_row(name).get_by_text(re.compile(r"^(waiting|indexing|completed|error)$"))

    def document_says(self, name: str, text: str) -> Locator:
        return self.document_row(name).get_by_text(text, exact=True)

    def segment_switch(self, document_name: str, number: int) -> Locator:
        """The numbered segment's Enabled checkbox, once the document's segments are shown."""
        self.document_row(document_name).get_by_role("button", name=document_name, exact=True).click()
        segments = self.page.get_by_role("region", name=f"Segments of {document_name}")
        return segments.get_by_role("checkbox", name=f"Enable segment {number}", exact=True)

    def test_retrieval(self, query: str, top_k: int | None = None) -> None:
        section = self.retrieval
        section.get_by_label("Query", exact=True).fill(query)
        if top_k is not None:
            section.get_by_label("Top K", exact=True).fill(str(top_k))
        section.get_by_role("button", name="Test retrieval").click()

    @property
    def retrieval(self) -> Locator:
        return self.page.get_by_role("region", name="Retrieval test")

    def retrieval_message(self, text: str) -> Locator:
        """A message of the retrieval test itself, such as its empty state."""
        return self.retrieval.get_by_text(text, exact=True)

    @property
    def retrieval_results(self) -> Locator:
        return self.retrieval.get_by_role("listitem")

    def retrieval_result(self, text: str) -> Locator:
        return self.retrieval_results.filter(has_text=text)
