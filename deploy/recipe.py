"""What a deployment is made of: its folder layout, its settings files (written once, then the
operator's to edit) and Caddy's configuration."""

from __future__ import annotations

import json
import os
import secrets
import socket
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from cryptography.fernet import Fernet
from dotenv import dotenv_values

SERVICES = ("shellctl", "runtime", "console")  # start order; stopped in reverse, Caddy first
DEFAULT_HOST = "agents.e2e.test"
ADMIN_EMAIL = "admin@example.com"


@dataclass(frozen=True)
class Ports:
    """The ports the deployment listens on, all on 127.0.0.1; only Caddy's https port is public."""

    console: int
    runtime: int
    shellctl: int
    https: int
    http: int  # Caddy's http port: redirects are off, but Caddy still wants one off port 80

    @staticmethod
    def free() -> Ports:
        probes = [socket.socket() for _ in range(5)]
        for probe in probes:  # all held open together, so no two get the same port
            probe.bind(("127.0.0.1", 0))
        ports = [int(probe.getsockname()[1]) for probe in probes]
        for probe in probes:
            probe.close()
        return Ports(*ports)


@dataclass(frozen=True)
class Deployment:
    """A deployment's folder: `deployment.json` (host name, ports), then one folder per service
    with `<service>.env` (its settings, mode 0600), `data/` and `<service>.log`, and `caddy/`."""

    root: Path
    host: str
    ports: Ports

    @property
    def public_url(self) -> str:
        return f"https://{self.host}" + ("" if self.ports.https == 443 else f":{self.ports.https}")

    def internal_url(self, service: str) -> str:
        return f"http://127.0.0.1:{getattr(self.ports, service)}"

    def folder(self, service: str) -> Path:
        return self.root / service

    def settings_file(self, service: str) -> Path:
        return self.folder(service) / f"{service}.env"

    def log(self, service: str) -> Path:
        return self.folder(service) / f"{service}.log"

    def pid_file(self, service: str) -> Path:
        return self.folder(service) / f"{service}.pid"

    @property
    def ca_root(self) -> Path:
        """The root certificate of Caddy's internal CA: what clients trust to reach the console."""
        return self.folder("caddy") / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"

    @property
    def ca_bundle(self) -> Path:
        """The CA's root and its current intermediate, which signs the server's certificate: a
        browser given SPKI pins (no trust store) accepts a chain that contains a pinned key, and
        Caddy sends the leaf and the intermediate, never the root. Rewritten at every `up`."""
        return self.folder("caddy") / "ca-bundle.pem"

    def write_ca_bundle(self) -> None:
        intermediate = self.ca_root.with_name("intermediate.crt")
        self.ca_bundle.write_bytes(self.ca_root.read_bytes() + intermediate.read_bytes())

    @property
    def admin_password_file(self) -> Path:
        return self.folder("console") / "initial-admin-password"

    def settings(self, service: str) -> dict[str, str]:
        return {name: value or "" for name, value in dotenv_values(self.settings_file(service)).items()}

    def argv(self, service: str) -> list[str]:
        """The command that starts a service: the `agent-builder` CLI of this Python, or Caddy."""
        if service == "caddy":
            caddyfile = self.folder("caddy") / "Caddyfile"
            return ["caddy", "run", "--config", str(caddyfile), "--adapter", "caddyfile"]
        product = [sys.executable, "-m", "agent_builder", service, "--host", "127.0.0.1"]
        port = ["--port", str(getattr(self.ports, service))]
        data = self.folder(service) / "data"
        folders = {
            "console": ["--db", str(data / "console.db")],
            "runtime": [],
            "shellctl": ["--workspaces", str(data / "workspaces")],
        }
        return [*product, *port, *folders[service]]

    def urls(self) -> dict[str, str]:
        return {
            "console": self.public_url,
            "web_app": f"{self.public_url}/chat/",
            "service_api": f"{self.public_url}/v1",
            "runtime (internal)": self.internal_url("runtime"),
            "shellctl (internal)": self.internal_url("shellctl"),
            "ca_root": str(self.ca_root),
            "ca_bundle": str(self.ca_bundle),
            "admin_password_file": str(self.admin_password_file),
        }


