"""The configure page's Output variables card: one group per output ("Output <name>", a new one
"New output") with its name, type, item type (arrays), description and Remove button; an object's
fields are groups inside its own, added with "Add field to <name>"."""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Locator, Page

# Every output row as the card shows it, parents first: its dotted path, type, item type (arrays
# only, else "-") and description. Hidden rows (the fields of an output no longer an object) are not read.
_READ_ROWS = """list => [...list.querySelectorAll('li[role="group"]')].filter(row => !row.closest('[hidden]')).map(row => {
  const names = [];
  for (let at = row; at && at !== list; at = at.parentElement.closest('li[role="group"]')) {
    names.unshift(at.querySelector('input[aria-label="Output name"]').value);
  }
  const type = row.querySelector('select[aria-label="Output type"]').value;
  const items = row.querySelector('select[aria-label="Item type"]');
  return {
    output: names.join('.'),
    type,
    items: items.hidden ? '-' : items.value,
    description: row.querySelector('input[aria-label="Output description"]').value,
  };
})"""


@dataclass(frozen=True)
class OutputsCard:
    page: Page

    @property
    def root(self) -> Locator:
        return self.page.get_by_role("region", name="Output variables", exact=True)

    @property
    def outputs(self) -> Locator:
        return self.root.get_by_role("list", name="Output variables", exact=True)

    @property
    def error(self) -> Locator:
        """The card's message saying why the outputs cannot be saved (hidden when they can)."""
        return self.root.locator("#output-list-error")

    def row(self, path: str) -> Locator:
        """The group of the output at a dotted path (an object's field inside its object's group)."""
        scope = self.root
        for name in path.split("."):
            scope = scope.get_by_role("group", name=f"Output {name}", exact=True)
        return scope

    def add(self, path: str, kind: str, items: str = "", description: str = "") -> None:
        """Add an output (a field when `path` is dotted, to the object before its last dot), name it,
        then choose its type, item type and description."""
        parent, _, name = path.rpartition(".")
        if parent:
            self.row(parent).get_by_role(
                "button", name=f"Add field to {parent.split('.')[-1]}", exact=True
            ).click()
            new = self.row(parent).get_by_role("group", name="New output", exact=True)
        else:
            self.root.get_by_role("button", name="Add output", exact=True).click()
            new = self.root.get_by_role("group", name="New output", exact=True)
        new.get_by_label("Output name", exact=True).first.fill(name)
        row = self.row(path)
        row.get_by_label("Output type", exact=True).first.select_option(kind)
        if items:
            row.get_by_label("Item type", exact=True).first.select_option(items)
        if description:
            row.get_by_label("Output description", exact=True).first.fill(description)

    def choose_type(self, path: str, kind: str) -> None:
        """Choose another type in the output's Output type list."""
        self.row(path).get_by_label("Output type", exact=True).first.select_option(kind)

    def remove(self, path: str) -> None:
        """Click the output's Remove button."""
        self.row(path).get_by_role("button", name="Remove output", exact=True).first.click()

    def add_unnamed(self) -> None:
        """Click Add output and leave the new row's name empty."""
        self.root.get_by_role("button", name="Add output", exact=True).click()

    def name_field(self, path: str) -> Locator:
        return self.row(path).get_by_label("Output name", exact=True).first

    def new_name_field(self) -> Locator:
        return self.root.get_by_role("group", name="New output", exact=True).get_by_label(
            "Output name", exact=True
        )

    def rows_as_read(self) -> list[dict[str, str]]:
        """Every output row the card shows, parents first (see _READ_ROWS)."""
        rows: list[dict[str, str]] = self.outputs.evaluate(_READ_ROWS)
        return rows
