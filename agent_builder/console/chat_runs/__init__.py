"""Chat replies as runs on the agent runtime (docs/runtime.md).

Each assistant reply is one run, identified by the reply's message id. The console posts the
agent's published config (the preview: its draft), the conversation so far and the query to
`POST {runtime}/runs`, relays the run's events to the surface that asked (web app, service API or
preview), and stores the reply when the run ends. A run lives in tasks of its own, not in the request: a web app visitor who closes
the page still gets the reply stored, and Stop can reach the run from another request.

`runtime_client` speaks the runtime's HTTP API, `relay` follows one run's events, `runs` keeps
the runs of a console. Not here: the chat routes and their event streams (routes/chat.py).
"""
