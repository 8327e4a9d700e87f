"""The strict seed stage: `python -m seed --profile ...` (see README.md in this folder).

`__main__` is the CLI, `runner` runs a profile's tasks and reports, `profiles` says which tasks
each lane needs, `tasks/` has one module per resource, `specs` reads what to seed from `data/`.
"""
