"""Content moderation: the configure page's card (keywords, switches, preset replies, their
errors), the draft's moderation, and what each surface answers and stores for a flagged question
or answer (the preview, the web app, the service API with "that key")."""

import re

from behave import given, then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.api.models import AnswerEvent, MessageEndEvent, MessageReplaceEvent
from support.api_setup.access import ask_service_api_blocking, service_api_client
from support.api_setup.agents import saved_agent
from support.api_setup.moderation import moderate, moderation_as_read, preview_conversation, stored_as_read
from support.step_helpers import LONG_WAIT_MS, data_table, doc_string, need
from support.ui.chat_pane import ChatPane
from support.ui.moderation import ModerationCard
from support.ui.preview import PreviewPane
from support.ui.web_app import WebAppPage
from support.world import World


def _card(world: World) -> ModerationCard:
    return ModerationCard(world.page)


def _table(context: Context) -> dict[str, str]:
    return {row["field"]: row["value"] for row in data_table(context)}


def _stored_table(context: Context) -> list[dict[str, str]]:
    return [
        {"role": r["role"], "content": r["content"], "moderated": r["moderated"]} for r in data_table(context)
    ]


@given("the agent moderates questions with the keywords {strings} and the preset reply {string} via API")
def step_moderates_questions(context: Context, keywords: list[str], reply: str) -> None:
    """Save the draft moderating questions on these keywords, answers not (setup)."""
    moderate(context.world, keywords, questions=reply)


@given("the agent moderates answers with the keywords {strings} and the preset reply {string} via API")
def step_moderates_answers(context: Context, keywords: list[str], reply: str) -> None:
    """Save the draft moderating answers on these keywords, questions not (setup)."""
    moderate(context.world, keywords, answers=reply)


@given("the agent moderates questions on {int} keywords via API")
def step_moderates_many(context: Context, count: int) -> None:
    """Save the draft moderating questions on `keyword-1` ... `keyword-<count>` (setup)."""
    moderate(context.world, [f"keyword-{n}" for n in range(1, count + 1)], questions="Not here.")


@when("I enter the moderation keywords:")
def step_enter_keywords(context: Context) -> None:
    """Replace the Keywords field with the doc string's lines."""
    _card(context.world).keywords.fill(doc_string(context))


@when("I add the moderation keyword {string}")
def step_add_keyword(context: Context, keyword: str) -> None:
    """Type one more keyword on its own line at the end of the Keywords field."""
    _card(context.world).add_keyword(keyword)


@when("I turn on moderation of questions")
def step_moderate_questions(context: Context) -> None:
    """Tick Moderate questions."""
    _card(context.world).moderate_questions.check()


@when("I turn on moderation of answers")
def step_moderate_answers(context: Context) -> None:
    """Tick Moderate answers."""
    _card(context.world).moderate_answers.check()


@when("I write the preset reply to questions {string}")
def step_question_reply(context: Context, text: str) -> None:
    """Type the preset reply that stands in for a flagged question."""
    _card(context.world).question_reply.fill(text)


@when("I write the preset reply to answers {string}")
def step_answer_reply(context: Context, text: str) -> None:
    """Type the preset reply that replaces a flagged answer."""
    _card(context.world).answer_reply.fill(text)


@then("the moderation card shows:")
def step_card_shows(context: Context) -> None:
    """The card shows exactly these values (keywords one a line, switches `on` or `off`)."""
    card = _card(context.world)
    expected = _table(context)
    expect(card.keywords).to_have_value("\n".join(expected["keywords"].split(" / ")))
    for name, switch in (
        ("moderate questions", card.moderate_questions),
        ("moderate answers", card.moderate_answers),
    ):
        if expected[name] == "on":
            expect(switch).to_be_checked()
        else:
            expect(switch).not_to_be_checked()
    expect(card.question_reply).to_have_value(expected["preset reply to questions"])
    expect(card.answer_reply).to_have_value(expected["preset reply to answers"])


