"""The access matrix: every public route of the web app and the service API, called as its client
calls it, in every state of the agent's access (features/agent/access-matrix.feature)."""

import html
import re

from behave import given, then, when
from behave.runner import Context

from support.api.public_routes import (
    SERVICE_API_ROUTES,
    WEB_APP_ROUTES,
    Answer,
    documented_routes,
    sessionless_request,
)
from support.api_setup.access import (
    public_route_answer,
    publish_with_visitor_conversation,
    service_api_in_state,
    web_app_in_state,
)
from support.api_setup.agents import current_agent, saved_agent
from support.step_helpers import doc_string, need
from support.tags import TEST_HOOKS
from support.ui.web_app import WebAppPage
from support.world import World

_HEADING = re.compile(r"<h1[^>]*>(.*?)</h1>", re.DOTALL)


@given("the agent's web app is {string}")
@TEST_HOOKS
def step_web_app_state(context: Context, state: str) -> None:
    """Publish the agent with a visitor's conversation, then make its web app unknown, deleted, disabled or enabled."""
    world: World = context.world
    seeded = publish_with_visitor_conversation(world)
    WebAppPage(world.page).become_visitor(world.console_url, seeded.visitor_token)
    web_app_in_state(world, state, seeded)


@given("the agent's service API is {string}")
@TEST_HOOKS
def step_service_api_state(context: Context, state: str) -> None:
    """Give the integrator a key of the agent whose service API is unknown, unpublished, disabled or enabled."""
    service_api_in_state(context.world, state)


@when("its client sends {string}")
def step_client_sends(context: Context, route: str) -> None:
    """Send the route's request as its client does: the visitor's browser, or the integrator's key."""
    world: World = context.world
    world.agent_builder.access_matrix.answer = public_route_answer(world, route)


@when("its client sends {string} with the body:")
def step_client_sends_body(context: Context, route: str) -> None:
    """Send the route's request as its client does, with the doc string as its body, byte for byte."""
    world: World = context.world
    world.agent_builder.access_matrix.answer = public_route_answer(world, route, doc_string(context))


@then("the route answers {string} {string}")
def step_route_answers(context: Context, status: str, answer: str) -> None:
    """The route answered this status with this error code (the page: its heading), or this body.

    A 200's body is named: `the chat page`, `the seeded reply`, `the seeded conversation`,
    `the agent's info` or `the published parameters`. `503 or 409` with `runtime_unavailable or
    model_unavailable` is a chat let through: the first pair without a runtime, the second with one.
    """
    world: World = context.world
    got = need(
        world.agent_builder.access_matrix.answer, "no route was called: add 'When its client sends \"...\"'"
    )
    answers = dict(zip(status.split(" or "), answer.split(" or "), strict=True))
    expected = answers.get(str(got.status))
    assert expected is not None, f"{got.route} answered {got.status}, expected {status}: {got.text[:300]}"
    if got.status >= 400:
        _check_refusal(got, expected)
    else:
        _check_body(world, got, expected)


@then("the refusal names the field {string} and says {string}")
def step_refusal_names_field(context: Context, field_name: str, message: str) -> None:
    """The refusal's message is exactly this, and its first error is about this field."""
    world: World = context.world
    got = need(
        world.agent_builder.access_matrix.answer, "no route was called: add 'When its client sends ...'"
    )
    body = got.json()
    assert body.get("message") == message, f"{got.route} said {body.get('message')!r}, expected {message!r}"
    errors = body.get("errors") or [{}]
    assert errors[0].get("field") == field_name, (
        f"{got.route} named {errors[0]!r}, expected the field {field_name!r}"
    )


def _check_refusal(got: Answer, code: str) -> None:
    if got.route.split(" ", 1)[1] == "/chat/{site_token}":
        heading = _HEADING.search(got.text)
        shown = html.unescape(heading.group(1)).strip() if heading else None
        assert shown == code, f"the page's heading is {shown!r}, expected {code!r}"
        return
    body = got.json()
    assert body.get("code") == code, (
        f"{got.route} answered the code {body.get('code')!r}, expected {code!r}: {body}"
    )
    assert isinstance(body.get("message"), str) and body["message"], f"{got.route}: no message in {body}"


def _check_body(world: World, got: Answer, expected: str) -> None:
    agent = current_agent(world)
    conversation = world.agent_builder.access_matrix.visitor_conversation
    if expected == "the chat page":
        heading = _HEADING.search(got.text)
        assert heading and html.unescape(heading.group(1)).strip() == agent.name, got.text[:300]
    elif expected == "the seeded reply":
        reply = got.json()
        assert conversation and reply["id"] == conversation.reply_id, reply
        assert reply["role"] == "assistant", reply
    elif expected == "the seeded conversation":
        messages = got.json()["data"]
        assert conversation, "no visitor conversation"
        assert [m["conversation_id"] for m in messages] == [conversation.conversation_id] * 2, messages
        assert messages[-1]["id"] == conversation.reply_id, messages
    elif expected == "the agent's info":
        assert got.json() == {"name": agent.name, "description": agent.description}, got.text
    elif expected == "the published parameters":
        published = need(saved_agent(world).published, "the agent has no published version").config
        expected_body = {
            "opening_statement": published.opening_statement,
            "suggested_questions": published.suggested_questions,
        }
        assert got.json() == expected_body, got.text
    else:
        raise AssertionError(f"no check for the body {expected!r}: name one the step's docstring lists")


@then("every console API route the console documents refuses a caller without a session")
def step_console_routes_refuse(context: Context) -> None:
    """Each /console/api operation of /openapi.json, sent with no session, key or body, answers 401 `unauthorized`."""
    world: World = context.world
    ids = {"agent_id": current_agent(world).id, "name": "API_TOKEN"}
    routes = [
        r for r in documented_routes(world.console_url) if r.split(" ", 1)[1].startswith("/console/api/")
    ]
    assert len(routes) >= 40, f"the console documents only {len(routes)} console API routes: {routes}"
    answered = {}
    for route in routes:
        if route == "POST /console/api/login":
            continue  # signing in is what a caller without a session does
        got = sessionless_request(world.console_url, route, ids)
        code = got.json().get("code") if got.text.startswith("{") else None
        if (got.status, code) != (401, "unauthorized"):
            answered[route] = f"{got.status} {got.text[:120]}"
    assert not answered, f"answered without a session: {answered}"


@then("the console documents no web app or service API route the access matrix leaves out")
def step_no_public_route_left_out(context: Context) -> None:
    """Every /chat/ and /v1/ operation of /openapi.json is one the matrix's outlines call."""
    world: World = context.world
    public = [
        r for r in documented_routes(world.console_url) if r.split(" ", 1)[1].startswith(("/chat/", "/v1/"))
    ]
    left_out = sorted(set(public) - set(WEB_APP_ROUTES) - set(SERVICE_API_ROUTES))
    assert public and not left_out, (
        f"public routes with no row in features/agent/access-matrix.feature: {left_out}; add each to "
        "support/api/public_routes.py (how its client calls it) and to the Examples in every state"
    )
