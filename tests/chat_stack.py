"""A console wired to real chat services, for the chat tests (backend and browser): the reference
model, shellctl and the runtime as processes, the session's fake upstream as a scripted model,
and a console process configured with all of them. The `chat_stack` fixture (tests/conftest.py)
starts one per test module."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from support.stack import ListeningSocket, Service
from tests.console_api_setup import activate_model, signed_in
from tests.fakes.upstream import MODEL
from tests.product_services import agent_builder, reference_model, running, workspaces_folder

ADMIN = {"email": "chat-tests@example.com", "password": "chat-tests-password"}
REFERENCE_MODEL = "gpt-4o-mini"
SHELL_TIMEOUT_S = 1
SHELLCTL_TOKEN = "chat-tests-shellctl-token"  # shared by shellctl, the runtime and the console
RUNTIME_TOKEN = "chat-tests-runtime-token"  # shared by the runtime and the console
_TOKEN_ENV = {"AGENT_BUILDER_SHELLCTL_TOKEN": SHELLCTL_TOKEN, "AGENT_BUILDER_RUNTIME_TOKEN": RUNTIME_TOKEN}


@dataclass(frozen=True)
class ChatStack:
    console_url: str
    api: httpx.Client  # signed in as the admin (bearer token)
    reference_model: dict[str, str]  # {provider_id, name}: the deterministic reference model
    scripted_model: dict[str, str]  # {provider_id, name}: answers from the fake upstream's script
    shellctl: httpx.Client  # shellctl's own API, with its token


@contextmanager
def start_chat_stack(workdir: Path, upstream_base_url: str) -> Iterator[ChatStack]:
    """The stack, its logs in `workdir`, its scripted model served at `upstream_base_url`."""
    with ExitStack() as stack:
        reference = stack.enter_context(reference_model(workdir / "reference-model.log"))
        # Bound first: the runtime is told the console's URL, then the console serves this socket.
        listening = ListeningSocket()
        stack.callback(listening.close)  # in case the console never starts on it
        shellctl = stack.enter_context(_shellctl(workdir))
        runtime = stack.enter_context(_runtime(workdir, shellctl, listening.url))
        console = stack.enter_context(_console(workdir, runtime, shellctl, listening))
        api = stack.enter_context(signed_in(console.url, ADMIN["email"], ADMIN["password"]))
        shellctl_api = stack.enter_context(
            httpx.Client(base_url=shellctl.url, headers={"Authorization": f"Bearer {SHELLCTL_TOKEN}"})
        )
        key = "sk-chat-tests"
        yield ChatStack(
            console_url=console.url,
            api=api,
            reference_model=activate_model(api, "Reference model", reference.url, REFERENCE_MODEL, key),
            scripted_model=activate_model(api, "Scripted model", upstream_base_url, MODEL, key),
            shellctl=shellctl_api,
        )


@contextmanager
def _shellctl(workdir: Path) -> Iterator[Service]:
    with workspaces_folder() as workspaces:
        argv = agent_builder("shellctl", "--port", "0", "--workspaces", str(workspaces))
        with running(argv, "AGENT_BUILDER_READY", workdir / "shellctl.log", env=_TOKEN_ENV) as service:
            yield service


def _runtime(workdir: Path, shellctl: Service, console_url: str) -> AbstractContextManager[Service]:
    argv = agent_builder("runtime", "--port", "0", "--shell-timeout", str(SHELL_TIMEOUT_S))
    env = {
        "AGENT_BUILDER_RUNTIME_RETRY_DELAY_MS": "10",
        "AGENT_BUILDER_RUNTIME_SHELLCTL_URL": shellctl.url,
        "AGENT_BUILDER_RUNTIME_CONSOLE_URL": console_url,
        **_TOKEN_ENV,
    }
    return running(argv, "AGENT_BUILDER_READY", workdir / "runtime.log", env=env)


def _console(
    workdir: Path, runtime: Service, shellctl: Service, listening: ListeningSocket
) -> AbstractContextManager[Service]:
    env = {
        "AGENT_BUILDER_ADMIN_EMAIL": ADMIN["email"],
        "AGENT_BUILDER_ADMIN_PASSWORD": ADMIN["password"],
        "AGENT_BUILDER_RUNTIME_URL": runtime.url,
        "AGENT_BUILDER_SHELLCTL_URL": shellctl.url,
        "AGENT_BUILDER_PUBLIC_URL": "",
        **_TOKEN_ENV,
    }
    argv = agent_builder("console", "--fd", str(listening.fd), "--db", str(workdir / "console.db"))
    return running(argv, "AGENT_BUILDER_READY", workdir / "console.log", env=env, listening=listening)
