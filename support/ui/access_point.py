"""An agent's access point page (`/agents/<id>/access`): the web app, service API and API keys
cards, and the embed and new-key dialogs."""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

from playwright.sync_api import Locator, Page, expect

from support.browser.held_requests import HeldRequest, hold

_REVOKE = re.compile("^Revoke ")
_ACCESS_CHANGE = re.compile(r"/console/api/agents/[^/?]+/access$")


@dataclass(frozen=True)
class WebAppCard:
    root: Locator

    @property
    def enabled(self) -> Locator:
        return self.root.get_by_role("checkbox", name="Web app enabled", exact=True)

    @property
    def open_link(self) -> Locator:
        return self.root.get_by_role("link", name="Open web app")

    def copy_url(self) -> None:
        self.root.get_by_role("button", name="Copy URL").click()

    def confirmation(self, text: str) -> Locator:
        return self.root.get_by_text(text, exact=True)

    def open_embed_dialog(self) -> None:
        self.root.get_by_role("button", name="Embed").click()

    @property
    def settings_button(self) -> Locator:
        return self.root.get_by_role("button", name="Settings", exact=True)


@dataclass(frozen=True)
class ServiceApiCard:
    root: Locator

    @property
    def enabled(self) -> Locator:
        return self.root.get_by_role("checkbox", name="Service API enabled", exact=True)

    @property
    def api_reference_link(self) -> Locator:
        return self.root.get_by_role("link", name="API reference")

    def copy_base_url(self) -> None:
        self.root.get_by_role("button", name="Copy base URL").click()

    def confirmation(self, text: str) -> Locator:
        return self.root.get_by_text(text, exact=True)


@dataclass(frozen=True)
class ApiKeysCard:
    root: Locator

    @property
    def create_button(self) -> Locator:
        return self.root.get_by_role("button", name="Create API key")

    @property
    def keys(self) -> Locator:
        """One row per key (the header row has no Revoke button)."""
        return self.root.get_by_role("row").filter(has=self.root.page.get_by_role("button", name=_REVOKE))

    def key(self, masked: str) -> Locator:
        """The row of the key whose masked form starts with `masked`."""
        return self.keys.filter(has_text=masked)

    def start_revoke(self, key: Locator) -> None:
        key.get_by_role("button", name=_REVOKE).click()


@dataclass(frozen=True)
class NewApiKeyDialog:
    """Shows a new key's secret, the only time it is ever shown."""

    root: Locator

    @property
    def secret(self) -> Locator:
        return self.root.get_by_label("New API key", exact=True)

    @property
    def copied(self) -> Locator:
        """What the dialog says once its Copy key button copied the secret."""
        return self.root.get_by_role("status").filter(has_text="Copied")

    def done(self) -> None:
        self.root.get_by_role("button", name="Done").click()


@dataclass(frozen=True)
class AccessPointPage:
    page: Page

    @staticmethod
    def path(agent_id: str) -> str:
        return f"/agents/{agent_id}/access"

    @staticmethod
    def url(agent_id: str) -> re.Pattern[str]:
        return re.compile(rf"/agents/{re.escape(agent_id)}/access$")

    def card(self, name: str) -> Locator:
        """A card by its heading: "Web app", "Service API" or "API keys"."""
        return self.page.get_by_role("region", name=name, exact=True)

    @property
    def web_app(self) -> WebAppCard:
        return WebAppCard(self.card("Web app"))

    @property
    def service_api(self) -> ServiceApiCard:
        return ServiceApiCard(self.card("Service API"))

    @property
    def api_keys(self) -> ApiKeysCard:
        return ApiKeysCard(self.card("API keys"))

    def says(self, text: str) -> Locator:
        return self.page.get_by_text(text, exact=True)

    @property
    def embed_dialog(self) -> Locator:
        return self.page.get_by_role("dialog", name="Embed the web app")

    @property
    def embed_code(self) -> Locator:
        return self.embed_dialog.get_by_label("Embed code", exact=True)

    def embed_code_nodes(self, tag: str) -> list[dict[str, Any]]:
        """The embed code's top-level nodes once it is a `tag`'s code (the dialog's choice applied):
        each a `tag` (`#text` for text), its `attributes` (unescaped) and its number of `children`.
        Parsed here, not in the console's page: its Content-Security-Policy would report the
        snippet's inline style."""
        expect(self.embed_code).to_have_value(re.compile(rf"^<{tag}[\s>]"))
        return _top_level_nodes(self.embed_code.input_value())

    def embed_says(self, text: str) -> Locator:
        return self.embed_dialog.get_by_text(text, exact=True)

    def copy_embed_code(self) -> None:
        self.embed_dialog.get_by_role("button", name="Copy code").click()

    @property
    def embed_copied(self) -> Locator:
        """What the dialog says once its Copy code button copied the code."""
        return self.embed_dialog.get_by_role("status").filter(has_text="Copied")

    def choose_embed(self, kind: str) -> None:
        """Choose what the embed code is: "Inline frame" or "Chat button (script)"."""
        self.embed_dialog.get_by_role("radio", name=kind, exact=True).check()

    @property
    def new_key_dialog(self) -> NewApiKeyDialog:
        return NewApiKeyDialog(self.page.get_by_role("dialog", name="API key created"))

    def create_api_key(self) -> NewApiKeyDialog:
        self.api_keys.create_button.click()
        return self.new_key_dialog

    @property
    def error(self) -> Locator:
        """Why the page could not do what was asked (an access change, a key)."""
        return self.page.get_by_role("alert")

    def hold_next_access_change(self, timeout_ms: float) -> HeldRequest:
        """Hold the page's next switch change (web app or service API) open."""
        return hold(self.page, "the access change", lambda url: bool(_ACCESS_CHANGE.search(url)), timeout_ms)

    def drop_next_access_change(self) -> None:
        """Make the next switch change fail as a dropped connection would (the console is fine)."""
        self.page.route(
            lambda url: bool(_ACCESS_CHANGE.search(url)),
            lambda route: route.abort("connectionrefused"),
            times=1,
        )

    def revoke_api_key(self, key: Locator) -> None:
        self.api_keys.start_revoke(key)
        self.page.get_by_role("dialog", name="Revoke API key?").get_by_role("button", name="Revoke").click()


class _Fragment(HTMLParser):
    """The top-level nodes of an HTML fragment, as `AccessPointPage.embed_code_nodes` gives them."""

    _VOID = frozenset(
        {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
    )

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.nodes: list[dict[str, Any]] = []
        self._open: list[dict[str, Any]] = []

    def _add(self, node: dict[str, Any]) -> None:
        if self._open:
            self._open[-1]["children"] += 1
        else:
            self.nodes.append(node)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = {"tag": tag, "attributes": {name: value or "" for name, value in attrs}, "children": 0}
        self._add(node)
        if tag not in self._VOID:
            self._open.append(node)

    def handle_endtag(self, tag: str) -> None:
        if self._open and self._open[-1]["tag"] == tag:
            self._open.pop()

    def handle_data(self, data: str) -> None:
        self._add({"tag": "#text", "attributes": {}, "children": 0})


def _top_level_nodes(code: str) -> list[dict[str, Any]]:
    fragment = _Fragment()
    fragment.feed(code)
    fragment.close()
    return fragment.nodes
