"""How an agent's public web app presents itself (part of its draft, so it is published and
versioned with the rest): title, description, icon and colour, copyright, privacy policy link
and the language of the page's own words."""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import StringConstraints, field_validator

from agent_builder.console.schemas.base import HTTP_URL_PATTERN, RequestModel

# The languages the web app's own words (composer, buttons, footer) come in.
LANGUAGES: dict[str, str] = {
    "en": "English",
    "de": "Deutsch",
    "fr": "Français",
    "es": "Español",
    "ja": "日本語",
}
Language = Literal["en", "de", "fr", "es", "ja"]
# The colours of the web app's header and icon (console.css: `.web-app-color-<name>`), each dark
# enough for white text and an emoji on it.
COLORS: dict[str, str] = {
    "blue": "Blue",
    "green": "Green",
    "purple": "Purple",
    "orange": "Orange",
    "red": "Red",
    "teal": "Teal",
    "gray": "Gray",
}
Color = Literal["blue", "green", "purple", "orange", "red", "teal", "gray"]
DEFAULT_COLOR: Color = "blue"


class WebAppSettings(RequestModel):
    """Empty `title` and `description` fall back to the agent's name and description; an empty
    `icon` shows none; `privacy_policy_url` is empty or an http(s) URL."""

    title: Annotated[str, StringConstraints(strip_whitespace=True, max_length=80)] = ""
    description: Annotated[str, StringConstraints(strip_whitespace=True, max_length=500)] = ""
    icon: Annotated[str, StringConstraints(strip_whitespace=True, max_length=8)] = ""
    color: Color = DEFAULT_COLOR
    copyright: Annotated[str, StringConstraints(strip_whitespace=True, max_length=200)] = ""
    privacy_policy_url: Annotated[str, StringConstraints(strip_whitespace=True, max_length=2000)] = ""
    default_language: Language = "en"

    @field_validator("privacy_policy_url")
    @classmethod
    def _privacy_policy_url(cls, value: str) -> str:
        if value and not re.match(HTTP_URL_PATTERN, value):
            raise ValueError("The privacy policy link must be an http:// or https:// URL.")
        return value
