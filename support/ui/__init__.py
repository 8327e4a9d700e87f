"""Page objects: one module per console page (or part shared by pages), plus the web app.

Each is a small frozen dataclass around a Playwright `Page` (or, for a card or dialog, its
`Locator`) that names the page's parts and actions the way a user finds them: by role, then
label, then text; test ids last. A page object also knows its own path and URL pattern. When the
UI changes, its page object is the one place that changes with it.

Belongs here: locators, actions ("create an agent named X"), paths. Does not belong here:
assertions (`expect` lives in the steps), console API calls (`support/api_setup/`), waits or
sleeps. Steps in `steps/` reach the browser only through these classes.
"""
