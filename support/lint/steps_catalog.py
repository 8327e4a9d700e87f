"""`make steps` (`python -m support.lint.steps_catalog [steps dir]`): every sentence, where it lives
(`file:line`), and what it does (its docstring), module by module. Reuse a sentence before
writing a new one; features/README.md maps the modules to what they own.
"""

from __future__ import annotations

import inspect
import sys
from itertools import groupby
from pathlib import Path

from support.lint.step_definitions import loaded_steps
from support.lint.step_parameters import PARAMETERS
from support.tags import needs_of

_KEYWORDS = {"given": "Given", "when": "When", "then": "Then", "step": "*"}


def catalog(steps_dir: Path) -> list[str]:
    lines = [
        "Parameter types (support/lint/step_parameters.py), beside Cucumber's {string} (quoted text), {int}, {float}:"
    ]
    lines += [f"  {{{parameter.name}}} = {parameter.regexp}: {parameter.doc}" for parameter in PARAMETERS]
    with loaded_steps(steps_dir) as definitions:
        lines += [str(problem) for problem in definitions.problems]
        by_module = groupby(definitions.definitions(), key=lambda matcher: matcher.location.filename)
        for module, matchers in by_module:
            lines += ["", module]
            for matcher in matchers:
                where = f"{matcher.location.filename}:{matcher.location.line}"
                lines.append(f"  {_KEYWORDS.get(matcher.step_type, '*')} {matcher.pattern}    # {where}")
                doc = inspect.getdoc(matcher.func)
                needs = needs_of(matcher.func)
                if needs is not None:
                    earlier = "".join(f', after "{step}"' for step in needs.steps)
                    doc = f"{doc or ''}\nNeeds {' '.join(needs.tags)}{earlier}.".strip()
                lines += [f"      {line}" for line in (doc or "").splitlines()]
    return lines


def main(argv: list[str]) -> int:
    print("\n".join(catalog(Path(argv[0]) if argv else Path("steps"))).lstrip("\n"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
