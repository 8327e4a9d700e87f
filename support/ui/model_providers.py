"""The model provider settings (`/settings/model-providers`): adding providers, their status."""

from __future__ import annotations

import re
from dataclasses import dataclass

from playwright.sync_api import Locator, Page


@dataclass(frozen=True)
class ModelProvidersPage:
    page: Page

    PATH = "/settings/model-providers"

    @property
    def speech_provider(self) -> Locator:
        """The console models' speech-to-text provider choice."""
        return self.page.get_by_label("Speech-to-text provider", exact=True)

    def speech_provider_option(self, name: str) -> Locator:
        return self.speech_provider.get_by_role("option", name=name, exact=True)

    @property
    def chosen_decision_model(self) -> Locator:
        """The console models' decision model choice, the option selected in it."""
        choice = self.page.get_by_label("Decision model", exact=True)
        return choice.get_by_role("option", selected=True)

    @property
    def speech_model(self) -> Locator:
        return self.page.get_by_label("Speech-to-text model", exact=True)

    @property
    def save_console_models(self) -> Locator:
        return self.page.get_by_role("button", name="Save console models", exact=True)

    @property
    def list_error(self) -> Locator:
        """Why the page could not load the providers (or the console models)."""
        return self.page.get_by_role("alert").filter(has_text="Could not load model providers")

    def field(self, label: str) -> Locator:
        return self.form.get_by_label(label, exact=True)

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

    def error(self, name: str) -> Locator:
        return self.card(name).get_by_role("alert")
