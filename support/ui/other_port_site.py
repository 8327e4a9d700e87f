"""A page at the console's own host on another port: another origin, but the same site, so the
browser sends the console's `SameSite=Lax` session cookie with the forms it posts there. Only the
console's origin check (which compares ports) tells such a page from the console's own. The suite
serves it through the browser's request routing: nothing needs to listen on that port."""

from __future__ import annotations

import html
from dataclasses import dataclass
from urllib.parse import urlsplit

from playwright.sync_api import Locator, Page, Route

_DEFAULT_PORTS = {"http": 80, "https": 443}
_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Another app on this host</title></head>
<body><main><h1>Another app on this host</h1>
<form method="post" action="{action}"><button type="submit">{button}</button></form>
</main></body></html>"""


def other_port_origin(console_url: str) -> str:
    """The origin of the console's host on the port after the console's own."""
    parts = urlsplit(console_url)
    port = parts.port or _DEFAULT_PORTS[parts.scheme]
    host = parts.hostname or ""
    host = f"[{host}]" if ":" in host else host
    return f"{parts.scheme}://{host}:{port + 1 if port < 65535 else port - 1}"


@dataclass(frozen=True)
class OtherPortSite:
    page: Page
    console_url: str

    @property
    def origin(self) -> str:
        return other_port_origin(self.console_url)

    def open_with_form(self, console_path: str, button: str) -> None:
        """Serve a page whose one button posts a form to this path of the console, and open it."""
        body = _PAGE.format(
            action=html.escape(self.console_url.rstrip("/") + console_path), button=html.escape(button)
        )

        def serve(route: Route) -> None:
            route.fulfill(status=200, content_type="text/html; charset=utf-8", body=body)

        self.page.route(f"{self.origin}/**", serve)
        self.page.goto(f"{self.origin}/offers")

    def press(self, button: str) -> None:
        self.page.get_by_role("button", name=button, exact=True).click()

    @property
    def refusal(self) -> Locator:
        """The console's answer to the form, as the browser shows it: its refusal naming this origin."""
        return self.page.get_by_text(f"Refused: this request came from the origin {self.origin}.")