@then("the agent's draft moderation is exactly:")
def step_draft_moderation(context: Context) -> None:
    """The saved draft's moderation (console API) is exactly the table: every field, nothing else."""
    read = moderation_as_read(saved_agent(context.world))
    assert read == _table(context), f"the draft's moderation is {read}"


@then("the moderation {string} says {string}")
def step_field_says(context: Context, field: str, message: str) -> None:
    """The field (keywords, preset reply to questions or answers) is invalid and says why."""
    element = _card(context.world).field(field)
    expect(element).to_have_attribute("aria-invalid", "true")
    expect(element).to_have_accessible_description(re.compile(re.escape(message) + "$"))


@then("no moderation field shows an error")
def step_no_field_error(context: Context) -> None:
    """Every moderation field is valid again."""
    card = _card(context.world)
    for name in ("keywords", "preset reply to questions", "preset reply to answers"):
        expect(card.field(name)).not_to_have_attribute("aria-invalid", "true")


@then("the preview conversation is stored as:")
def step_preview_stored(context: Context) -> None:
    """The preview conversation the pane holds, as the console stores it: role, content, moderated."""
    world: World = context.world
    agent_id = saved_agent(world).id
    conversation_id = need(
        PreviewPane(world.page).stored_conversation_id(agent_id), "the preview holds no conversation"
    )
    stored = stored_as_read(preview_conversation(world, conversation_id))
    assert stored == _stored_table(context), f"the console stored {stored}"


@when("I ask the web app {string}")
def step_ask_web_app(context: Context, text: str) -> None:
    """Type the question in the web app and send it."""
    WebAppPage(context.world.page).send(text)


@then("the web app answers {string}")
def step_web_app_answers(context: Context, text: str) -> None:
    """The web app's last reply, once finished, is exactly the text."""
    expect(WebAppPage(context.world.page).finished_reply_text(LONG_WAIT_MS)).to_have_text(text)


@then("the web app conversation is stored as:")
def step_web_app_stored(context: Context) -> None:
    """The web app's conversation, read back through its API with this visitor's cookie."""
    body = WebAppPage(context.world.page).stored_messages()
    messages = body["data"] if isinstance(body, dict) else []
    stored = [
        {"role": m["role"], "content": m["content"], "moderated": m.get("moderated") or "-"} for m in messages
    ]
    assert stored == _stored_table(context), f"the web app's conversation is stored as {stored}"


def _reply_growth(pane: ChatPane, first: str, then_text: str, never: str) -> None:
    growth = pane.reply_growth()
    texts = [state.text for state in growth]
    assert any(state.busy and state.text == first for state in growth), (
        f"the reply never showed {first!r} while it streamed: {texts}"
    )
    assert texts and texts[-1] == then_text and not growth[-1].busy, (
        f"the reply did not end as {then_text!r}: {texts}"
    )
    shown_never = [text for text in texts if never.lower() in text.lower()]
    assert not shown_never, f"the reply showed {never!r}: {shown_never}"


@then("the preview reply showed {string} while it streamed, then became {string}, never showing {string}")
def step_preview_replaced(context: Context, first: str, then_text: str, never: str) -> None:
    """What the watched preview reply showed, in order: a part, then the preset reply; never the keyword."""
    _reply_growth(PreviewPane(context.world.page), first, then_text, never)


@then("the web app reply showed {string} while it streamed, then became {string}, never showing {string}")
def step_web_app_replaced(context: Context, first: str, then_text: str, never: str) -> None:
    """What the watched web app reply showed, in order: a part, then the preset reply; never the keyword."""
    _reply_growth(WebAppPage(context.world.page), first, then_text, never)


@when("I watch the preview's replies as they arrive")
def step_watch_preview(context: Context) -> None:
    """The preview notes each state of its next reply (for how it streamed in)."""
    PreviewPane(context.world.page).watch_replies()


@when("I ask the service API {string} with that key")
def step_ask_service_api(context: Context, query: str) -> None:
    """Ask in blocking mode with "that key", in a new conversation; the answer is kept."""
    ask_service_api_blocking(context.world, query, None)


