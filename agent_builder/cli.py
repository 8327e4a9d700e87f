"""`agent-builder`: one command per service. Each service prints a single line
`AGENT_BUILDER_READY {"service": ..., "url": ...}` on stdout once it accepts connections, so a
supervisor can start it on port 0 and learn the real address."""

from __future__ import annotations

import argparse
import json
import logging
import signal
import socket
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import FrameType
from typing import Any, Literal, TypeVar

import uvicorn
from starlette.types import ASGIApp

from agent_builder.redaction import redact_logs
from agent_builder.settings import ConfigError, ServiceSettings

logger = logging.getLogger("agent_builder")

_Settings = TypeVar("_Settings", bound=ServiceSettings)
KEEP_ALIVE_S = 75


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="agent-builder", description="The Agent Builder services.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    console = commands.add_parser("console", help="console UI, console API, web app and service API")
    console.add_argument(
        "action",
        nargs="?",
        choices=("serve", "rotate-secrets"),
        default="serve",
        help="serve (default), or rotate-secrets: re-encrypt the stored secrets with the newest "
        "AGENT_BUILDER_SECRET_KEY (docs/console.md, 'Secret key')",
    )
    _add_server_arguments(console, default_port=5001)
    console.add_argument(
        "--db",
        type=Path,
        default=Path("artifacts/console.db"),
        help="SQLite file (default: artifacts/console.db)",
    )
    console.set_defaults(run=_run_console)

    runtime = commands.add_parser("runtime", help="agent runtime backend: runs agents, streams run events")
    _add_server_arguments(runtime, default_port=5050)
    runtime.add_argument(
        "--retry-budget", type=int, help="retries of a failing model call (default: env or 2)"
    )
    runtime.add_argument(
        "--shell-timeout", type=float, help="sandbox_shell command timeout in seconds (default: env or 10)"
    )
    runtime.set_defaults(run=_run_runtime)

    shellctl = commands.add_parser("shellctl", help="sandbox shell service with per-session workspaces")
    _add_server_arguments(shellctl, default_port=5004)
    shellctl.add_argument(
        "--workspaces",
        type=Path,
        default=Path("artifacts/shellctl-workspaces"),
        help="folder holding one workspace per session (created if missing)",
    )
    shellctl.add_argument(
        "--no-isolation",
        action="store_true",
        help="development only: run commands unconfined, without bubblewrap (warned at start and in /healthz)",
    )
    shellctl.set_defaults(run=_run_shellctl)

    args = parser.parse_args(argv)
    logging.basicConfig(
        stream=sys.stderr, level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    redact_logs()  # no URL password, query key or bearer token reaches a log line
    run: Callable[[argparse.Namespace], int] = args.run
    return run(args)


def _add_server_arguments(parser: argparse.ArgumentParser, default_port: int) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="interface to listen on (default: 127.0.0.1)")
    parser.add_argument(
        "--port", type=int, default=default_port, help=f"0 picks a free port (default: {default_port})"
    )
    parser.add_argument(
        "--fd",
        type=int,
        metavar="N",
        help="serve on the listening socket inherited as file descriptor N, bound by the supervisor "
        "(like systemd socket activation); --host and --port are then ignored",
    )


def _run_console(args: argparse.Namespace) -> int:
    from agent_builder.console.app import create_app  # imported here: other services don't need it
    from agent_builder.console.config import ConsoleConfig

    if args.action == "rotate-secrets":
        from agent_builder.console.crypto import rotate_secrets_command

        return rotate_secrets_command(args.db)
    return _serve_configured("console", ConsoleConfig, {"db_path": args.db}, create_app, args)


def _run_runtime(args: argparse.Namespace) -> int:
    from agent_builder.runtime.app import create_app
    from agent_builder.runtime.config import RuntimeConfig

    flags = {"retry_budget": args.retry_budget, "shell_timeout_s": args.shell_timeout}
    return _serve_configured("runtime", RuntimeConfig, flags, create_app, args)


def _serve_configured(
    service: str,
    settings: type[_Settings],
    flags: dict[str, Any],
    create_app: Callable[[_Settings], ASGIApp],
    args: argparse.Namespace,
) -> int:
    """Serve the app made from the service's settings (environment, then the CLI `flags`); exit 2
    with the problems on stderr when a setting is invalid."""
    try:
        app = create_app(settings.load(**flags))
    except ConfigError as exc:
        logger.error("%s", exc)
        return 2
    return serve(service, app, args.host, args.port, fd=args.fd)


