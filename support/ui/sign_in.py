"""The sign-in page (`/login`)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from playwright.sync_api import Locator, Page


@dataclass(frozen=True)
class SignInPage:
    page: Page

    PATH = "/login"
    # Where a signed-out visitor of any other page lands: the sign-in page, remembering the page.
    REDIRECT_URL = re.compile(r"/login\?next=")

    @property
    def heading(self) -> Locator:
        return self.page.get_by_role("heading", name="Sign in")

    def sign_in(self, email: str, password: str) -> None:
        self.page.get_by_label("Email", exact=True).fill(email)
        self.page.get_by_label("Password", exact=True).fill(password)
        self.page.get_by_role("button", name="Sign in").click()

    @property
    def error(self) -> Locator:
        return self.page.get_by_role("alert")
