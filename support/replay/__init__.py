"""Model record/replay: an OpenAI-compatible server that lets model-calling scenarios run keylessly.

See README.md in this folder (its "Code layout" says which module holds what). Entry points:
`python -m support.replay`, `support.replay.server.replay_server` (in this process),
`support.replay.control` (suite hooks). The cassette drift checks of `make lint` are the linter's:
`support/lint/cassettes.py`.
"""
