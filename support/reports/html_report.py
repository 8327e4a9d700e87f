"""One self-contained HTML report (`report.html`), rendered with Jinja2 from templates/: what the
official Cucumber HTML report shows (scenarios grouped by feature file, text and tag search,
status filters, attachments inline) and what a lane of workers needs beside it (the lane's
timeline, a row per worker, and its slowest scenarios).

Inline CSS and script, screenshots and attached images as data: URIs, no external request: it
opens offline. Only failure evidence too big to inline (trace, page HTML, console log) is linked,
by a path relative to the report, so the artifacts folder can be downloaded from CI and opened as
is. The view (html_view.py) redacts every text; the template escapes it.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, Template, select_autoescape
from markupsafe import Markup

from support.reports import html_view
from support.reports.model import LaneReport, status_counts
from support.reports.redact import redact

_TEMPLATES = Path(__file__).parent / "templates"


@cache
def _template(name: str) -> Template:
    environment = Environment(
        loader=FileSystemLoader(_TEMPLATES), autoescape=select_autoescape(default=True), trim_blocks=False
    )
    environment.globals.update(
        clock=html_view.clock, seconds=html_view.seconds, count_class=html_view.count_class
    )
    return environment.get_template(name)


def _inline(name: str) -> Markup:
    """Our own stylesheet or script, inlined as is (it is not user text)."""
    return Markup((_TEMPLATES / name).read_text(encoding="utf-8"))


def render(name: str, **values: object) -> str:
    """A template of templates/ rendered (autoescaped) with `values`."""
    return _template(name).render(**values)


def write_html(report: LaneReport, path: Path, *, secrets: Iterable[str] = ()) -> None:
    known = list(secrets)
    results = report.results
    views = [
        html_view.scenario_view(index, result, path.parent, known) for index, result in enumerate(results)
    ]
    html = render(
        "report.html",
        run=report.run,
        all_counts=status_counts(results),
        lane_failures=[
            (
                failure.kind,
                redact(failure.message, known),
                redact(failure.fix, known) if failure.fix else None,
            )
            for failure in report.lane_failures
        ],
        run_hooks=html_view.run_hooks(report, known),
        timeline=html_view.timeline(report, views),
        slowest=html_view.slowest(views),
        features=html_view.features(views),
        tags=html_view.tags(results),
        statuses=html_view.statuses(results),
        scenario_count=len(results),
        failed_count=sum(result.failed for result in results),
        css=_inline("report.css"),
        script=_inline("report.js"),
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(html, encoding="utf-8")
