"""The UI's static files under content-hashed names, so a browser caches each for good and still
never runs an old module under a new page.

At start the console reads `static/` once. A script's references to other files (`from './x.js'`,
`import('./x.js')`, `'/static/x.js'`) are rewritten to their hashed names, and a file's hash covers
its own bytes and those of everything it references, directly or not: a changed module renames
every module that imports it, up to the page's entry script. Pages (never cached) name the entry
scripts by `asset_url`. `/static/<name>.<hash>.<ext>` is served `immutable` for a year; the plain
`/static/<name>` still answers, revalidated every time (`no-cache`, an ETag), for anything that
names a file directly.
"""

from __future__ import annotations

import hashlib
import mimetypes
import re
from dataclasses import dataclass
from pathlib import Path

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.types import Receive, Scope, Send

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
# `from './x.js'`, `import './x.js'`, `import('./x.js')` and `'/static/x.js'` in a script.
_REFERENCE = re.compile(
    r"""(?P<quote>['"])(?P<prefix>\./|/static/)(?P<name>[\w-]+\.(?:js|css|svg))(?P=quote)"""
)
_HASH_CHARS = 12


@dataclass(frozen=True)
class Asset:
    name: str  # as written in static/, e.g. configure.js
    hashed_name: str  # e.g. configure.3f2a9c01b7d4.js
    body: bytes  # with the references rewritten
    media_type: str

    @property
    def etag(self) -> str:
        return f'"{self.hashed_name}"'


class AssetManifest:
    def __init__(self, folder: Path) -> None:
        raw = {path.name: path.read_bytes() for path in sorted(folder.iterdir()) if path.is_file()}
        references = {name: _references(body, raw) for name, body in raw.items()}
        own = {name: hashlib.sha256(body).hexdigest() for name, body in raw.items()}
        hashed = {name: _hashed_name(name, own, references) for name in raw}
        self._by_name = {
            name: Asset(
                name, hashed[name], _rewrite(body, hashed) if references[name] else body, _media_type(name)
            )
            for name, body in raw.items()
        }
        self._by_hashed_name = {asset.hashed_name: asset for asset in self._by_name.values()}

    def url(self, name: str) -> str:
        """The hashed URL of a file of static/ (a page's entry script, its stylesheet, its icon)."""
        return f"/static/{self._by_name[name].hashed_name}"

    def find(self, name: str) -> tuple[Asset, bool] | None:
        """The asset a /static/ path names, and whether it named it by its hash."""
        if name in self._by_hashed_name:
            return self._by_hashed_name[name], True
        if name in self._by_name:
            return self._by_name[name], False
        return None


class StaticAssets:
    """The ASGI app mounted at /static."""

    def __init__(self, manifest: AssetManifest) -> None:
        self.manifest = manifest

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = self._response(Request(scope))
        await response(scope, receive, send)

    def _response(self, request: Request) -> Response:
        if request.method not in ("GET", "HEAD"):
            return PlainTextResponse("Method Not Allowed", status_code=405, headers={"Allow": "GET, HEAD"})
        name = request.url.path.removeprefix("/static/")
        found = self.manifest.find(name) if "/" not in name else None
        if found is None:
            return PlainTextResponse("Not Found", status_code=404)
        asset, by_hash = found
        headers = {"Cache-Control": IMMUTABLE if by_hash else REVALIDATE, "ETag": asset.etag}
        if request.headers.get("if-none-match") == asset.etag:
            return Response(status_code=304, headers=headers)
        body = b"" if request.method == "HEAD" else asset.body
        return Response(body, media_type=asset.media_type, headers=headers)


def _references(body: bytes, files: dict[str, bytes]) -> list[str]:
    """The files of static/ a script names (other files name none)."""
    try:
        text = body.decode()
    except UnicodeDecodeError:
        return []
    return [match["name"] for match in _REFERENCE.finditer(text) if match["name"] in files]


def _hashed_name(name: str, own: dict[str, str], references: dict[str, list[str]]) -> str:
    reached, pending = set(), [name]
    while pending:  # everything the file references, directly or not (import cycles included)
        current = pending.pop()
        if current not in reached:
            reached.add(current)
            pending += references[current]
    digest = hashlib.sha256("".join(own[file] for file in sorted(reached)).encode()).hexdigest()
    stem, dot, suffix = name.rpartition(".")
    return f"{stem}.{digest[:_HASH_CHARS]}{dot}{suffix}"


def _rewrite(body: bytes, hashed: dict[str, str]) -> bytes:
    def hashed_reference(match: re.Match[str]) -> str:
        target = hashed.get(match["name"])
        if target is None:
            return match[0]
        return f"{match['quote']}{match['prefix']}{target}{match['quote']}"

    return _REFERENCE.sub(hashed_reference, body.decode()).encode()


def _media_type(name: str) -> str:
    guessed, _ = mimetypes.guess_type(name)
    if name.endswith(".js"):
        return "text/javascript"
    return guessed or "application/octet-stream"
