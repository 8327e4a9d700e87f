"""The console service: console JSON API, browser UI, public web app and service API over one
SQLite database. routes/ speak HTTP, services/ own the tables, schemas/ name the bodies, ui/ the
pages, chat_runs/ the replies through the runtime. Not here: running an agent (runtime/) or a
shell command (shellctl/)."""
