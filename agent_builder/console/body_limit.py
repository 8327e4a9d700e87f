"""Request body size limits, enforced while the body is read: a body over its path's limit makes
the read fail with HTTP 413 (rendered as JSON by the error handlers) before more than `limit`
bytes were buffered. Starlette's own limiter answers in plain text, hence this one."""

from __future__ import annotations

import re
from collections.abc import Mapping

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send


def _compile(template: str) -> re.Pattern[str]:
    """`/a/{id}/b` → a regex where each `{...}` matches one path segment."""
    parts = re.split(r"\{[^/]+\}", template)
    return re.compile("^" + "[^/]+".join(re.escape(part) for part in parts) + "/?$")


class BodyLimitMiddleware:
    def __init__(self, app: ASGIApp, default_limit: int, path_limits: Mapping[str, int]) -> None:
        self.app = app
        self.default_limit = default_limit
        self.path_limits = [(_compile(template), limit) for template, limit in path_limits.items()]

    def _limit(self, path: str) -> int:
        return next((limit for pattern, limit in self.path_limits if pattern.match(path)), self.default_limit)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self._limit(scope["path"])
        declared = Headers(scope=scope).get("content-length", "")
        too_large = HTTPException(413, f"The request body is larger than {limit} bytes.")
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            if declared.isdigit() and int(declared) > limit:
                raise too_large  # refuse before reading anything
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise too_large
            return message

        await self.app(scope, limited_receive, send)