def load(root: Path) -> Deployment | None:
    root = root.resolve()  # every process runs in its own folder
    path = root / "deployment.json"
    if not path.exists():
        return None
    recipe = json.loads(path.read_text())
    return Deployment(root, recipe["host"], Ports(**recipe["ports"]))


def create(root: Path, host: str, overrides: dict[str, dict[str, str]]) -> Deployment:
    """A new deployment's folder: free ports, fresh tokens and keys, a random admin password."""
    deployment = Deployment(root.resolve(), host, Ports.free())
    root.mkdir(parents=True, exist_ok=True)
    (root / "deployment.json").write_text(
        json.dumps({"host": host, "ports": asdict(deployment.ports)}, indent=2) + "\n"
    )
    shellctl_token, runtime_token = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    admin_password = secrets.token_urlsafe(18)
    settings = {
        "shellctl": {"AGENT_BUILDER_SHELLCTL_TOKEN": shellctl_token},
        "runtime": {
            "AGENT_BUILDER_RUNTIME_TOKEN": runtime_token,
            "AGENT_BUILDER_RUNTIME_SHELLCTL_URL": deployment.internal_url("shellctl"),
            "AGENT_BUILDER_SHELLCTL_TOKEN": shellctl_token,
            "AGENT_BUILDER_RUNTIME_CONSOLE_URL": deployment.internal_url("console"),
        },
        "console": {
            "AGENT_BUILDER_PUBLIC_URL": deployment.public_url,
            "AGENT_BUILDER_ALLOWED_HOSTS": host,
            # Caddy connects from here; only its X-Forwarded-* headers count.
            "AGENT_BUILDER_TRUSTED_PROXIES": "127.0.0.1",
            "AGENT_BUILDER_ADMIN_EMAIL": ADMIN_EMAIL,
            "AGENT_BUILDER_ADMIN_PASSWORD": admin_password,
            "AGENT_BUILDER_SECRET_KEY": Fernet.generate_key().decode(),
            "AGENT_BUILDER_RUNTIME_URL": deployment.internal_url("runtime"),
            "AGENT_BUILDER_RUNTIME_TOKEN": runtime_token,
            "AGENT_BUILDER_SHELLCTL_URL": deployment.internal_url("shellctl"),
            "AGENT_BUILDER_SHELLCTL_TOKEN": shellctl_token,
        },
    }
    for service in SERVICES:
        (deployment.folder(service) / "data").mkdir(parents=True, exist_ok=True)
        _write_private(
            deployment.settings_file(service),
            "".join(
                f"{name}={value}\n"
                for name, value in (settings[service] | overrides.get(service, {})).items()
            ),
        )
    _write_private(deployment.admin_password_file, admin_password + "\n")
    (deployment.folder("caddy") / "data").mkdir(parents=True, exist_ok=True)
    (deployment.folder("caddy") / "Caddyfile").write_text(caddyfile(deployment))
    return deployment


def caddyfile(deployment: Deployment) -> str:
    """Caddy in front of the console: TLS from its internal CA (no network needed), HTTP/2, the
    console only. The runtime, shellctl and the console's /internal/ routes are not reachable
    through it. Event streams are flushed as they come (Caddy does so for text/event-stream;
    `flush_interval -1` says it for every response)."""
    return f"""{{
\tadmin off
\tskip_install_trust
\thttp_port {deployment.ports.http}
\thttps_port {deployment.ports.https}
\tstorage file_system {deployment.folder("caddy") / "data" / "caddy"}
\tauto_https disable_redirects
\tservers {{
\t\tprotocols h1 h2
\t}}
}}

{deployment.host}:{deployment.ports.https} {{
\tbind 127.0.0.1
\ttls internal
\trespond /internal/* 404
\treverse_proxy {deployment.internal_url("console").removeprefix("http://")} {{
\t\tflush_interval -1
\t\ttransport http {{
\t\t\tkeepalive 60s
\t\t}}
\t}}
\tlog {{
\t\toutput file {deployment.folder("caddy") / "access.log"}
\t}}
}}
"""


def _write_private(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as file:
        file.write(text)
