"""How the suite's own HTTP calls reach the console under test: one TLS context for every call,
trusting E2E_CA_FILE besides the system's roots, and E2E_HOST_RESOLVER_RULES applied to name
resolution, the way the browser gets them as launch flags (support/browser/session.py).

The context is built once per process: httpx otherwise builds a new one, loading certifi's CA
bundle (37 ms of CPU here, against 1.9 ms with this one), for each client and each module-level
call (`httpx.get`). Every process that loads settings calls `use_network_settings` first."""

from __future__ import annotations

import socket
import ssl
from functools import cache
from pathlib import Path
from typing import Any

import httpx

from support.settings.model import Settings

_ca_file: Path | None = None
_host_map: dict[str, str] = {}
_system_getaddrinfo = socket.getaddrinfo


def use_network_settings(settings: Settings) -> None:
    """Trust the settings' CA file and resolve their mapped host names, in this whole process."""
    global _ca_file
    _ca_file = settings.ca_file
    tls.cache_clear()
    _host_map.clear()
    for rule in (settings.host_resolver_rules or "").split(","):
        if rule.strip():
            _, host, address = rule.split()
            _host_map[host.lower()] = address
    socket.getaddrinfo = _getaddrinfo if _host_map else _system_getaddrinfo


@cache
def tls() -> ssl.SSLContext:
    """httpx's default context (SSL_CERT_FILE and SSL_CERT_DIR honoured) plus E2E_CA_FILE."""
    context = httpx.create_ssl_context()
    if _ca_file is not None:
        context.load_verify_locations(cafile=str(_ca_file))
    return context


def _getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
    # Only the address changes: TLS still verifies and sends SNI for the name in the URL.
    name = host.decode() if isinstance(host, bytes) else host
    mapped = _host_map.get(name.lower()) if isinstance(name, str) else None
    return _system_getaddrinfo(mapped or host, *args, **kwargs)
