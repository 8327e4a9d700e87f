"""behave entry point: the lifecycle lives in support/hooks.py."""

from support.hooks import after_all, after_scenario, before_all, before_scenario, before_step
from support.lint import step_parameters
from support.run import behave_fixes

behave_fixes.apply()
step_parameters.use()  # behave loads steps/ next: Cucumber Expressions, with the project's types

__all__ = ["after_all", "after_scenario", "before_all", "before_scenario", "before_step"]
