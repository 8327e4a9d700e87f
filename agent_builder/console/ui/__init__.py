"""The console's HTML: server-rendered page shells (pages.py, templates/ with the shared
macros.html) and the static scripts and styles that fill them from the JSON API. Not here: any
JSON endpoint (routes/) or decision beyond who may see a page."""
