"""The access point's Web app settings dialog: how the published web app presents itself."""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Locator, Page

# The dialog's fields by their labels; the two lists are choices, the rest are typed.
TEXT_FIELDS = ("Title", "Description", "Icon", "Copyright", "Privacy policy link")
CHOICE_FIELDS = ("Colour", "Default language")


@dataclass(frozen=True)
class WebAppSettingsDialog:
    page: Page

    @property
    def root(self) -> Locator:
        return self.page.get_by_role("dialog", name="Web app settings", exact=True)

    def field(self, label: str) -> Locator:
        return self.root.get_by_label(label, exact=True)

    def fill(self, label: str, value: str) -> None:
        """Type a text field's value, or choose a list's option by its visible name."""
        if label in CHOICE_FIELDS:
            self.field(label).select_option(label=value)
        else:
            self.field(label).fill(value)

    def shown(self, label: str) -> str:
        """What the field shows: the text typed, or the chosen option's name."""
        field = self.field(label)
        if label in CHOICE_FIELDS:
            return str(field.evaluate("select => select.selectedOptions[0]?.textContent ?? ''"))
        return field.input_value()

    def save(self) -> None:
        self.root.get_by_role("button", name="Save", exact=True).click()
