"""Golden files under features/goldens/: what a scenario compares a whole result with.

- `files`: reading and writing them (`E2E_GOLDEN=refresh` is the only writer): text such as a
  stream's event sequence, and a page's region as it reads and as it looks;
- `aria_template`: an accessibility snapshot made a template that any run of the same page matches;
- `looks`: a region's computed styles as text, named by tag and role.

Steps import `check_region`, `check_text` and `event_sequence` from here.
"""

from support.goldens.files import check_region, check_text, event_sequence

__all__ = ["check_region", "check_text", "event_sequence"]
