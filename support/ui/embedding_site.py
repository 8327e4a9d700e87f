"""A page of another site that embeds the web app with the access point's embed code, as a
customer's site would. The suite serves it itself, through the browser's request routing, at an
origin whose registrable domain no console shares, so the web app runs in a third-party iframe:
its visitor cookie is then kept only if it is `SameSite=None; Secure; Partitioned`."""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Locator, Page, Route

from support.ui.web_app import WebAppPage

EMBEDDING_SITE = "https://shop.embedder.test"
_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Embedder shop</title></head>
<body><h1>Embedder shop</h1><p>Ask our assistant:</p>{embed_code}</body></html>"""


@dataclass(frozen=True)
class EmbeddingSite:
    page: Page

    def open_with(self, embed_code: str) -> None:
        """Serve a page with this embed code at the embedding site, and open it."""
        body = _PAGE.format(embed_code=embed_code)

        def serve(route: Route) -> None:
            route.fulfill(status=200, content_type="text/html; charset=utf-8", body=body)

        self.page.route(f"{EMBEDDING_SITE}/**", serve)
        self.page.goto(f"{EMBEDDING_SITE}/assistant")

    @property
    def web_app(self) -> EmbeddedWebApp:
        return EmbeddedWebApp(self.page)

    def chat_button(self, title: str) -> Locator:
        """The button the chat button script adds to the page (its embed code's `data-title`)."""
        return self.page.get_by_role("button", name=f"Chat with {title}", exact=True)


@dataclass(frozen=True)
class EmbeddedWebApp(WebAppPage):
    """The web app inside the embedding page's iframe: the same conversation and composer."""

    @property
    def scope(self) -> Locator:
        return self.page.frame_locator("iframe").get_by_role("main")
