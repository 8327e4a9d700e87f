"""One behave run as the hooks (support/hooks.py) drive it: a serial `behave`, or one worker of a lane.

- `state`: `RunState`, what every scenario of the run shares (settings, console, browser, the
  replay control, the results), its start and its finish (audit, gates, reports, teardown);
- `record`: what behave's model lacks for the reports (the hooks that ran, what each step or hook
  attached, the definitions loaded), recorded as a behave formatter;
- `result`: a finished scenario as the report's row, its hooks and checks entries of their own;
- `step_checks`: the check after every step (a model call that missed its cassette fails the step
  it happened in);
- `behave_fixes`: a correction to behave 1.3.3's result model (dry-run outlines), applied by every run.

Belongs here: what a behave process needs around its scenarios. Does not belong here: one
scenario's World, its start and close (support/world.py), a lane across processes (support/lanes/).
"""
