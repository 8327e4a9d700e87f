"""behave entry point: the lifecycle lives in support/hooks.py."""

from support import behave_fixes
from support.hooks import after_all, after_scenario, before_all, before_scenario, before_step

behave_fixes.apply()

__all__ = ["after_all", "after_scenario", "before_all", "before_scenario", "before_step"]
