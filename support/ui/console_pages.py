"""Locators for the console pages, by role, label, then text (test ids last).

Steps stay one sentence long by calling these; when the UI changes, this is the one place
that changes with it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from playwright.sync_api import Locator, Page


@dataclass(frozen=True)
class SignInPage:
    page: Page

    @property
    def heading(self) -> Locator:
        return self.page.get_by_role("heading", name="Sign in")

    def sign_in(self, email: str, password: str) -> None:
        self.page.get_by_label("Email", exact=True).fill(email)
        self.page.get_by_label("Password", exact=True).fill(password)
        self.page.get_by_role("button", name="Sign in").click()

    @property
    def error(self) -> Locator:
        return self.page.get_by_role("alert")


@dataclass(frozen=True)
class NavBar:
    """The console's top bar: main navigation, the signed-in account and "Sign out"."""

    page: Page

    @property
    def root(self) -> Locator:
        return self.page.get_by_role("banner")

    def sign_out(self) -> None:
        self.page.get_by_role("button", name="Sign out").click()


@dataclass(frozen=True)
class RosterPage:
    page: Page

    @property
    def heading(self) -> Locator:
        return self.page.get_by_role("heading", name="Agents", exact=True)

    def search(self, text: str) -> None:
        self.page.get_by_label("Search agents", exact=True).fill(text)

    def row(self, agent_name: str) -> Locator:
        return self.page.get_by_role("listitem").filter(
            has=self.page.get_by_role("link", name=agent_name, exact=True)
        )

    def link(self, agent_name: str) -> Locator:
        return self.page.get_by_role("link", name=agent_name, exact=True)

    def create(self, name: str) -> None:
        self.page.get_by_role("button", name="Create agent").click()
        dialog = self.page.get_by_role("dialog", name="Create agent")
        dialog.get_by_label("Name", exact=True).fill(name)
        dialog.get_by_role("button", name="Create").click()

    def start_delete(self, agent_name: str) -> Locator:
        self.page.get_by_role("button", name=f"Delete {agent_name}").click()
        return self.page.get_by_role("dialog", name="Delete agent?")


@dataclass(frozen=True)
class PublishBar:
    page: Page

    @property
    def root(self) -> Locator:
        return self.page.get_by_role("region", name="Publish bar")

    def shows(self, text: str) -> Locator:
        return self.root.get_by_text(text, exact=True)

    @property
    def save_state(self) -> Locator:
        return self.root.get_by_role("status")

    def publish(self) -> None:
        self.root.get_by_role("button", name="Publish").click()

    def retry(self) -> None:
        self.root.get_by_role("button", name="Retry").click()

    @property
    def publish_error(self) -> Locator:
        return self.page.get_by_role("alert").filter(has_text="Publish failed")


@dataclass(frozen=True)
class ConfigurePage:
    page: Page

    def section(self, name: str) -> Locator:
        return self.page.get_by_role("heading", name=name, exact=True)

    @property
    def instructions(self) -> Locator:
        return self.page.get_by_label("Instructions", exact=True)

    @property
    def opening_statement(self) -> Locator:
        return self.page.get_by_label("Opening statement", exact=True)

    @property
    def model(self) -> Locator:
        return self.page.get_by_label("Model", exact=True)

    def field(self, label: str) -> Locator:
        return self.page.get_by_label(label, exact=True)

    def suggested_question(self, number: int) -> Locator:
        return self.page.get_by_label(f"Suggested question {number}", exact=True)

    @property
    def suggested_questions(self) -> Locator:
        return self.page.get_by_label(re.compile(r"^Suggested question \d+$"))

    @property
    def add_question(self) -> Locator:
        return self.page.get_by_role("button", name="Add question")

    def tool(self, label: str) -> Locator:
        return self.page.get_by_role("checkbox", name=label, exact=True)

    @property
    def knowledge_section(self) -> Locator:
        return self.page.get_by_role("region", name="Knowledge", exact=True)

    def attach_dataset(self, name: str) -> None:
        section = self.knowledge_section
        section.get_by_label("Dataset", exact=True).select_option(label=name)
        section.get_by_role("button", name="Attach", exact=True).click()

    def detach_dataset(self, name: str) -> None:
        self.knowledge_section.get_by_role("button", name=f"Remove {name}", exact=True).click()

    def attached_dataset(self, name: str) -> Locator:
        return self.knowledge_section.get_by_role("listitem").filter(has_text=name)

    @property
    def upload_file(self) -> Locator:
        return self.page.get_by_label("Upload file", exact=True)

    @property
    def files_section(self) -> Locator:
        return self.page.get_by_role("region", name="Files", exact=True)

    def tab(self, name: str) -> Locator:
        return self.page.get_by_role("link", name=name, exact=True)


