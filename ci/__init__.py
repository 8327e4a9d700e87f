"""CI entry points: the post-merge orchestrator (`python -m ci.post_merge`) and workflow definitions."""
