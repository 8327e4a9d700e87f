"""What a replay problem says in the terminal: what happened, where, and the command that fixes it.

A miss is shown by the step during which it happened (the product may hide it behind an ordinary
error such as "provider could not process the request (404)"), unused recordings and patches at
the end of the scenario. Every message ends with the command that re-records that one scenario.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from support.replay.scope import Miss, ScopeReport

_DIFF_LINES = 24  # a compact diff: the changed lines and one line of context around them
_REGEX_SPECIAL = re.compile(r"([\\^$*+?()\[\]{}|])")  # `.` matches itself: left readable
_UNSAFE_IN_ARGS = re.compile(r"[\"'`$\\]")  # would break `make ... ARGS='-n "..."'` quoting


def rerecord_command(scenario: str, location: str | None = None) -> str:
    """The documented command that re-records one scenario (behave's `-n` takes a regular
    expression, so its special characters are escaped); by `file:line` when quotes would break."""
    if location and _UNSAFE_IN_ARGS.search(scenario):
        return f"make record-cassettes ARGS='{location}'"
    pattern = _REGEX_SPECIAL.sub(r"\\\1", scenario)
    return f"make record-cassettes ARGS='-n \"{pattern}\"'"


def _indent(text: str, spaces: int = 6) -> list[str]:
    return [" " * spaces + line for line in text.splitlines()]


def compact_diff(diff: str) -> list[str]:
    """A unified diff without its file header, cut to `_DIFF_LINES` lines."""
    lines = [line for line in diff.splitlines() if not line.startswith(("--- ", "+++ "))]
    if len(lines) > _DIFF_LINES:
        lines = [*lines[:_DIFF_LINES], f"... ({len(lines) - _DIFF_LINES} more diff lines in report.json)"]
    return lines


def miss_text(miss: Miss, report: ScopeReport, location: str | None = None) -> str:
    """One miss, as the step it failed shows it."""
    call = f"{miss.target} call #{miss.call}" if miss.call is not None else f"{miss.target} call"
    lines = [
        f"replay MISS: the {call} matched no recording of this scenario's cassette [{miss.key}]",
        f"  cassette:  {report.cassette}",
        f"  call site: {miss.call_site}",
        f"  reason:    {miss.reason}",
    ]
    if miss.prompt:
        lines += ["  prompt (normalized):", *_indent(miss.prompt)]
    if miss.nearest_key and miss.diff:
        lines.append(
            f"  diff against the nearest recording [{miss.nearest_key}] (similarity {miss.similarity:.2f}):"
        )
        lines += _indent("\n".join(compact_diff(miss.diff)))
    else:
        lines += ["  request (normalized):", *_indent(miss.request)]
    lines += _fix(report.scenario, location)
    return "\n".join(lines)


def misses_text(misses: Sequence[Miss], report: ScopeReport, location: str | None = None) -> str:
    return "\n\n".join(miss_text(miss, report, location) for miss in misses)


def leftover_text(report: ScopeReport, location: str | None = None) -> str | None:
    """Unused recordings and patches at the end of the scenario, or None when there are none."""
    if not (report.unconsumed or report.unapplied_patches):
        return None
    lines = [
        f"replay: the scenario ended with recordings or faults it never used (cassette {report.cassette})"
    ]
    for entry in report.unconsumed:
        lines += [
            f"- UNUSED recording {entry.index} [{entry.key}] from call site {entry.call_site}:",
            *_indent(entry.request),
        ]
    for patch in report.unapplied_patches:
        made = report.calls.get(patch.target, 0)
        lines.append(
            f"- UNAPPLIED fault {patch.action} on {patch.target} call #{patch.call}: "
            f"the scenario made only {made} {patch.target} call(s)"
        )
    lines += _fix(report.scenario, location)
    return "\n".join(lines)


def _fix(scenario: str, location: str | None) -> list[str]:
    return [
        "  fix: if the product's model traffic changed on purpose, re-record this scenario:",
        f"      {rerecord_command(scenario, location)}",
        "    otherwise restore the step text or prompt that changed.",
    ]
