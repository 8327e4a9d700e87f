"""Requests the scenario holds open: that the page sent one, and letting it through.

Holding a request is the setup of its own capability's module (`the console holds the next draft
save` in agent_configure, `... access change` in access_point, a roster search in agent_roster);
these sentences work for any of them, by the name used there.
"""

from behave import then, when
from behave.runner import Context

from support.browser.held_requests import HeldRequest
from support.step_helpers import need
from support.world import World


def _held(world: World, what: str) -> HeldRequest:
    return need(
        world.held.get(what),
        f'Nothing holds the {what}: start with "Given the console holds the next {what}".',
    )


@then("the held {held_request} has been sent")
def step_held_sent(context: Context, what: str) -> None:
    """The page sent the held request (it is still held open)."""
    _held(context.world, what).wait_until_sent()


@when("the held {held_request} is released")
def step_held_released(context: Context, what: str) -> None:
    """Let the held request through to the console."""
    _held(context.world, what).release()


@when("the held {held_request} is answered")
def step_held_answered(context: Context, what: str) -> None:
    """Let the held request through and wait until the page has handled its answer."""
    _held(context.world, what).release_and_wait_until_answered()


@when("the held {held_request} reaches the console, its answer kept from the page")
def step_held_answer_kept(context: Context, what: str) -> None:
    """The console receives the held request and answers; the page never hears the answer."""
    _held(context.world, what).hold_answer()
