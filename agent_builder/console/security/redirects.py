"""Where a sign-in may send the browser next: only to a path of the console. The rule is checked
on the text the browser would follow, after its own clean-up (it drops tabs and newlines, reads
`\\` as `/` and decodes `%2F`), so anything that could become `//other.site` or `scheme:` is
refused. login.js (safe_next.js) applies the same rule; a test keeps the two in step."""

from __future__ import annotations

import re
from urllib.parse import unquote

DEFAULT_NEXT = "/agents"
# A path (with query and fragment) of URL-safe characters and well-formed %XX escapes, starting
# with exactly one slash.
_PATH = re.compile(r"/(?![/\\])(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?#]|%[0-9A-Fa-f]{2})*")
_UNSAFE_DECODED = re.compile(r"[\x00-\x1f\x7f\\]")


def safe_next(target: str | None) -> str:
    """`target` if it is a path of this console, else the agent list."""
    if not target or not _PATH.fullmatch(target):
        return DEFAULT_NEXT
    try:
        decoded = unquote(target, errors="strict")
    except UnicodeDecodeError:
        return DEFAULT_NEXT
    if decoded.startswith(("//", "/\\")) or _UNSAFE_DECODED.search(decoded):
        return DEFAULT_NEXT
    return target
