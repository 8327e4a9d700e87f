"""A deployment of the Agent Builder as an operator runs one (docs/deploy.md): the console, the
agent runtime and shellctl as three separately started processes, each with its own settings
file, data folder, tokens and log, behind Caddy terminating TLS at a host name.

`python -m deploy up|down|status --dir DIR` (or `make deploy-up` / `make deploy-down`). Nothing
of the acceptance suite is in here: the suite is one of this deployment's clients.
"""
