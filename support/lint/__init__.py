"""`make lint`'s checks of the features and the steps, and the step sentences as behave, the editor
and `make steps` read them.

- `features`: the feature linter (`python -m support.lint [paths...]`): parses every `.feature`
  and runs the checks below; `rules`: its rules for one scenario as it runs; `dialect`: Gherkin
  behave 1.3.3's parser refuses or misreads (`behave-dialect`); `cassettes`: cassette drift
  (`replay-*`); `step_code`: what a step's body must not do (sleep, console calls, locators);
  `problem`: the finding every check prints (`path:line: rule: message`).
- `step_parameters`: how sentences are written (Cucumber Expressions and the project's parameter
  types; environment.py installs them before behave loads `steps/`); `step_definitions`: `steps/`
  loaded as behave loads it (which sentence a step matches, which sentences overlap);
  `step_sources`: the sentences as the editor reads them; `steps_catalog`: `make steps`;
  `editor_check`: the Cucumber Language Server's view, checked by hand.

Belongs here: checks that read features, steps and cassettes without running them. Does not
belong here: what a tag means (`support/tags.py`), checks that run with the scenarios
(`support/hooks.py` and what it calls).
"""