@dataclass(frozen=True)
class AccessPage:
    page: Page

    def card(self, name: str) -> Locator:
        return self.page.get_by_role("region", name=name, exact=True)


@dataclass(frozen=True)
class KnowledgePage:
    page: Page

    def create_dataset(self, name: str) -> None:
        self.page.get_by_role("button", name="Create dataset").click()
        dialog = self.page.get_by_role("dialog", name="Create dataset")
        dialog.get_by_label("Name", exact=True).fill(name)
        dialog.get_by_role("button", name="Create").click()

    def link(self, dataset_name: str) -> Locator:
        return self.page.get_by_role("link", name=dataset_name, exact=True)


@dataclass(frozen=True)
class DatasetPage:
    page: Page

    @property
    def upload(self) -> Locator:
        return self.page.get_by_label("Upload document", exact=True)

    def document_row(self, name: str) -> Locator:
        return self.page.get_by_role("row").filter(has=self.page.get_by_role("button", name=name, exact=True))

    def document_status(self, name: str) -> Locator:
        return self.document_row(name).get_by_text(re.compile(r"^(waiting|indexing|completed|error)$"))

    def disable_segment(self, document_name: str, number: int) -> None:
        self.document_row(document_name).get_by_role("button", name=document_name, exact=True).click()
        segments = self.page.get_by_role("region", name=f"Segments of {document_name}")
        segments.get_by_role("checkbox", name=f"Enable segment {number}", exact=True).uncheck()

    def test_retrieval(self, query: str) -> None:
        section = self.retrieval
        section.get_by_label("Query", exact=True).fill(query)
        section.get_by_role("button", name="Test retrieval").click()

    @property
    def retrieval(self) -> Locator:
        return self.page.get_by_role("region", name="Retrieval test")

    @property
    def retrieval_results(self) -> Locator:
        return self.retrieval.get_by_role("listitem")


@dataclass(frozen=True)
class ProvidersPage:
    page: Page

    def add(self, name: str, base_url: str, api_key: str) -> None:
        form = self.form
        form.get_by_label("Name", exact=True).fill(name)
        form.get_by_label("Base URL", exact=True).fill(base_url)
        form.get_by_label("API key", exact=True).fill(api_key)
        form.get_by_role("button", name="Add provider").click()

    @property
    def form(self) -> Locator:
        return self.page.get_by_role("form", name="Add provider")

    def card(self, name: str) -> Locator:
        return self.page.get_by_role("article").filter(
            has=self.page.get_by_role("heading", name=name, exact=True)
        )

    def status(self, name: str) -> Locator:
        return self.card(name).get_by_text(re.compile(r"^(active|invalid)$"))


@dataclass(frozen=True)
class ToolsPage:
    page: Page

    @property
    def catalog(self) -> Locator:
        return self.page.get_by_role("region", name="Catalog")

    def tool(self, label: str) -> Locator:
        return self.catalog.get_by_role("listitem").filter(has_text=label)

    @property
    def credentials(self) -> Locator:
        return self.page.get_by_role("region", name="Credentials")

    def add_credential(self, tool_label: str, name: str, secret: str) -> None:
        form = self.credentials
        form.get_by_label("Tool", exact=True).select_option(label=tool_label)
        form.get_by_label("Name", exact=True).fill(name)
        form.get_by_label("Secret", exact=True).fill(secret)
        form.get_by_role("button", name="Add credential").click()

    def credential(self, name: str) -> Locator:
        return self.credentials.get_by_role("row").filter(has_text=name)
