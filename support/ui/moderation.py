"""The configure page's Content moderation card: keywords, one a line, and for questions and
answers a switch and the preset reply that stands in for a flagged message."""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Locator, Page


@dataclass(frozen=True)
class ModerationCard:
    page: Page

    @property
    def root(self) -> Locator:
        return self.page.get_by_role("region", name="Content moderation", exact=True)

    @property
    def keywords(self) -> Locator:
        return self.root.get_by_label("Keywords", exact=True)

    @property
    def moderate_questions(self) -> Locator:
        return self.root.get_by_role("checkbox", name="Moderate questions", exact=True)

    @property
    def question_reply(self) -> Locator:
        return self.root.get_by_label("Preset reply to a flagged question", exact=True)

    @property
    def moderate_answers(self) -> Locator:
        return self.root.get_by_role("checkbox", name="Moderate answers", exact=True)

    @property
    def answer_reply(self) -> Locator:
        return self.root.get_by_label("Preset reply to a flagged answer", exact=True)

    def field(self, name: str) -> Locator:
        """A field by what a scenario calls it: keywords, the preset reply to questions or answers."""
        fields = {
            "keywords": self.keywords,
            "preset reply to questions": self.question_reply,
            "preset reply to answers": self.answer_reply,
        }
        return fields[name]

    def add_keyword(self, keyword: str) -> None:
        """Type one more keyword on a line of its own, at the end of the list."""
        self.keywords.press("Control+End")
        self.keywords.press_sequentially(f"\n{keyword}")
