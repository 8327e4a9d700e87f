"""Liveness and the human-readable service API reference linked from the access page."""

from __future__ import annotations

from html import escape

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

from agent_builder.console.routes.common import OriginDep
from agent_builder.console.schemas.meta import Health

router = APIRouter()


@router.get("/healthz", tags=["meta"])
def healthz() -> Health:
    return Health(status="ok")


@router.get("/docs/service-api", response_class=HTMLResponse, include_in_schema=False)
def service_api_reference(origin: OriginDep) -> HTMLResponse:
    return HTMLResponse(_API_REFERENCE.replace("{base}", escape(f"{origin}/v1")))


_API_REFERENCE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Service API reference</title>
<style>
  body { font: 15px/1.5 system-ui, sans-serif; max-width: 52rem; margin: 2rem auto; padding: 0 1rem;
         color: #1d2433; }
  code, pre { font-family: ui-monospace, monospace; background: #f3f5f9; border-radius: 4px; }
  code { padding: 0 .25rem; } pre { padding: .75rem; overflow-x: auto; }
  h2 { border-top: 1px solid #dde2eb; padding-top: 1rem; margin-top: 2rem; }
  table { border-collapse: collapse; }
  td, th { border: 1px solid #dde2eb; padding: .25rem .5rem; text-align: left; }
</style>
</head>
<body>
<main>
<h1>Service API reference</h1>
<p>Call a published agent from your own backend. Base URL: <code>{base}</code></p>
<p>Authenticate every request with one of the agent's API keys (create them on the agent's
<em>Access point</em> page). Keep keys on your server; never ship them to a browser.</p>
<pre>Authorization: Bearer app-...</pre>

<h2 id="info">GET /info</h2>
<p>The agent's name and description.</p>
<pre>curl {base}/info -H "Authorization: Bearer $API_KEY"</pre>
<pre>{"name": "Support agent", "description": "Answers product questions"}</pre>

<h2 id="parameters">GET /parameters</h2>
<p>What a chat front end needs before the first message.</p>
<pre>{"opening_statement": "Hi! How can I help?", "suggested_questions": ["What can you do?"]}</pre>

<h2 id="chat-messages">POST /chat-messages</h2>
<p>Send a user message to the agent.</p>
<table>
<tr><th>field</th><th>type</th><th></th></tr>
<tr><td><code>query</code></td><td>string</td><td>the user's message (required)</td></tr>
<tr><td><code>response_mode</code></td><td><code>"blocking"</code> | <code>"streaming"</code></td>
    <td>required</td></tr>
<tr><td><code>conversation_id</code></td><td>string</td>
    <td>continue a conversation: the id an earlier answer returned (optional)</td></tr>
<tr><td><code>user</code></td><td>string</td><td>your identifier for the end user (required)</td></tr>
</table>
<pre>curl -X POST {base}/chat-messages -H "Authorization: Bearer $API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"query": "Hello", "response_mode": "blocking", "user": "user-123"}'</pre>
<p><code>blocking</code> waits for the whole answer:</p>
<pre>{"conversation_id": "…", "message_id": "…", "status": "completed",
 "answer": "Hi! How can I help?",
 "usage": {"prompt_tokens": 24, "completion_tokens": 6, "total_tokens": 30},
 "tool_calls": [{"id": "…", "name": "sandbox_shell", "arguments": {"command": "ls"},
                 "output": "notes.txt\\n", "is_error": false}]}</pre>
<p><code>streaming</code> answers with server-sent events (<code>text/event-stream</code>), each
<code>event: &lt;name&gt;</code> and <code>data: &lt;JSON&gt;</code>. Closing the stream early stops the run.</p>
<table>
<tr><th>event</th><th>data</th></tr>
<tr><td><code>message</code></td><td><code>{"answer"}</code>: the next piece of the answer</td></tr>
<tr><td><code>tool_call</code></td><td><code>{"id", "name", "arguments"}</code>: the agent calls a tool</td></tr>
<tr><td><code>tool_result</code></td><td><code>{"id", "name", "output", "is_error"}</code>: its result</td></tr>
<tr><td><code>message_end</code></td><td><code>{"conversation_id", "message_id", "usage"}</code>: last, when
    the answer is complete</td></tr>
<tr><td><code>error</code></td><td><code>{"code", "message"}</code>: last, when the run failed</td></tr>
</table>
<pre>event: message
data: {"answer": "Hi! How "}

event: message
data: {"answer": "can I help?"}

event: message_end
data: {"conversation_id": "…", "message_id": "…", "usage": {"prompt_tokens": 24, …}}</pre>

<h2 id="messages">GET /conversations/{conversation_id}/messages</h2>
<p>A conversation's messages, oldest first: <code>{"data": [{"id", "conversation_id", "role",
"content", "status", "error", "tool_calls", "retries", "usage", "agent_version", "created_at"}]}</code>.
<code>status</code> is <code>completed</code>, <code>failed</code> (see <code>error</code>) or
<code>cancelled</code>.</p>

<h2 id="errors">Errors</h2>
<p>Errors are JSON <code>{"code": "...", "message": "..."}</code>.</p>
<table>
<tr><th>status</th><th>code</th><th>meaning</th></tr>
<tr><td>401</td><td><code>invalid_api_key</code></td><td>missing, unknown or revoked key</td></tr>
<tr><td>403</td><td><code>service_api_disabled</code></td><td>the agent's service API is off</td></tr>
<tr><td>404</td><td><code>not_found</code></td><td>no such conversation for this agent</td></tr>
<tr><td>409</td><td><code>model_unavailable</code></td><td>the agent's model is inactive or gone</td></tr>
<tr><td>422</td><td><code>invalid_request</code></td>
    <td>the body failed validation; see <code>errors</code></td></tr>
<tr><td>502</td><td><code>provider_auth_failed</code>, <code>provider_error</code>,
    <code>provider_unavailable</code>, …</td><td>the run failed (blocking mode)</td></tr>
<tr><td>503</td><td><code>runtime_unavailable</code></td><td>no agent runtime is connected or reachable</td></tr>
</table>
<p>The machine-readable schema is at <a href="/openapi.json">/openapi.json</a>.</p>
</main>
</body>
</html>
"""
