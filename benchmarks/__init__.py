"""Scripts that print speed figures, never timed tests: each runs as a module from the repository
root, `.venv/bin/python -m benchmarks.<name>` (its docstring says what it measures and how).
`lane_runs` is what the lane benchmarks share: a lane run with its wall time and the CPU of
everything it started."""
