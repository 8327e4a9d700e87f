"""The service API as an integrator calls it with "that key" (the public HTTP contract): info,
parameters, refusals, and blocking or streaming chat."""

from behave import given, then, when
from behave.runner import Context

from support.api.models import AnswerEvent, MessageEndEvent
from support.api.service import END_USER
from support.api.web_app import conversation_status
from support.api_setup.access import (
    another_published_agent_key,
    ask_service_api_blocking,
    public_urls,
    service_api_client,
)
from support.api_setup.agents import current_agent, saved_agent
from support.goldens import check_text, event_sequence
from support.step_helpers import need
from support.tags import SERVICE_API_CHAT
from support.world import World


def _conversation_id(world: World) -> str:
    """The conversation the last service API chat started."""
    ended = need(world.agent_builder.service_api_chat.ended, "no service API conversation was started")
    return ended.conversation_id


def _chat_streaming(world: World, query: str, conversation_id: str | None) -> None:
    """Stream the answer and keep every event, and what its `message_end` names."""
    state = world.agent_builder.service_api_chat
    timed = service_api_client(world).chat_streaming_timed(query, conversation_id)
    state.stream_events = [event for event, _ in timed]
    state.stream_arrivals = [arrived for _, arrived in timed]
    ends = [event.data for event in state.stream_events if isinstance(event.data, MessageEndEvent)]
    state.ended = ends[-1] if ends else state.ended


@when("I send {string} to the service API in blocking mode")
@SERVICE_API_CHAT
def step_send_blocking(context: Context, query: str) -> None:
    """Send the query with "that key" in blocking mode; a refusal is kept for later steps."""
    ask_service_api_blocking(context.world, query, None)


@when("I send {string} to the service API in the same conversation")
@SERVICE_API_CHAT
def step_send_same_conversation(context: Context, query: str) -> None:
    """Send the query in the conversation the previous call started."""
    world: World = context.world
    ask_service_api_blocking(world, query, _conversation_id(world))


@when("I send {string} to the service API in streaming mode")
@SERVICE_API_CHAT
def step_send_streaming(context: Context, query: str) -> None:
    """Send the query in streaming mode and keep every event, and the ids its message_end names."""
    _chat_streaming(context.world, query, None)


@when("I send {string} to the service API in streaming mode in the same conversation")
@SERVICE_API_CHAT
def step_send_streaming_same_conversation(context: Context, query: str) -> None:
    """Stream the query in the conversation the previous call named (a stream: its message_end)."""
    world: World = context.world
    _chat_streaming(world, query, _conversation_id(world))


@then("the service API answer is {string}")
@SERVICE_API_CHAT
def step_answer_is(context: Context, text: str) -> None:
    """The blocking answer is exactly the text."""
    state = context.world.agent_builder.service_api_chat
    assert state.refused is None, f"the service API refused with {state.refused}"
    assert state.answer == text, f"the answer is {state.answer!r}"


@then("the streamed answer is {string}")
@SERVICE_API_CHAT
def step_streamed_answer(context: Context, text: str) -> None:
    """The streamed message events join to the text, and the stream ends with message_end."""
    world: World = context.world
    events = world.agent_builder.service_api_chat.stream_events
    answer = "".join(
        event.data.answer
        for event in events
        if event.event == "message" and isinstance(event.data, AnswerEvent)
    )
    assert answer == text, f"the streamed answer is {answer!r}; events: {[e.event for e in events]}"
    assert events and events[-1].event == "message_end", (
        f"the stream ended with {events[-1].event if events else None}"
    )


@then("the first words of the streamed answer arrived at least {int} ms before its end")
@SERVICE_API_CHAT
def step_streamed_in_parts(context: Context, ms: int) -> None:
    """The first `message` event reached the client that long before `message_end`.

    The stream is passed on as it comes, by the console and by any proxy in front of it, not buffered.
    """
    state = context.world.agent_builder.service_api_chat
    timed = list(zip(state.stream_events, state.stream_arrivals, strict=True))
    first = next(arrived for event, arrived in timed if event.event == "message")
    end = next(arrived for event, arrived in timed if event.event == "message_end")
    gap_ms = (end - first) * 1000
    assert gap_ms >= ms, (
        f"the first words arrived only {gap_ms:.0f} ms before message_end (at least {ms} ms expected): "
        "something between the runtime and this client buffers the stream"
    )


@then("the service API event sequence matches the golden {string}")
@SERVICE_API_CHAT
def step_stream_golden(context: Context, name: str) -> None:
    """The stream's event sequence (names and payload shapes) equals the golden file."""
    world: World = context.world
    events = world.agent_builder.service_api_chat.stream_events
    actual = event_sequence((event.event, event.data.model_dump(mode="json")) for event in events)
    check_text(world.settings, f"{name}.json", actual)


@then("the service API conversation has {int} exchanges")
@SERVICE_API_CHAT
def step_conversation_exchanges(context: Context, count: int) -> None:
    """The conversation holds that many completed user/assistant exchanges."""
    world: World = context.world
    messages = service_api_client(world).conversation_messages(_conversation_id(world)).data
    roles = [message.role for message in messages]
    assert roles == ["user", "assistant"] * count, f"the conversation holds {roles}"
    assert all(message.status == "completed" for message in messages), [m.status for m in messages]


