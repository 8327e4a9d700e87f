"""Aria goldens (support/goldens/aria_template.py): a snapshot made a template matches the same page on any
run (other names, ids, ports, tokens, key prefixes, times, shared pickers) and nothing else."""

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from support.goldens.aria_template import as_template

PAGE = """<main>
  <h1>{name}</h1>
  <a href="/agents/{agent_id}/configure">Configure</a>
  <p>URL <code>http://127.0.0.1:{port}/chat/{token}</code></p>
  <table><tr><td><code>app-{key}…</code></td><td><time>{time}</time></td><td>Never</td></tr></table>
  <label>Model <select><option>{model}</option></select></label>
  <p>Unavailable: needs a credential.</p>
  <label>Email <input value="{email}"></label>
  <button>Publish</button>
</main>"""
RUN = {
    "name": "E2E-k2x9-w1-agent-1",
    "agent_id": "ff13dceff98a4f678bf0aad7fa462a92",
    "port": 40641,
    "token": "93dDN9tT4LdSKbJh",
    "key": "zb49",
    "time": "Dec 2, 2026, 1:32 PM",
    "model": "e2e-seed-provider / gpt-4o",
    "email": "admin@example.com",
}
OTHER_RUN = {
    "name": "E2E-q7ab-w2-agent-3",
    "agent_id": "0123456789abcdef0123456789abcdef",
    "port": 51234,
    "token": "Zx_-0123456789abcdEF",
    "key": "Q-_1",  # URL-safe base64, like every key's
    "time": "Jan 14, 2027, 11:05 AM",
    "model": "another / model",
    "email": "ops.team@staging.example.org",  # another deployment's admin
}


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context()
    yield context.new_page()
    context.close()


def test_a_template_matches_another_run_of_the_same_page(page: Page) -> None:
    page.set_content(PAGE.format(**RUN))
    template = as_template(page.get_by_role("main").aria_snapshot())
    for value in ("k2x9", RUN["agent_id"], "40641", RUN["token"], "zb49", "1:32", "gpt-4o", "admin@"):
        assert value not in template, value

    page.set_content(PAGE.format(**OTHER_RUN))
    expect(page.get_by_role("main")).to_match_aria_snapshot(template, timeout=1000)


def test_a_template_refuses_a_page_that_shows_more_or_other_text(page: Page) -> None:
    page.set_content(PAGE.format(**RUN))
    template = as_template(page.get_by_role("main").aria_snapshot())

    for changed in (
        PAGE.replace("<button>Publish</button>", "<button>Publish</button><button>Delete</button>").format(
            **RUN
        ),
        PAGE.replace("needs a credential", "needs a key").format(**RUN),
        PAGE.format(**{**RUN, "name": "E2E-k2x9-w1-dataset-1"}),  # the name's label is not a run's
    ):
        page.set_content(changed)
        with pytest.raises(AssertionError):
            expect(page.get_by_role("main")).to_match_aria_snapshot(template, timeout=200)


def test_a_region_named_by_a_run_matches_another_run(page: Page) -> None:
    """A card is named by its heading, and its heading by a run's name: the root line is a template too."""
    card = '<article aria-labelledby="h"><h2 id="h">{name}</h2><p>invalid</p></article>'
    page.set_content(card.format(**RUN))
    template = as_template(page.get_by_role("article").aria_snapshot())
    assert "k2x9" not in template, template

    page.set_content(card.format(**OTHER_RUN))
    expect(page.get_by_role("article")).to_match_aria_snapshot(template, timeout=1000)
