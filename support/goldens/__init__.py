"""Golden files under features/goldens/: what a scenario compares a whole result with.

- `files`: reading and writing them (`E2E_GOLDEN=refresh` is the only writer): text such as a
  stream's event sequence, and accessibility snapshots of a page or a region;
- `aria_template`: a snapshot made a template that any run of the same page matches.

Steps import `check_aria`, `check_text` and `event_sequence` from here.
"""

from support.goldens.files import check_aria, check_text, event_sequence

__all__ = ["check_aria", "check_text", "event_sequence"]
