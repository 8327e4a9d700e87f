"""One TLS context for every HTTP call the suite makes. httpx builds a new one, loading certifi's
CA bundle (60-90 ms of CPU), for each client and each module-level call (`httpx.get`) otherwise:
the worker's largest single cost at start-up, and again in steps that probe many endpoints."""

from __future__ import annotations

import ssl
from functools import cache

import httpx


@cache
def tls() -> ssl.SSLContext:
    """httpx's default context (SSL_CERT_FILE and SSL_CERT_DIR honoured), built once per process."""
    return httpx.create_ssl_context()
