"""CI entry points: the post-merge orchestrator (`python -m ci.post_merge`), cassette recording
(`python -m ci.record_cassettes`), the browser install (`ensure-browser.sh`) and the workflow
definitions (`workflows/`).

Belongs here: starting and stopping services around a lane, in the order CI needs, and the
workflows that call it, so no YAML re-implements a lifecycle. Does not belong here: what a lane
selects (`support/tags.py`), how a service starts (`support/stack.py`), what is seeded (`seed/`),
or anything a scenario imports. ci imports seed and support; only its tests import ci.
"""
