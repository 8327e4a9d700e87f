"""Content moderation: the keyword matcher and the answer guard, the draft's limits and their
errors, a flagged question answered with the preset reply without the runtime (in process), and a
flagged answer replaced while it streams (through the real runtime, tests/chat_stack.py)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from api_shortcuts import create_agent, save_config
from fastapi.testclient import TestClient

from agent_builder.console.services.moderation import AnswerGuard, keyword_pattern
from tests.chat_stack import ChatStack
from tests.console_api_setup import api_key, publish_agent, site_token
from tests.fakes.upstream import FakeUpstream, Text
from tests.sse_events import read_events

QUESTION_REPLY = "I cannot talk about that."
ANSWER_REPLY = "That answer was withheld."


def moderation(
    keywords: list[str],
    inputs: bool = True,
    outputs: bool = False,
    question_reply: str = QUESTION_REPLY,
    answer_reply: str = ANSWER_REPLY,
) -> dict[str, Any]:
    return {
        "keywords": keywords,
        "inputs": {"enabled": inputs, "preset_reply": question_reply},
        "outputs": {"enabled": outputs, "preset_reply": answer_reply},
    }


@pytest.mark.parametrize(
    ("text", "flagged"),
    [
        ("Tell me about zebra stripes", True),
        ("ZEBRA!", True),
        ("Zebra", True),
        ("zebras are not the keyword", False),
        ("a crazebra is not either", False),
        ("the Black   Market is a phrase", True),
        ("black\nmarket spans a line", True),
        ("a black marketeer is not", False),
        ("black and market apart", False),
    ],
)
def test_keywords_match_whole_words_and_phrases_in_any_case(text: str, flagged: bool) -> None:
    pattern = keyword_pattern(["zebra", "black market"])
    assert pattern is not None
    assert (pattern.search(text) is not None) == flagged


def test_no_keywords_no_pattern() -> None:
    assert keyword_pattern([]) is None


def test_the_guard_holds_back_the_word_being_written() -> None:
    guard = AnswerGuard(keyword_pattern(["zebra"]) or pytest.fail("no pattern"))
    assert guard.feed("The zeb") == "The "
    assert guard.feed("ras run") == "zebras "  # "zebras" is not the keyword
    assert guard.finish("The zebras run") == "run"
    assert not guard.flagged


def test_the_guard_never_hands_out_a_keyword() -> None:
    guard = AnswerGuard(keyword_pattern(["black market"]) or pytest.fail("no pattern"))
    shown = guard.feed("Try the black ") + guard.feed("mar") + guard.feed("ket today")
    assert (shown, guard.flagged) == ("Try the black ", True)
    assert guard.feed(" and more") == "" and guard.finish() == ""


def test_the_guard_flags_a_keyword_at_the_very_end() -> None:
    guard = AnswerGuard(keyword_pattern(["zebra"]) or pytest.fail("no pattern"))
    assert guard.feed("It is a zebra") == "It is a "
    assert guard.finish() == "" and guard.flagged


def _refused(client: TestClient, agent: dict[str, Any], **config: Any) -> dict[str, Any]:
    detail = client.get(f"/console/api/agents/{agent['id']}").json()
    body = {"revision": detail["draft"]["revision"], "config": {**detail["draft"]["config"], **config}}
    response = client.put(f"/console/api/agents/{agent['id']}/draft", json=body)
    assert response.status_code == 422, response.text
    return dict(response.json())


@pytest.mark.parametrize(
    ("keywords", "inputs", "message"),
    [
        (
            [f"word{n}" for n in range(101)],
            False,
            "config.moderation.keywords: At most 100 keywords: this list has 101.",
        ),
        (["Zebra", " zebra "], False, 'config.moderation.keywords: "Zebra" and "zebra" are the same keyword'),
        (["big  cat", "Big cat"], False, '"big  cat" and "Big cat" are the same keyword'),
        (["lion", "lion"], False, 'The keyword "lion" is listed twice.'),
        (["x" * 101], False, "A keyword is longer than 100 characters"),
        (["   "], False, "A keyword cannot be empty."),
    ],
)
def test_keyword_limits_are_refused_with_the_reason(
    client: TestClient, keywords: list[str], inputs: bool, message: str
) -> None:
    agent = create_agent(client)
    before = client.get(f"/console/api/agents/{agent['id']}").json()["draft"]
    error = _refused(client, agent, moderation=moderation(keywords, inputs=inputs))
    assert error["code"] == "invalid_request"
    assert message in error["message"], error
    after = client.get(f"/console/api/agents/{agent['id']}").json()["draft"]
    assert after == before  # nothing saved


def test_the_limits_themselves_are_accepted(client: TestClient) -> None:
    agent = create_agent(client)
    keywords = [f"word{n}" for n in range(99)] + ["x" * 100]
    draft = save_config(client, agent, moderation=moderation(keywords, inputs=True, outputs=True))
    assert draft["config"]["moderation"]["keywords"] == keywords


def test_a_moderated_direction_needs_its_preset_reply(client: TestClient) -> None:
    agent = create_agent(client)
    error = _refused(client, agent, moderation=moderation(["zebra"], outputs=True, answer_reply="  "))
    assert error["message"] == "config.moderation: Moderating answers needs a preset reply.", error
    error = _refused(client, agent, moderation=moderation(["zebra"], inputs=True, question_reply="  "))
    assert error["message"] == "config.moderation: Moderating questions needs a preset reply.", error
    # Switched off, an empty preset reply is fine.
    save_config(client, agent, moderation=moderation(["zebra"], inputs=False, question_reply=""))


def test_a_flagged_preview_question_gets_the_preset_reply_without_a_runtime(client: TestClient) -> None:
    """The in-process console has no runtime at all: only moderation can answer."""
    agent = create_agent(client)
    save_config(client, agent, instructions="Be brief.", moderation=moderation(["zebra"]))
    path = f"/console/api/agents/{agent['id']}/preview"
    with client.stream("POST", f"{path}/messages", json={"query": "Tell me about ZEBRA stripes"}) as response:
        assert response.status_code == 200, response.read()
        events = [(event.name, event.data) for event in read_events(response)]
    assert [name for name, _ in events] == ["message_start", "message_delta", "message_end"]
    assert events[1][1] == {"text": QUESTION_REPLY}
    end = events[2][1]
    assert (end["content"], end["status"], end["moderated"]) == (QUESTION_REPLY, "completed", "input")
    assert end["usage"] == {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}
    stored = client.get(f"{path}/conversations/{end['conversation_id']}/messages").json()["data"]
    assert [(m["role"], m["content"], m["moderated"]) for m in stored] == [
        ("user", "Tell me about ZEBRA stripes", "input"),
        ("assistant", QUESTION_REPLY, "input"),
    ]
    # A question without a keyword needs the runtime, which this console has not.
    response = client.post(f"{path}/messages", json={"query": "Tell me about zebras"})
    assert (response.status_code, response.json()["code"]) == (503, "runtime_unavailable")
    # Nor does a flagged question open another visitor's conversation.
    other = client.post(f"{path}/messages", json={"query": "zebra", "conversation_id": "not-a-conversation"})
    assert (other.status_code, other.json()["code"]) == (404, "not_found")


def test_questions_pass_when_only_answers_are_moderated(client: TestClient) -> None:
    agent = create_agent(client)
    save_config(
        client, agent, instructions="Be brief.", moderation=moderation(["zebra"], inputs=False, outputs=True)
    )
    response = client.post(f"/console/api/agents/{agent['id']}/preview/messages", json={"query": "zebra"})
    assert (response.status_code, response.json()["code"]) == (503, "runtime_unavailable")


def test_a_flagged_answer_is_replaced_while_it_streams(
    chat_stack: ChatStack, fake_upstream: FakeUpstream, public_client: httpx.Client
) -> None:
    agent = publish_agent(
        chat_stack.api,
        chat_stack.scripted_model,
        moderation=moderation(["zebra"], inputs=False, outputs=True),
    )
    headers = api_key(chat_stack.api, agent)
    fake_upstream.reply(Text("Stripes belong to the zebra and nobody else"), Text("Horses are fine"))
    body = {"query": "Who has stripes?", "response_mode": "streaming", "user": "user-1"}
    with public_client.stream("POST", "/v1/chat-messages", headers=headers, json=body) as response:
        events = [(event.name, event.data) for event in read_events(response)]
    names = [name for name, _ in events]
    assert names[-2:] == ["message_replace", "message_end"], names
    shown = "".join(data["answer"] for name, data in events if name == "message")
    assert shown == "Stripes belong to the ", events  # never the keyword, nor anything after it
    assert events[-2][1] == {"answer": ANSWER_REPLY}
    end = events[-1][1]
    assert end["moderated"] == "output"
    stored = public_client.get(
        f"/v1/conversations/{end['conversation_id']}/messages", headers=headers, params={"user": "user-1"}
    ).json()["data"]
    assert [(m["role"], m["content"], m["moderated"]) for m in stored] == [
        ("user", "Who has stripes?", None),
        ("assistant", ANSWER_REPLY, "output"),
    ]
    # Blocking: the preset reply, marked; an answer without a keyword is untouched.
    blocking = {"query": "And horses?", "response_mode": "blocking", "user": "user-1"}
    answer = public_client.post("/v1/chat-messages", headers=headers, json=blocking).json()
    assert (answer["answer"], answer["moderated"]) == ("Horses are fine ", None)


def test_a_flagged_web_app_question_never_reaches_the_model(
    chat_stack: ChatStack, fake_upstream: FakeUpstream, public_client: httpx.Client
) -> None:
    agent = publish_agent(chat_stack.api, chat_stack.scripted_model, moderation=moderation(["zebra"]))
    url = f"/chat/{site_token(agent)}/api/messages"
    fake_upstream.reply(Text("Fine"))
    with public_client.stream("POST", url, json={"query": "What about the Zebra?"}) as response:
        events = [(event.name, event.data) for event in read_events(response)]
    assert [name for name, _ in events] == ["message_start", "message_delta", "message_end"]
    assert events[-1][1]["content"] == QUESTION_REPLY
    conversation = events[0][1]["conversation_id"]
    # The next question in that conversation reaches the model without the flagged exchange.
    with public_client.stream(
        "POST", url, json={"query": "And horses?", "conversation_id": conversation}
    ) as response:
        assert [event.name for event in read_events(response)][-1] == "message_end"
    (call,) = fake_upstream.calls("/v1/chat")
    assert [(m["role"], m["content"]) for m in call.body["messages"]] == [
        ("system", "You are a test agent."),
        ("user", "And horses?"),
    ]
