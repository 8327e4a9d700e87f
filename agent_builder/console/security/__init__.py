"""The console's defences that sit in front of every route (docs/console.md, "Threat model"):
security headers, trusted proxies, the Host check and the cross-origin check; and the sign-in
throttle the login route uses."""

from __future__ import annotations

from fastapi import FastAPI
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from agent_builder.console.auth import SESSION_COOKIE
from agent_builder.console.config import ConsoleConfig
from agent_builder.console.security.cookies import VISITOR_COOKIE
from agent_builder.console.security.headers import SecurityHeadersMiddleware
from agent_builder.console.security.hosts import HostCheckMiddleware
from agent_builder.console.security.origin import OriginCheckMiddleware
from agent_builder.console.security.throttle import LoginThrottle


def install(app: FastAPI, config: ConsoleConfig) -> None:
    """Add the middlewares (call after every other middleware: the last added runs first)."""
    app.state.login_throttle = LoginThrottle()
    app.add_middleware(OriginCheckMiddleware, config=config, cookies=(SESSION_COOKIE, VISITOR_COOKIE))
    app.add_middleware(HostCheckMiddleware, config=config)
    if config.trusted_proxies:
        # Their X-Forwarded-Proto and X-Forwarded-For become the request's scheme and client.
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=list(config.trusted_proxies))
    app.add_middleware(SecurityHeadersMiddleware)
