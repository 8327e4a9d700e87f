"""The keyboard and the focus, on whatever page the tab shows: keys pressed, where focus is, whether
it shows, and whether a modal dialog keeps it.

A keyboard user reaches a control by pressing Tab (or Shift+Tab) until it has the focus, and sees
where they are only through the focus indicator. Controls are found by role and accessible name,
as everywhere in support/ui/.
"""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Locator, Page

# How many presses of Tab may pass before a control counts as unreachable: more than any console
# page has stops (the configure page has about 35), fewer than a loop a user would sit through.
TAB_LIMIT = 80
# What Playwright's keyboard calls each key the sentences name.
KEYS = {"Tab": "Tab", "Shift+Tab": "Shift+Tab", "Enter": "Enter", "Space": " ", "Escape": "Escape"}

# The focused element, described for a failure message: its tag, id, accessible name or text.
_DESCRIBE_FOCUS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return 'the page itself (nothing focused)';
  const name = el.getAttribute('aria-label') || (el.labels && el.labels[0] && el.labels[0].textContent)
    || el.textContent || el.value || '';
  return `<${el.tagName.toLowerCase()}${el.id ? ' id=' + el.id : ''}> "${name.trim().slice(0, 60)}"`;
}"""
# What the focused element shows because it has the focus: its :focus-visible outline or shadow;
# for a visually hidden control (a file input under a label styled as a button), its labels'.
_FOCUS_INDICATOR = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return {focused: false};
  const box = el.getBoundingClientRect();
  const drawn = box.width <= 1 || box.height <= 1 ? [...(el.labels || [])] : [el];
  const styles = drawn.map((shown) => getComputedStyle(shown));
  return {
    focused: true,
    focusVisible: el.matches(':focus-visible'),
    outline: styles.some((style) => style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0
      && style.outlineColor !== 'rgba(0, 0, 0, 0)'),
    shadow: styles.some((style) => style.boxShadow !== 'none'),
    style: styles.map((style) => `outline: ${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}; `
      + `box-shadow: ${style.boxShadow}`).join(' | ') || 'a hidden control without a label',
  };
}"""
# Where the focus is relative to a dialog: inside it, on the document (the browser's own
# controls, outside the page: where a modal dialog's Tab order wraps), or on the page behind it.
_FOCUS_PLACE = """(dialog) => {
  const el = document.activeElement;
  if (!el || el === document.body || el === document.documentElement) return 'document';
  return dialog.contains(el) ? 'inside' : 'outside';
}"""
_FOCUSABLE_COUNT = """(dialog) => dialog.querySelectorAll(
  'a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select:not([disabled]), '
  + 'textarea:not([disabled]), [tabindex]:not([tabindex="-1"])').length"""


@dataclass(frozen=True)
class KeyboardUser:
    page: Page

    def press(self, key: str) -> None:
        """Press one key, as the sentences name it (Tab, Shift+Tab, Enter, Space, Escape)."""
        self.page.keyboard.press(KEYS[key])

    def type(self, text: str) -> None:
        """Type text into whatever has the focus, key by key."""
        self.page.keyboard.type(text)

    def control(self, role: str, name: str) -> Locator:
        """The controls with this role and exact accessible name (the one focused, when several)."""
        return self.page.get_by_role(role, name=name, exact=True)  # type: ignore[arg-type]

    def focused_control(self, role: str, name: str) -> Locator:
        """The named control, only while it has the focus."""
        return self.control(role, name).and_(self.page.locator(":focus"))

    def dialog(self, name: str) -> Locator:
        return self.page.get_by_role("dialog", name=name, exact=True)

    def focus_within(self, scope: Locator) -> Locator:
        """What has the focus inside `scope` (nothing, when the focus is elsewhere)."""
        return scope.locator(":focus")

    def focused_description(self) -> str:
        return str(self.page.evaluate(_DESCRIBE_FOCUS))

    def has_focus(self, control: Locator) -> bool:
        return bool(control.evaluate_all("(els) => els.includes(document.activeElement)"))

    def press_until_focused(self, key: str, role: str, name: str) -> list[str]:
        """Press Tab (or Shift+Tab) until the control has the focus; the stops passed on the way.

        Fails with the whole path when it is not reached within TAB_LIMIT presses.
        """
        control = self.control(role, name)
        path: list[str] = []
        for _ in range(TAB_LIMIT):
            self.press(key)
            if self.has_focus(control):
                return path
            path.append(self.focused_description())
        raise AssertionError(
            f'{key} never reached the {role} "{name}" in {TAB_LIMIT} presses; focus went: ' + " → ".join(path)
        )

    def focus_indicator(self) -> dict[str, object]:
        """What shows that the focused element has the focus (`focused` false: nothing has it)."""
        result: dict[str, object] = self.page.evaluate(_FOCUS_INDICATOR)
        return result

    def tab_around(self, dialog: Locator) -> list[str]:
        """Press Tab, then Shift+Tab, enough times to go round the dialog twice each way; the stops
        that landed on the page behind the dialog (a modal dialog has none)."""
        rounds = 2 * int(dialog.evaluate(_FOCUSABLE_COUNT)) + 2
        escaped: list[str] = []
        for key in ("Tab", "Shift+Tab"):
            for _ in range(rounds):
                self.press(key)
                if dialog.evaluate(_FOCUS_PLACE) == "outside":
                    escaped.append(f"{key}: {self.focused_description()}")
        return escaped
