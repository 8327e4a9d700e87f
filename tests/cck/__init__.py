"""The Cucumber Compatibility Kit's samples run with behave through the suite's own message
writer (tests/harness/test_cucumber_compatibility.py): Python step definitions equivalent to the
kit's reference ones (`steps/<sample>.py`), Cucumber's tagged and named hooks expressed with
behave (`hooks.py`), the behave environment that records a run as a lane does (`environment.py`),
and the comparison the kit prescribes (`compare.py`)."""