def _run_shellctl(args: argparse.Namespace) -> int:
    from agent_builder.shellctl.app import create_app
    from agent_builder.shellctl.config import ShellctlConfig
    from agent_builder.shellctl.sandbox import Sandbox, SandboxUnavailable

    try:
        config = ShellctlConfig.from_env()
        sandbox = Sandbox(config, isolated=not args.no_isolation)
        app = create_app(args.workspaces, config, sandbox)
    except (ValueError, SandboxUnavailable) as exc:
        logger.error("%s", exc)
        return 2
    except OSError as exc:
        logger.error("cannot use workspaces folder %s: %s", args.workspaces, exc)
        return 2
    if args.no_isolation:
        logger.warning(
            "--no-isolation: commands run UNCONFINED, with shellctl's user, files and network; "
            "never use this where commands come from untrusted input"
        )
    # asyncio's loop: uvloop's subprocess_exec has no user/group, and each command runs as its own user.
    return serve("shellctl", app, args.host, args.port, loop="asyncio", fd=args.fd)


class _Server(uvicorn.Server):
    """Announces readiness once the listening sockets are serving, not merely bound."""

    def __init__(self, config: uvicorn.Config, service: str, url: str) -> None:
        super().__init__(config)
        self._service = service
        self._url = url

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started:
            print(
                "AGENT_BUILDER_READY " + json.dumps({"service": self._service, "url": self._url}), flush=True
            )
            logger.info("%s listening on %s", self._service, self._url)


def serve(
    service: str,
    app: ASGIApp,
    host: str,
    port: int,
    loop: Literal["uvloop", "asyncio"] = "uvloop",
    fd: int | None = None,
) -> int:
    """Serve an ASGI app on host:port (or on the inherited listening socket `fd`) until
    SIGTERM/SIGINT, then shut down cleanly (exit 0)."""
    try:
        sock = _bind(host, port) if fd is None else _inherited(fd)
    except OSError as exc:
        where = f"{host}:{port}" if fd is None else f"file descriptor {fd}"
        logger.error("cannot listen on %s: %s", where, exc)
        return 1
    if fd is not None:
        host = str(sock.getsockname()[0])
    bound_port = sock.getsockname()[1]
    # proxy_headers off: uvicorn would trust X-Forwarded-* from 127.0.0.1, so anyone on the
    # machine could pick their client address and scheme. The console trusts only the proxies it
    # is told about (AGENT_BUILDER_TRUSTED_PROXIES).
    config = uvicorn.Config(
        app,
        log_config=None,
        access_log=False,
        lifespan="on",
        loop=loop,
        http="httptools",
        timeout_graceful_shutdown=5,
        # Longer than any client keeps an idle connection to us (Caddy's upstream pool: 60 s,
        # docs/deploy.md; httpx: 5 s): else a request sent on a connection we are closing fails.
        timeout_keep_alive=KEEP_ALIVE_S,
        proxy_headers=False,
    )
    server = _Server(config, service, f"http://{_url_host(host)}:{bound_port}")
    # uvicorn handles the signal (graceful shutdown) and re-raises it afterwards; ending up here
    # turns that re-raised signal into a normal exit instead of death by signal.
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, _exit_quietly)
    try:
        server.run(sockets=[sock])
    except SystemExit as exc:
        return int(exc.code or 0)
    finally:
        sock.close()
    return 0 if server.started else 1


def _exit_quietly(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(0)


def _bind(host: str, port: int) -> socket.socket:
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(2048)
    except OSError:
        sock.close()
        raise
    return sock


def _inherited(fd: int) -> socket.socket:
    """The listening TCP socket a supervisor bound and passed down as `fd` (OSError otherwise)."""
    sock = socket.socket(fileno=fd)  # ENOTSOCK when it is not a socket
    try:
        if sock.type != socket.SOCK_STREAM or sock.family not in (socket.AF_INET, socket.AF_INET6):
            raise OSError(f"file descriptor {fd} is not a TCP socket")
        if not sock.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN):
            raise OSError(f"file descriptor {fd} is a socket that is not listening")
    except OSError:
        sock.detach()  # not ours to close
        raise
    sock.set_inheritable(False)  # no command this service starts gets it
    return sock


def _url_host(host: str) -> str:
    """A host a client can connect to: wildcard addresses mean 'this machine'."""
    if host in ("0.0.0.0", ""):
        return "127.0.0.1"
    if host == "::":
        return "[::1]"
    return f"[{host}]" if ":" in host else host
