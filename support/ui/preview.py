"""The configure page's preview pane: a test chat with the saved draft, its replies and tool
cards, Stop and Restart, and what the pane says (such as a save that applies from the next
message)."""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Locator, Response

from support.ui.chat_pane import ChatPane

STREAM_PATH = "/preview/messages"


@dataclass(frozen=True)
class PreviewPane(ChatPane):
    LOG_NAME = "Preview conversation"
    MICROPHONE_PREFIX = "preview-"

    @property
    def scope(self) -> Locator:
        return self.page.get_by_role("region", name="Preview", exact=True)

    @property
    def restart_button(self) -> Locator:
        return self.scope.get_by_role("button", name="Restart preview", exact=True)

    @property
    def opening_statements(self) -> Locator:
        """The draft's opening statement at the head of the conversation (one at most)."""
        return self.conversation.get_by_role("article", name="Opening statement", exact=True)

    def opening_statement_text(self) -> Locator:
        return self.reply_text(self.opening_statements)

    @property
    def notice(self) -> Locator:
        return self.page.locator("#preview-notice")

    def send(self) -> Response:
        """Send what the message field holds; returns the response (its body is the reply's event
        stream, complete once the reply has ended)."""
        with self.page.expect_response(
            lambda response: response.request.method == "POST" and response.url.endswith(STREAM_PATH)
        ) as reply:
            self.send_button.click()
        return reply.value

    def ask(self, text: str) -> Response:
        self.message_field.fill(text)
        return self.send()

    def sources(self, tool: str) -> Locator:
        """The knowledge sources a tool card cites, one list item per dataset and document."""
        return self.tool(tool).get_by_role("list", name="Sources").get_by_role("listitem")

    def stored_conversation_id(self, agent_id: str) -> str | None:
        """The conversation the pane resumes after a reload: it keeps the id in localStorage."""
        value = self.page.evaluate("key => localStorage.getItem(key)", f"agent-builder.preview.{agent_id}")
        return str(value) if value is not None else None
