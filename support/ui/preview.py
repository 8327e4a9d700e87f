"""The configure page's preview pane: a test chat with the saved draft, its replies and tool
cards, Stop and Restart, and what the pane says (such as a save that applies from the next
message)."""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Locator, Page, Response

from support.ui.voice import MicrophoneControl

STREAM_PATH = "/preview/messages"


@dataclass(frozen=True)
class PreviewPane:
    page: Page

    @property
    def region(self) -> Locator:
        return self.page.get_by_role("region", name="Preview", exact=True)

    @property
    def conversation(self) -> Locator:
        return self.region.get_by_role("log", name="Preview conversation")

    @property
    def message_field(self) -> Locator:
        return self.region.get_by_label("Message", exact=True)

    @property
    def send_button(self) -> Locator:
        return self.region.get_by_role("button", name="Send", exact=True)

    @property
    def stop_button(self) -> Locator:
        return self.region.get_by_role("button", name="Stop", exact=True)

    @property
    def restart_button(self) -> Locator:
        return self.region.get_by_role("button", name="Restart preview", exact=True)

    @property
    def notice(self) -> Locator:
        return self.page.locator("#preview-notice")

    @property
    def microphone(self) -> MicrophoneControl:
        return MicrophoneControl(self.page, self.region, "preview-")

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

    @property
    def questions(self) -> Locator:
        return self.conversation.get_by_role("article", name="You", exact=True)

    @property
    def replies(self) -> Locator:
        return self.conversation.get_by_role("article", name="Agent", exact=True)

    @property
    def last_reply(self) -> Locator:
        return self.replies.last

    def reply_text(self, reply: Locator) -> Locator:
        return reply.locator(".message-text")

    def reply_status(self, reply: Locator, status: str) -> Locator:
        return reply.get_by_text(status, exact=True)

    def tool(self, name: str) -> Locator:
        return self.conversation.get_by_role("group", name=f"Tool {name}", exact=True).last

    def sources(self, tool: str) -> Locator:
        """The knowledge sources a tool card cites, one list item per dataset and document."""
        return self.tool(tool).get_by_role("list", name="Sources").get_by_role("listitem")

    @property
    def alert(self) -> Locator:
        return self.conversation.get_by_role("alert")

    def stored_conversation_id(self, agent_id: str) -> str | None:
        """The conversation the pane resumes after a reload: it keeps the id in localStorage."""
        value = self.page.evaluate("key => localStorage.getItem(key)", f"agent-builder.preview.{agent_id}")
        return str(value) if value is not None else None
