"""Model record/replay: an OpenAI-compatible server that lets model-calling scenarios run keylessly.

See README.md in this folder. Entry points: `python -m support.replay`, `support.replay.control`
(suite hooks), `support.replay.lint.check_cassettes` (make lint).
"""
