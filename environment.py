"""behave entry point: the lifecycle lives in support/hooks.py."""

from support.hooks import after_all, after_scenario, before_all, before_scenario, before_step

__all__ = ["after_all", "after_scenario", "before_all", "before_scenario", "before_step"]
