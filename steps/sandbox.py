"""The sandbox service itself (shellctl): it serves only the runtime and the console, which hold
its token. Chats that run commands in it are in web_app.py."""

from behave import then
from behave.runner import Context

from support.api.shellctl import exec_status
from support.step_helpers import need
from support.world import World


def _shellctl_url(world: World) -> str:
    backend = world.agent_builder.seeded.agent_backend
    hint = "No shellctl URL is known: run with E2E_START_AGENT_BACKEND=1 (make post-merge) or set E2E_SHELLCTL_URL."
    return need(backend.shellctl_url if backend else None, hint)


@then("the sandbox refuses a command sent without its token")
def step_sandbox_needs_token(context: Context) -> None:
    """A command posted to shellctl with no Authorization header is refused (401)."""
    status = exec_status(_shellctl_url(context.world), None)
    assert status == 401, f"shellctl answered {status} to a command without a token"


@then("the sandbox refuses a command sent with another token")
def step_sandbox_needs_its_token(context: Context) -> None:
    """A command posted to shellctl with a bearer token that is not its own is refused (401)."""
    status = exec_status(_shellctl_url(context.world), "Bearer e2e-not-the-shellctl-token")
    assert status == 401, f"shellctl answered {status} to a command with a token that is not its own"
