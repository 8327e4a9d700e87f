"""The published agent's public web app (`/chat/<site token>`): the conversation and composer."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from playwright.sync_api import Locator

from support.ui.chat_pane import ChatPane


@dataclass(frozen=True)
class WebAppPage(ChatPane):
    LOG_NAME = "Conversation"
    MICROPHONE_PREFIX = ""

    def title(self, agent_name: str) -> Locator:
        return self.page.get_by_role("heading", name=agent_name, exact=True)

    @property
    def unavailable(self) -> Locator:
        """What the web app's URL shows while the web app is turned off."""
        return self.page.get_by_role("heading", name="This web app is unavailable")

    @property
    def not_found(self) -> Locator:
        """What the URL of a web app that no longer exists shows."""
        return self.page.get_by_role("heading", name="Web app not found")

    @property
    def scope(self) -> Locator:
        return self.page.get_by_role("main")

    def heading(self) -> Locator:
        """The web app's title: its settings' title, else the agent's name."""
        return self.scope.get_by_role("heading", level=1)

    @property
    def icon(self) -> Locator:
        return self.scope.get_by_role("img", name="Icon", exact=True)

    def link(self, name: str) -> Locator:
        """A link of the web app (its privacy policy link, in the page's language)."""
        return self.scope.get_by_role("link", name=name, exact=True)

    def send_button_named(self, name: str) -> Locator:
        """The composer's Send button, in the page's language."""
        return self.scope.get_by_role("button", name=name, exact=True)

    def says(self, text: str) -> Locator:
        return self.scope.get_by_text(text, exact=True)

    def language(self) -> str:
        """The language the page says it is in (`<html lang>`)."""
        return str(self.page.evaluate("document.documentElement.lang"))

    def icon_colour(self) -> str:
        """The icon's background colour as the browser draws it (`rgb(r, g, b)`)."""
        return str(self.icon.evaluate("icon => getComputedStyle(icon).backgroundColor"))

    def send(self, text: str) -> None:
        self.message_field.fill(text)
        self.send_button.click()

    def alert_saying(self, text: str) -> Locator:
        """An alert of the page that says `text`: in the conversation, or under the composer (a
        question refused for now)."""
        return self.scope.get_by_role("alert").filter(has_text=text)

    @property
    def composer(self) -> Locator:
        """The form that stays at the foot of the window: the message field and its buttons."""
        return self.message_field.locator("xpath=ancestor::form")

    def shown_above_composer(self, message: Locator) -> bool:
        """Whether `message` is wholly in the window and not under the composer."""
        box, composer = message.bounding_box(), self.composer.bounding_box()
        if box is None or composer is None:
            return False
        return box["y"] >= 0 and box["y"] + box["height"] <= composer["y"]

    @property
    def last_question(self) -> Locator:
        return self.user_messages.last

    def suggested_question(self, text: str) -> Locator:
        return self.page.get_by_role("group", name="Suggested questions").get_by_role(
            "button", name=text, exact=True
        )

    @property
    def exchange_messages(self) -> Locator:
        """The user's messages and the agent's replies, in conversation order (not the opening)."""
        return self.conversation.get_by_role("article", name=re.compile(r"^(You|Agent)$"))

    def site_token(self) -> str:
        return self.page.url.rstrip("/").split("/")[-1]

    def become_visitor(self, console_url: str, visitor_token: str) -> None:
        """Browse as the web app visitor whose cookie this is (conversations are theirs only)."""
        host = urlsplit(console_url).hostname or ""
        self.page.context.add_cookies(
            [{"name": "ab_visitor", "value": visitor_token, "domain": host, "path": "/chat/"}]
        )

    def resume_conversation(self, conversation_id: str) -> None:
        """Make the web app resume this conversation, as it does after a reload."""
        key = f"agent-builder.conversation.{self.site_token()}"
        self.page.evaluate("([key, value]) => localStorage.setItem(key, value)", [key, conversation_id])
        self.page.reload()

    def stored_conversation_id(self) -> str | None:
        """The conversation the web app resumes after a reload: it keeps the id in localStorage."""
        key = f"agent-builder.conversation.{self.site_token()}"
        value = self.page.evaluate("key => localStorage.getItem(key)", key)
        return str(value) if value is not None else None

    def stored_messages(self) -> object:
        """The stored conversation as the page reads it back: through the web app's API, with this
        browser's visitor cookie (a conversation is only its visitor's). Returns the JSON body."""
        conversation_id = self.stored_conversation_id()
        assert conversation_id, "the web app holds no conversation"
        # Fetched by the page itself: its cookie (partitioned when embedded), name resolution and trust.
        status, body = self.page.evaluate(
            """async url => {
                const response = await fetch(url, {credentials: "same-origin"});
                return [response.status, response.ok ? await response.json() : null];
            }""",
            f"/chat/{self.site_token()}/api/conversations/{conversation_id}/messages",
        )
        assert status == 200, f"the web app did not return its conversation: HTTP {status}"
        return body
