"""The browser tab itself, whatever page it shows: its whole text and HTML, the clipboard, tabs.

For sentences about the page as a whole ("the page never shows the secret ..."), where no single
region is the right scope.
"""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Locator, Page


@dataclass(frozen=True)
class BrowserPage:
    page: Page

    @property
    def text(self) -> Locator:
        """Everything the page renders; a secret must not appear anywhere in it."""
        return self.page.locator("body")

    @property
    def main(self) -> Locator:
        """The page's main region: what it is about, without the console's navigation."""
        return self.page.get_by_role("main")

    @property
    def open_dialog_region(self) -> Locator:
        """The (modal) dialog open now: a closed one is not in the accessibility tree."""
        return self.page.get_by_role("dialog")

    def open_dialog_button(self, name: str) -> Locator:
        return self.open_dialog_region.get_by_role("button", name=name, exact=True)

    def html(self) -> str:
        """The page's HTML, including what it does not render (attributes, hidden inputs)."""
        return self.page.content()

    def clipboard_text(self) -> str:
        return str(self.page.evaluate("navigator.clipboard.readText()"))

    def follow_into_new_tab(self, link: Locator) -> Page:
        """Click a target=_blank link and return the tab it opens."""
        with self.page.expect_popup() as popup:
            link.click()
        return popup.value

    def open_in_new_tab(self, url: str) -> tuple[Page, int]:
        """Open `url` in a new tab of the same signed-in context: the tab and its HTTP status."""
        tab = self.page.context.new_page()
        response = tab.goto(url)
        assert response is not None, f"opening {url} gave no response"
        return tab, response.status

    def open_dialog(self, button: str, dialog: str) -> Locator:
        """Press the button that opens a dialog, and return the dialog once it shows."""
        self.page.get_by_role("button", name=button, exact=True).first.click()
        return self.page.get_by_role("dialog", name=dialog, exact=True)

    def close_dialog(self) -> None:
        """Escape closes the open (modal) dialog, as a keyboard user would."""
        self.page.keyboard.press("Escape")
        self.page.get_by_role("dialog").wait_for(state="hidden")

    def reload_and_stay(self, timeout_ms: float) -> None:
        """Start a reload and answer "Stay" when the browser asks before leaving; fails if it
        does not ask (the page would be gone)."""
        # Through the page's own location.reload(): Page.reload() would wait for a load that
        # never comes once the user stays.
        with self.page.expect_event("dialog", timeout=timeout_ms) as asked:
            self.page.evaluate("() => { setTimeout(() => location.reload()); }")
        dialog = asked.value
        assert dialog.type == "beforeunload", f"reloading opened a {dialog.type} dialog: {dialog.message}"
        dialog.dismiss()

    def describe(self) -> str:
        """Where the browser is, for a failure message: the address and any open dialog."""
        dialogs = self.page.locator("dialog[open]")
        if not dialogs.count():
            return self.page.url
        return f'{self.page.url}, dialog "{dialogs.first.get_by_role("heading").first.inner_text()}"'
