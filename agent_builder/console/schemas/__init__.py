"""Every request and response body of the console, by stable name, so `/openapi.json` can feed a
client generator: one module per resource, as in routes/, on the bases in `base.py`.
Not here: database rows (services/), the runtime's run request (runtime/schemas.py)."""
