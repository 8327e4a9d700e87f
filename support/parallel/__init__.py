"""One lane over N worker processes, or one shard of it over N CI machines.

selection (which scenarios, by behave's rules) -> schedule (longest first, shards) -> coordinator
(hands scenarios to workers, merges their results, judges the lane) <-> worker (behave with our
hooks, fed one scenario at a time over the link). Product-agnostic; the hooks in support/hooks.py
are the same for a serial behave run and a pool worker.
"""
