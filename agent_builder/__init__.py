"""The Agent Builder product the suite accepts: three services, `console`, `runtime` and
`shellctl`, one subpackage and one `agent-builder` command (cli.py) each, and the little they
share (settings.py, service_errors.py, agent_parameters.py). Not here: anything of the suite
(features/, steps/, support/); the suite talks to these services over HTTP, never imports them."""
