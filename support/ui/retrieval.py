"""Knowledge retrieval on the configure page: the Knowledge section's "Retrieval mode" and its
attached datasets, the preview's line saying which retrieval the saved draft uses, and the
sources a reply's retrieval card (preview or web app) cites."""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Locator, Page

from support.ui.chat_pane import ChatPane


@dataclass(frozen=True)
class KnowledgeRetrieval:
    page: Page

    @property
    def section(self) -> Locator:
        return self.page.get_by_role("region", name="Knowledge", exact=True)

    @property
    def mode(self) -> Locator:
        return self.section.get_by_label("Retrieval mode", exact=True)

    def choose_mode(self, option: str) -> None:
        self.mode.select_option(label=option)

    @property
    def chosen_mode(self) -> Locator:
        """The option "Retrieval mode" shows as chosen."""
        return self.mode.locator("option:checked")

    def remove_dataset(self, name: str) -> None:
        self.section.get_by_role("button", name=f"Remove {name}", exact=True).click()

    @property
    def attached_names(self) -> Locator:
        """The attached datasets' names (the "No datasets attached" row when there is none)."""
        return self.section.locator("#attached-datasets > li > .row-main, #attached-datasets > li.empty")

    @property
    def preview_line(self) -> Locator:
        """The preview's line on the saved draft's knowledge retrieval (hidden without datasets)."""
        return self.page.locator("#preview-knowledge")


def cited_sources(pane: ChatPane, card: str) -> Locator:
    """The sources the last card of that name (`knowledge_search`, `knowledge_retrieval`) cites."""
    return pane.tool(card).get_by_role("list", name="Sources").get_by_role("listitem")


def cards(pane: ChatPane, card: str) -> Locator:
    """Every card of that name in the conversation."""
    return pane.conversation.get_by_role("group", name=f"Tool {card}", exact=True)
