"""The browser the scenarios run in, and what the harness does in it that is no page's own.

- `session`: one Chromium per process (the headless shell, a full Chromium for @microphone
  scenarios, or a remote one), and a fresh, signed-in, pinned context per scenario;
- `loading`: waiting until a page has loaded (`<main aria-busy>` cleared), before every step;
- `origin_guard` (+ `.js`): a load from another origin, or one the page's CSP blocked, is a page error;
- `held_requests`: a request the page sends, held open by the scenario, then released or refused;
- `accessibility`: axe-core scans of the page as it is now;
- `evidence`: a failed scenario's screenshot, trace, page HTML and console log, redacted.

Belongs here: what works on any page of the browser. Does not belong here: a page's locators and
actions (`support/ui/`, which use `loading` and `held_requests`), assertions a scenario makes.
"""
