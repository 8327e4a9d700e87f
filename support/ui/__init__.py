"""Page objects, and nothing else: one module per console page (or part shared by pages), plus the
web app, the suite's own pages of other origins (the embedding site; a page on another port of the
console's host) and the browser tab as a whole (`browser_page`).

Each is a small frozen dataclass around a Playwright `Page` (or, for a card or dialog, its
`Locator`) that names the page's parts and actions the way a user finds them: by role, then
label, then text; test ids last. A page object also knows its own path and URL pattern. When the
UI changes, its page object is the one place that changes with it.

Belongs here: locators, actions ("create an agent named X"), paths, and an in-page wait for a
state the page always reaches after a delay (`PublishBar.wait_for_save_state`: it returns the
moment the page shows it). Does not belong here: assertions (`expect` lives in the steps), console
API calls (`support/api_setup/`), sleeps, and what works on any page: the loading wait, held
requests, the origin guard, axe scans (`support/browser/`). Steps in `steps/` reach the browser
only through these classes.
"""
