"""A step's own arguments under its sentence: the data table and the doc string.

behave gives both as optional (`context.table` and `context.text` are None when the feature file
has none under the step); a step that reads one takes it through here, so a feature file that left
it out fails that step saying what is missing, not with a TypeError on None.
"""

from __future__ import annotations

from behave.model import Table
from behave.runner import Context


def data_table(context: Context) -> Table:
    """The data table under the current step."""
    table: Table | None = context.table
    if table is None:
        raise AssertionError("this step needs a data table under it in the feature file")
    return table


def doc_string(context: Context) -> str:
    """The doc string (between triple quotes) under the current step."""
    text = context.text
    if text is None:
        raise AssertionError("this step needs a doc string under it in the feature file")
    return text
