"""shellctl: the sandbox shell service. Runs commands in a per-session workspace with a timeout,
process-group kill and output caps. See docs/runtime.md."""
