"""HTTP routes of the console, one module per resource. Handlers are thin: validate, call the
service, return the schema. Not here: domain rules or SQL (services/), HTML pages (ui/)."""
