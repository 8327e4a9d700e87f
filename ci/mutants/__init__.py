"""The mutation lane (`make mutants`): a catalogue of realistic product and harness bugs, applied one
at a time to a scratch copy, each run against the scenarios or tests that should catch it.

catalogue (what to break and what must catch it) -> scratch (a copy the checks really import) ->
runner (apply, check, restore) -> report (the kill table). A surviving mutant is a missing scenario
or an assertion weaker than its name, unless the catalogue explains why it is equivalent.
"""
