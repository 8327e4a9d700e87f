"""An agent's configure page (`/agents/<id>/configure`): the draft's fields, tools and knowledge.

The header and publish bar it shares with the access point are `agent_header` and `publish_bar`;
its files section is `agent_files`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from playwright.sync_api import Locator, Page

from support.browser.held_requests import HeldRequest, hold

# At most this many suggested questions; the page says so next to "Add question".
QUESTION_LIMIT_NOTE = "At most 5 questions"
NO_DATASETS_ATTACHED = "No datasets attached"
# Longer than the page waits after an edit before it saves (configure.js SAVE_DELAY_MS).
AUTOSAVE_DELAY_MS = 1000
_DRAFT_SAVE = re.compile(r"/console/api/agents/[^/?]+/draft$")


@dataclass(frozen=True)
class ConfigurePage:
    page: Page

    @staticmethod
    def path(agent_id: str) -> str:
        return f"/agents/{agent_id}/configure"

    @staticmethod
    def url(agent_id: str | None = None) -> re.Pattern[str]:
        """This page's URL, for `expect(page).to_have_url`; any agent's when `agent_id` is None."""
        agent = re.escape(agent_id) if agent_id else "[^/]+"
        return re.compile(rf"/agents/{agent}/configure$")

    def agent_id(self) -> str:
        """The id of the agent the page shows, read from its URL."""
        return self.page.url.rstrip("/").split("/")[-2]

    def section(self, name: str) -> Locator:
        return self.page.get_by_role("heading", name=name, exact=True)

    @property
    def instructions(self) -> Locator:
        return self.page.get_by_label("Instructions", exact=True)

    @property
    def opening_statement(self) -> Locator:
        # The field, not the preview's opening statement (an article of that name).
        return self.page.get_by_role("textbox", name="Opening statement", exact=True)

    @property
    def model(self) -> Locator:
        return self.page.get_by_label("Model", exact=True)

    @property
    def selected_model(self) -> Locator:
        return self.model.get_by_role("option", selected=True)

    def model_option(self, label: str) -> Locator:
        return self.model.get_by_role("option", name=label, exact=True)

    def field(self, label: str) -> Locator:
        return self.page.get_by_label(label, exact=True)

    def type_and_leave(self, label: str, text: str) -> None:
        """Type into the field key by key, as a user does (a number field takes unfinished numbers
        such as "e" or "1." only so), then leave it."""
        field = self.field(label)
        field.select_text()  # typed over, with no empty value in between
        field.press_sequentially(text)
        field.blur()

    def suggested_question(self, number: int) -> Locator:
        return self.page.get_by_label(f"Suggested question {number}", exact=True)

    @property
    def suggested_questions(self) -> Locator:
        return self.page.get_by_label(re.compile(r"^Suggested question \d+$"))

    @property
    def add_question(self) -> Locator:
        return self.page.get_by_role("button", name="Add question")

    def add_suggested_question(self, text: str) -> None:
        count = self.suggested_questions.count()
        self.add_question.click()
        self.suggested_question(count + 1).fill(text)

    @property
    def question_limit_note(self) -> Locator:
        return self.page.get_by_text(QUESTION_LIMIT_NOTE)

    def tool(self, label: str) -> Locator:
        return self.page.get_by_role("checkbox", name=label, exact=True)

    @property
    def tools_section(self) -> Locator:
        return self.page.get_by_role("region", name="Tools", exact=True)

    @property
    def switched_on_tools(self) -> Locator:
        """Every tool switch that is on."""
        return self.tools_section.get_by_role("checkbox", checked=True)

    def switched_on_tool(self, label: str) -> Locator:
        return self.tools_section.get_by_role("checkbox", name=label, exact=True, checked=True)

    @property
    def knowledge_section(self) -> Locator:
        return self.page.get_by_role("region", name="Knowledge", exact=True)

    def attach_dataset(self, name: str) -> None:
        section = self.knowledge_section
        section.get_by_label("Dataset", exact=True).select_option(label=name)
        section.get_by_role("button", name="Attach", exact=True).click()

    def detach_dataset(self, name: str) -> None:
        self.knowledge_section.get_by_role("button", name=f"Remove {name}", exact=True).click()

    def attached_dataset(self, name: str) -> Locator:
        return self.knowledge_section.get_by_role("listitem").filter(has_text=name)

    @property
    def attached_dataset_rows(self) -> Locator:
        """The attached datasets' rows (one "No datasets attached" row when there is none)."""
        return self.knowledge_section.get_by_role("listitem")

    @property
    def no_datasets_attached(self) -> Locator:
        return self.knowledge_section.get_by_role("listitem").filter(has_text=NO_DATASETS_ATTACHED)

    def return_to_tab(self) -> None:
        """The user comes back to this tab. Headless pages never lose focus or visibility, so the
        events a real return fires are dispatched as the browser would."""
        self.page.evaluate(
            "() => { document.dispatchEvent(new Event('visibilitychange')); window.dispatchEvent(new Event('focus')); }"
        )

    def hold_next_draft_save(self, timeout_ms: float) -> HeldRequest:
        """Hold the page's next draft save open. The page's clock is taken over too (it keeps
        running), so `let_autosave_delay_pass` can end an edit's save delay at once."""
        self.page.clock.install()
        return hold(self.page, "the draft save", lambda url: bool(_DRAFT_SAVE.search(url)), timeout_ms)

    def stop_autosave_delay(self) -> None:
        """Stop the page's clock, so an edit's save delay never runs out by itself: only what the
        page does on purpose (Publish, leaving) saves the edit."""
        self.page.clock.install()
        self.page.clock.pause_at(datetime.now() + timedelta(seconds=1))

    def let_autosave_delay_pass(self) -> None:
        """Run the page's clock past the save delay of the last edit (after `hold_next_draft_save`)."""
        self.page.clock.fast_forward(AUTOSAVE_DELAY_MS)

    def drop_next_variable_list(self) -> None:
        """Make the browser's next request for the agent's variables fail as a dropped connection
        would: the page asks for them as it opens, after the draft is shown."""
        self.page.route(
            "**/console/api/agents/*/env-vars", lambda route: route.abort("connectionrefused"), times=1
        )

    @property
    def load_error(self) -> Locator:
        return self.page.get_by_role("alert").filter(has_text="Could not load the configuration")

    def drop_next_draft_save(self) -> None:
        """Make the browser's next draft save fail as a dropped connection would (the console
        itself is fine), so the page has to say so and offer a retry."""
        self.page.route(
            "**/console/api/agents/*/draft", lambda route: route.abort("connectionrefused"), times=1
        )
