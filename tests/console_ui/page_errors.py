"""Script-error collection shared by the browser tests of the console UI."""

from playwright.sync_api import Page


def watch_errors(page: Page) -> list[str]:
    """Collects script errors of `page`; Chromium's "Failed to load resource" lines are the HTTP
    errors a test provokes on purpose, not script errors."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
    page.on(
        "console",
        lambda message: (
            message.type == "error"
            and not message.text.startswith("Failed to load resource")
            and errors.append(f"console error: {message.text}")
        ),
    )
    return errors
