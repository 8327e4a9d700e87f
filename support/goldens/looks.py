"""How a region looks, as golden text (`features/goldens/<name>.look.txt`): every rendered element
under it, indented by depth, with the computed styles a user sees (colours, weight, size, spacing,
borders, layout) where they differ from the element's surroundings.

An accessibility golden reads roles, names and text; this one reads what sighted users see, so a
badge that lost its colour or a row that lost its layout fails too. It names elements by tag and
role, never by class, so renaming a class that looks the same changes nothing. Option lists of
pickers are left out (they list the console's models and datasets, which other scenarios change).
"""

from __future__ import annotations

import difflib

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator

# Inherited properties are written where they differ from the parent's; the others where they
# differ from the value an unstyled element has.
_LOOK_JS = """
(root) => {
  const inherited = ['color', 'font-size', 'font-weight', 'font-style', 'text-transform',
    'text-align', 'white-space', 'visibility', 'cursor'];
  const sides = (prefix, suffix = '') =>
    ['top', 'right', 'bottom', 'left'].map((side) => `${prefix}-${side}${suffix}`);
  // Groups of longhands written as one, with the value an unstyled element has.
  const plain = [
    ['background-color', ['background-color'], 'rgba(0, 0, 0, 0)'],
    ['border-top', ['border-top-width', 'border-top-style', 'border-top-color'], ''],
    ['border-left', ['border-left-width', 'border-left-style', 'border-left-color'], ''],
    ['border-radius', ['border-top-left-radius'], '0px'],
    ['padding', sides('padding'), '0px'],
    ['margin', sides('margin'), '0px'],
    ['gap', ['row-gap', 'column-gap'], 'normal'],
    ['flex-direction', ['flex-direction'], 'row'],
    ['flex-grow', ['flex-grow'], '0'],
    ['justify-content', ['justify-content'], 'normal'],
    ['align-items', ['align-items'], 'normal'],
    ['grid-template-columns', ['grid-template-columns'], 'none'],
    ['text-decoration-line', ['text-decoration-line'], 'none'],
    ['opacity', ['opacity'], '1'],
    ['position', ['position'], 'static'],
    ['overflow', ['overflow-x', 'overflow-y'], 'visible'],
    ['box-shadow', ['box-shadow'], 'none'],
  ];
  const blocks = new Set(['address', 'article', 'aside', 'blockquote', 'details', 'dialog', 'div',
    'dl', 'dd', 'dt', 'fieldset', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
    'header', 'hr', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'summary', 'ul', 'legend']);
  const inlineBlocks = new Set(['button', 'input', 'select', 'textarea', 'img', 'meter', 'progress']);
  const tableDisplays = { table: 'table', tr: 'table-row', td: 'table-cell', th: 'table-cell',
    thead: 'table-header-group', tbody: 'table-row-group', tfoot: 'table-footer-group',
    caption: 'table-caption', li: 'list-item' };
  const usualDisplay = (tag) =>
    tableDisplays[tag] || (blocks.has(tag) ? 'block' : inlineBlocks.has(tag) ? 'inline-block' : 'inline');
  // Computed values, not the used ones getComputedStyle gives: `margin: auto` stays `auto` and a
  // grid's `1fr` stays `1fr`, whatever width the run's text gives the page.
  const read = (styles, longhands) => {
    const values = longhands.map((property) => styles.get(property).toString());
    if (longhands[0].startsWith('border-') && longhands.length === 3) {
      return values[1] === 'none' || values[0] === '0px' ? '' : values.join(' ');
    }
    const [top, right, bottom, left] = values;  // four sides written as CSS shortens them
    if (values.length === 4 && left === right) {
      return top === bottom ? (top === right ? top : `${top} ${right}`) : `${top} ${right} ${bottom}`;
    }
    return values.every((value) => value === values[0]) ? values[0] : values.join(' ');
  };
  const lines = [];
  const walk = (element, depth, parentStyles) => {
    const tag = element.tagName.toLowerCase();
    const styles = element.computedStyleMap();
    const role = element.getAttribute('role');
    const type = tag === 'input' ? element.getAttribute('type') || 'text' : null;
    const name = tag + (role ? `[role=${role}]` : '') + (type ? `[type=${type}]` : '');
    const shown = [];
    const display = read(styles, ['display']);
    if (display !== usualDisplay(tag)) shown.push(`display: ${display}`);
    for (const property of inherited) {
      const value = read(styles, [property]);
      if (!parentStyles || value !== read(parentStyles, [property])) shown.push(`${property}: ${value}`);
    }
    for (const [property, longhands, usual] of plain) {
      const value = read(styles, longhands);
      if (value !== usual) shown.push(`${property}: ${value}`);
    }
    lines.push('  '.repeat(depth) + name + (shown.length ? ' { ' + shown.join('; ') + ' }' : ''));
    if (display === 'none' || tag === 'select' || tag === 'svg') return;
    for (const child of element.children) walk(child, depth + 1, styles);
  };
  walk(root, 0, null);
  return lines.join('\\n') + '\\n';
}
"""


def look_of(region: Locator) -> str:
    """The region's look now, as golden text."""
    text: str = region.evaluate(_LOOK_JS)
    return text


def wait_for_look(region: Locator, expected: str, timeout_ms: float) -> None:
    """Wait until the region looks as `expected` (the page may still be drawing); on timeout, fail
    with the difference. The pointer is moved off the page first, so no :hover style shows."""
    page = region.page
    page.mouse.move(0, 0)
    try:
        page.wait_for_function(
            f"([root, expected]) => ({_LOOK_JS})(root) === expected",
            arg=[region.element_handle(timeout=timeout_ms), expected],
            timeout=timeout_ms,
        )
    except PlaywrightError:
        actual = look_of(region)
        diff = "".join(
            difflib.unified_diff(expected.splitlines(True), actual.splitlines(True), "golden", "page", n=2)
        )
        raise AssertionError(f"the page does not look as its golden:\n{diff[:6000]}") from None
