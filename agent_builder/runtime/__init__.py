"""The agent runtime backend: accepts a run, streams its events over SSE, runs the agent loop
against the agent's model provider with tool calling. See docs/runtime.md. Not here: storing
anything (the console keeps agents and conversations) or running shell commands (shellctl/)."""
