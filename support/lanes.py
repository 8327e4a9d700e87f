"""Run a named lane: `python -m support.lanes pr [extra behave args...]`.

The lane names and their tag expressions live in support/tags.py; the Makefile and CI call
this so no lane is ever re-spelled in YAML.
"""

from __future__ import annotations

import sys

from behave.__main__ import main as behave_main

from support.tags import LANES, behave_args


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in LANES:
        print(f"usage: python -m support.lanes {{{','.join(LANES)}}} [behave args...]", file=sys.stderr)
        return 2
    lane, extra = argv[0], argv[1:]
    return behave_main([*behave_args(lane), *extra])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
