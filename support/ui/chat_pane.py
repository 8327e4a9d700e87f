"""A conversation and its composer, as the public web app and the configure page's preview pane
both show them: the same roles and names, each inside its own part of the page."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from playwright.sync_api import Locator, Page, expect

from support.ui.voice import MicrophoneControl


@dataclass(frozen=True)
class ChatPane:
    page: Page
    LOG_NAME: ClassVar[str]  # the conversation's accessible name
    MICROPHONE_PREFIX: ClassVar[str]  # the id prefix of the voice controls

    @property
    def scope(self) -> Locator:
        """The part of the page that holds the conversation and the composer."""
        raise NotImplementedError

    @property
    def conversation(self) -> Locator:
        return self.scope.get_by_role("log", name=self.LOG_NAME, exact=True)

    @property
    def message_field(self) -> Locator:
        return self.scope.get_by_label("Message", exact=True)

    @property
    def send_button(self) -> Locator:
        return self.scope.get_by_role("button", name="Send", exact=True)

    @property
    def stop_button(self) -> Locator:
        return self.scope.get_by_role("button", name="Stop", exact=True)

    @property
    def suggestions(self) -> Locator:
        """The suggested questions' buttons, under the conversation."""
        return self.scope.get_by_role("group", name="Suggested questions", exact=True).get_by_role("button")

    @property
    def microphone(self) -> MicrophoneControl:
        return MicrophoneControl(self.page, self.scope, self.MICROPHONE_PREFIX)

    @property
    def user_messages(self) -> Locator:
        return self.conversation.get_by_role("article", name="You", exact=True)

    @property
    def agent_messages(self) -> Locator:
        return self.conversation.get_by_role("article", name="Agent", exact=True)

    @property
    def last_reply(self) -> Locator:
        return self.agent_messages.last

    def reply_text(self, reply: Locator) -> Locator:
        # The reply's text block, apart from its role label and tool cards.
        return reply.locator(".message-text")

    def finished_reply_text(self, timeout_ms: float) -> Locator:
        """The last reply's text, once the agent has stopped writing it."""
        reply = self.last_reply
        expect(reply).not_to_have_attribute("aria-busy", "true", timeout=timeout_ms)
        return self.reply_text(reply)

    def expect_ready_for_another_message(self, timeout_ms: float) -> None:
        """The message field and Send are enabled again, and Stop is gone."""
        expect(self.message_field).to_be_enabled(timeout=timeout_ms)
        expect(self.send_button).to_be_enabled()
        expect(self.stop_button).to_be_hidden()

    @property
    def conversation_errors(self) -> Locator:
        """The alerts the conversation shows (a failed reply, a stop that failed)."""
        return self.conversation.get_by_role("alert")

    def reply_status(self, reply: Locator, status: str) -> Locator:
        """A reply's status mark, such as "Stopped"."""
        return reply.get_by_text(status, exact=True)

    def tool(self, name: str) -> Locator:
        """The card of the last call of the tool."""
        return self.conversation.get_by_role("group", name=f"Tool {name}", exact=True).last

    def tool_result(self, name: str) -> Locator:
        """The tool card's last block: its result once the tool is done (its arguments until then)."""
        return self.tool(name).locator("pre").last

    def tool_state(self, name: str) -> Locator:
        """The tool card's state: "Running…", "Done" or "Failed"."""
        return self.tool(name).locator(".tool-state")

    def tool_done(self, name: str) -> Locator:
        """The tool card's "Done" mark."""
        return self.tool(name).get_by_text("Done", exact=True)

    @property
    def alert(self) -> Locator:
        return self.conversation.get_by_role("alert")

    def watch_replies(self) -> None:
        """From now on the page notes, with the time it saw it, each text and busy state of the
        newest reply: how a reply grew, as the visitor saw it, whatever the machine's load."""
        self.conversation.evaluate(_WATCH_REPLIES)

    def reply_growth(self) -> list[ReplyState]:
        """What `watch_replies` noted, oldest first."""
        states = self.conversation.evaluate("log => log.ownerDocument.defaultView.__e2eReplyGrowth || []")
        return [ReplyState(float(state["at"]), str(state["text"]), bool(state["busy"])) for state in states]


@dataclass(frozen=True)
class ReplyState:
    at_ms: float  # the page's clock (performance.now())
    text: str
    busy: bool  # the reply is still being written (aria-busy)


# Replies that were there before the watch started are not looked at.
_WATCH_REPLIES = """log => {
  const view = log.ownerDocument.defaultView;
  const growth = (view.__e2eReplyGrowth = []);
  const replies = () => log.querySelectorAll('article[aria-label="Agent"]');
  const before = replies().length;
  new view.MutationObserver(() => {
    const all = replies();
    if (all.length <= before) return;
    const reply = all[all.length - 1];
    const text = reply.querySelector('.message-text')?.textContent ?? '';
    const busy = reply.getAttribute('aria-busy') === 'true';
    const last = growth[growth.length - 1];
    if (!last || last.text !== text || last.busy !== busy) growth.push({ at: view.performance.now(), text, busy });
  }).observe(log, { subtree: true, childList: true, characterData: true, attributes: true });
}"""
