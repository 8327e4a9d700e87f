"""The product promises pages that load nothing from other origins (no CDN scripts or fonts):
every scenario's pages are watched for such a load, in the page itself (origin_guard.js)."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import BrowserContext

_GUARD = Path(__file__).with_name("origin_guard.js").read_text()


def guard_origin(context: BrowserContext, console_url: str, suite_origins: tuple[str, ...] = ()) -> None:
    """Every page of `context` from now on, but those at the suite's own `suite_origins`, reports
    another origin's load as an uncaught error."""
    parts = urlsplit(console_url)
    origin = f"{parts.scheme}://{parts.netloc}"
    context.add_init_script(script=f"({_GUARD})({json.dumps(origin)}, {json.dumps(list(suite_origins))});")