@when("I ask the service API {string} with that key in the same conversation")
def step_ask_service_api_again(context: Context, query: str) -> None:
    """Ask in blocking mode in the conversation the last answer named."""
    world: World = context.world
    ended = need(world.agent_builder.service_api_chat.ended, "no service API conversation was started")
    ask_service_api_blocking(world, query, ended.conversation_id)


@when("I ask the service API {string} with that key, streaming")
def step_stream_service_api(context: Context, query: str) -> None:
    """Ask in streaming mode with "that key"; every event is kept, and what message_end names."""
    state = context.world.agent_builder.service_api_chat
    state.stream_events = service_api_client(context.world).chat_streaming(query)
    ends = [event.data for event in state.stream_events if isinstance(event.data, MessageEndEvent)]
    state.ended = ends[-1] if ends else None


@then("the service API answered {string}, moderated {string}")
def step_service_answered(context: Context, text: str, moderated: str) -> None:
    """The blocking answer is exactly the text, and says how content moderation stood in."""
    state = context.world.agent_builder.service_api_chat
    assert state.refused is None, f"the service API refused: {state.refused}"
    ended = need(state.ended, "no service API answer was returned")
    assert (state.answer, ended.moderated) == (text, moderated), (
        f"the service API answered {state.answer!r}, moderated {ended.moderated!r}"
    )


@then("the service API streamed {string}, then replaced it with {string}, moderated {string}")
def step_service_replaced(context: Context, shown: str, replacement: str, moderated: str) -> None:
    """The streamed pieces join to `shown`, then one message_replace, then message_end, marked.

    Nothing follows the replacement but the end: no piece of the flagged answer comes after it.
    """
    events = context.world.agent_builder.service_api_chat.stream_events
    names = [event.event for event in events]
    assert names.count("message_replace") == 1 and names[-2:] == ["message_replace", "message_end"], names
    pieces = "".join(
        e.data.answer for e in events if e.event == "message" and isinstance(e.data, AnswerEvent)
    )
    replaced = events[-2].data
    end = events[-1].data
    assert isinstance(replaced, AnswerEvent | MessageReplaceEvent) and isinstance(end, MessageEndEvent), (
        events
    )
    replaced_text = replaced.answer if isinstance(replaced, AnswerEvent) else replaced.text
    assert (pieces, replaced_text, end.moderated) == (shown, replacement, moderated), (
        f"streamed {pieces!r}, replaced with {replaced_text!r}, moderated {end.moderated!r}"
    )


@then("the service API conversation is stored as:")
def step_service_stored(context: Context) -> None:
    """The conversation the last answer named, read with "that key": role, content, moderated."""
    world: World = context.world
    ended = need(world.agent_builder.service_api_chat.ended, "no service API answer was returned")
    stored = stored_as_read(service_api_client(world).conversation_messages(ended.conversation_id).data)
    assert stored == _stored_table(context), f"the service API conversation is stored as {stored}"


def _numbered(first: str, last: str) -> list[str]:
    """`keyword-1` ... `keyword-100` from "keyword-1" and "keyword-100"."""
    prefix, start = first.rsplit("-", 1)
    end = last.rsplit("-", 1)[1]
    return [f"{prefix}-{n}" for n in range(int(start), int(end) + 1)]


@then("the moderation card lists the keywords {string} to {string}")
def step_card_lists_numbered(context: Context, first: str, last: str) -> None:
    """The Keywords field holds exactly these numbered keywords, one a line, in order."""
    expect(_card(context.world).keywords).to_have_value("\n".join(_numbered(first, last)))


@then("the agent's draft moderates on exactly the keywords {string} to {string}")
def step_draft_numbered(context: Context, first: str, last: str) -> None:
    """The saved draft's keywords (console API) are exactly these numbered ones, in order."""
    keywords = saved_agent(context.world).draft.config.moderation.keywords
    assert keywords == _numbered(first, last), f"the draft's keywords are {keywords}"
