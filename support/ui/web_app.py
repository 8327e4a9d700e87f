"""Locators for the public web app (`/chat/<site token>`), by role and accessible name."""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Locator, Page


@dataclass(frozen=True)
class WebAppPage:
    page: Page

    @property
    def conversation(self) -> Locator:
        return self.page.get_by_role("log", name="Conversation")

    @property
    def message_field(self) -> Locator:
        return self.page.get_by_label("Message", exact=True)

    @property
    def send_button(self) -> Locator:
        return self.page.get_by_role("button", name="Send", exact=True)

    @property
    def stop_button(self) -> Locator:
        return self.page.get_by_role("button", name="Stop", exact=True)

    def send(self, text: str) -> None:
        self.message_field.fill(text)
        self.send_button.click()

    def suggested_question(self, text: str) -> Locator:
        return self.page.get_by_role("group", name="Suggested questions").get_by_role(
            "button", name=text, exact=True
        )

    @property
    def agent_messages(self) -> Locator:
        return self.conversation.get_by_role("article", name="Agent", exact=True)

    @property
    def user_messages(self) -> Locator:
        return self.conversation.get_by_role("article", name="You", exact=True)

    @property
    def last_reply(self) -> Locator:
        return self.agent_messages.last

    def reply_text(self, reply: Locator) -> Locator:
        # The reply's text block, apart from its role label and tool cards.
        return reply.locator(".message-text")

    def tool(self, name: str) -> Locator:
        return self.conversation.get_by_role("group", name=f"Tool {name}", exact=True).last

    @property
    def alert(self) -> Locator:
        return self.conversation.get_by_role("alert")
