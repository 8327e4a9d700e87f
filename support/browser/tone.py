"""The colour a state is shown in, named by the page's own palette.

A sighted user reads "invalid" in red and "Delete" on a red button as a warning before reading
the words: that colour is part of what the page says. The console's stylesheet names its
colours as custom properties of :root (`--danger`, `--warning`, `--success`, `--muted`, ...).
An element is in a tone when its text is drawn in that colour, or, for a filled control (white
on red), its background is. The check retries like every `expect`: a list the page draws again
after an action holds new elements.
"""

from __future__ import annotations

from playwright.sync_api import Locator, expect

TONES = ("danger", "warning", "success", "muted", "primary", "text")

_PALETTE_COLOUR = """(tone) => {
  const probe = document.createElement('span');
  probe.style.color = `var(--${tone})`;
  document.body.append(probe);
  const colour = getComputedStyle(probe).color;
  probe.remove();
  return colour;
}"""


def expect_tone(element: Locator, tone: str, *, filled: bool = False) -> None:
    """The element's text (`filled`: its background) is drawn in the palette colour `tone`."""
    if tone not in TONES:
        raise AssertionError(f"{tone!r} is no colour of the console's palette: {', '.join(TONES)}")
    colour: str = element.page.evaluate(_PALETTE_COLOUR, tone)
    css = "background-color" if filled else "color"
    expect(element, f"not in the {tone} colour ({colour}) of the palette").to_have_css(css, colour)