@then("the service API refuses with status {int} and the code {string}")
@SERVICE_API_CHAT
def step_refuses(context: Context, status: int, code: str) -> None:
    """The last service API chat was refused with this status, its error body naming this code."""
    state = context.world.agent_builder.service_api_chat
    refused = (state.refused.status, state.refused.code) if state.refused else None
    assert refused == (status, code), (
        f"the service API answered {refused or 'with an answer'}, expected {(status, code)}"
    )


@then("the message id and usage the service API returned are those of the conversation's last reply")
@SERVICE_API_CHAT
def step_ids_name_last_reply(context: Context) -> None:
    """Read back by the conversation id it returned, the conversation ends with the reply its message_id names, with its usage."""
    world: World = context.world
    ended = need(world.agent_builder.service_api_chat.ended, "no service API answer was returned")
    messages = service_api_client(world).conversation_messages(ended.conversation_id).data
    assert messages, f"the conversation {ended.conversation_id} the service API returned holds no message"
    last = messages[-1]
    assert [m.conversation_id for m in messages] == [ended.conversation_id] * len(messages), messages
    assert (last.role, last.id) == ("assistant", ended.message_id), (
        f"the service API returned the message id {ended.message_id}; the conversation's last reply is "
        f"{last.role} {last.id}"
    )
    assert last.usage == ended.usage, (
        f"the service API returned the usage {ended.usage}; the reply holds {last.usage}"
    )
    usage = ended.usage
    assert usage.total_tokens == usage.prompt_tokens + usage.completion_tokens > 0, usage


@then("the service API rejects that key with status {int}")
def step_service_rejects(context: Context, status: int) -> None:
    """/v1/info with "that key" answers this status."""
    world: World = context.world
    answered = service_api_client(world).info_status()
    assert answered == status, f"/v1/info answered {answered}, expected {status}"


@then("the service API info with that key names the agent")
def step_service_info(context: Context) -> None:
    """/v1/info with "that key" names the current agent."""
    world: World = context.world
    info = service_api_client(world).info()
    assert info.name == current_agent(world).name, f"/v1/info names {info.name!r}"


@then("the service API info with the other key names the agent")
def step_service_info_other_key(context: Context) -> None:
    """/v1/info with "the other key" (a second key of the agent) names the current agent."""
    world: World = context.world
    info = service_api_client(world, world.agent_builder.access_point.other_api_key_secret).info()
    assert info.name == current_agent(world).name, f"/v1/info names {info.name!r}"


@given("another published agent has an API key")
def step_other_agent_key(context: Context) -> None:
    """Publish a second runnable agent with a key of its own ("the other agent's API key").

    "The agent" stays the one before.
    """
    world: World = context.world
    model = need(
        world.agent_builder.seeded.stable_model, "Put `Given the stable chat model is available` first."
    )
    world.agent_builder.service_api_chat.other_agent_api_key = another_published_agent_key(world, model)


@then("the agent's web app cannot read that conversation")
def step_web_app_cannot_read(context: Context) -> None:
    """The agent's web app API does not know the service API conversation (404)."""
    world: World = context.world
    status = conversation_status(public_urls(world).web_app, _conversation_id(world))
    assert status == 404, f"the web app answered {status} for a service API conversation"


def _conversation_status(world: World, secret: str | None = None, user: str = END_USER) -> int:
    return service_api_client(world, secret).conversation_status(_conversation_id(world), user)


@then("that key reads that conversation")
def step_key_reads_conversation(context: Context) -> None:
    """The key and user that started the conversation read it (200).

    The refusals that follow are then about who asks, not about a conversation no one can read.
    """
    status = _conversation_status(context.world)
    assert status == 200, f"the key that started the conversation was answered {status}"


@then("the agent's other API key cannot read that conversation")
def step_sibling_key_cannot_read(context: Context) -> None:
    """A second key of the same agent does not open the conversation (404): it is its key's."""
    world: World = context.world
    status = _conversation_status(world, world.agent_builder.access_point.other_api_key_secret)
    assert status == 404, f"the agent's other key read the conversation ({status})"


@then("that key cannot read that conversation as another user")
def step_other_user_cannot_read(context: Context) -> None:
    """The same key with another `user` does not open the conversation (404): it is that user's."""
    status = _conversation_status(context.world, user=f"{END_USER}-someone-else")
    assert status == 404, f"another user of the key read the conversation ({status})"


@then("the other agent's API key cannot read that conversation")
def step_other_key_cannot_read(context: Context) -> None:
    """Another agent's service API key does not open this agent's conversation (404)."""
    world: World = context.world
    hint = 'no other agent has a key: add "Given another published agent has an API key"'
    status = _conversation_status(world, need(world.agent_builder.service_api_chat.other_agent_api_key, hint))
    assert status == 404, f"another agent's key read the conversation ({status})"


@then("the service API parameters with that key match the agent's opening statement and suggested questions")
def step_service_parameters(context: Context) -> None:
    """/v1/parameters equal the published opening statement and questions."""
    world: World = context.world
    published = saved_agent(world).published
    assert published is not None, "the agent has no published version"
    parameters = service_api_client(world).parameters()
    assert parameters.opening_statement == published.config.opening_statement, parameters
    assert parameters.suggested_questions == published.config.suggested_questions, parameters
