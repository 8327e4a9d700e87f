"""The mutation lane (`make mutants`): a catalogue of realistic product and harness bugs, applied one
at a time to a scratch copy, each run against the scenarios or tests that should catch it.

catalogue/*.toml (the data: what to break and what must catch it), read by catalogue_loader ->
scratch (a copy the checks really import) -> runner (apply, check, restore; pool runs several at
once) -> report (the kill table); __main__ is `python -m ci.mutants`. A surviving mutant is a missing scenario
or an assertion weaker than its name, unless the catalogue explains why it is equivalent.
"""
