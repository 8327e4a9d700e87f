"""Domain logic of the console, independent of HTTP: each module owns one resource's tables.
Not here: requests and responses (routes/), the runtime's event stream (chat_runs/)."""
