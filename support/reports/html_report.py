"""One self-contained HTML report: inline CSS and script, screenshots embedded, no external requests.

Only failure evidence that is too big to inline (trace, page HTML, console log) is linked, by a
path relative to the report, so the artifacts folder can be downloaded from CI and opened as is.
"""

from __future__ import annotations

import base64
import os
from collections.abc import Iterable, Sequence
from html import escape
from pathlib import Path
from urllib.parse import quote

from support.reports.model import (
    STATUS_ORDER,
    LaneFailure,
    LaneReport,
    RunInfo,
    ScenarioResult,
    StepResult,
    status_counts,
)
from support.reports.redact import redact

_EVIDENCE_LABELS = {"trace": "Playwright trace", "html": "page HTML", "console": "console log"}
_PLAYWRIGHT = ".venv/bin/playwright"  # what `make setup` installs; run from the project root
_IMAGE_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg"}

_CSS = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1100px; padding: 1rem 2rem; color: #1b1f24; }
h1 { margin: .2rem 0; font-size: 1.5rem; }
code, pre { font-family: ui-monospace, monospace; }
.meta, .stages { color: #57606a; margin: .2rem 0; }
.count { display: inline-block; padding: .15rem .6rem; margin-right: .4rem; border-radius: 1rem; background: #eaeef2; }
.count.passed { background: #dafbe1; } .count.failed, .count.error, .count.other { background: #ffebe9; }
nav { margin: .8rem 0; } nav button { font: inherit; padding: .25rem .8rem; margin-right: .3rem; cursor: pointer; }
nav button[aria-pressed="true"] { background: #1b1f24; color: #fff; }
details.scenario { border: 1px solid #d0d7de; border-left-width: 6px; border-radius: 4px; margin: .4rem 0; }
details.scenario.ok { border-left-color: #2da44e; } details.scenario.bad { border-left-color: #cf222e; }
details.scenario.skipped, details.scenario.untested { border-left-color: #8c959f; }
summary { padding: .4rem .7rem; cursor: pointer; }
.status { font-weight: 600; text-transform: uppercase; font-size: .75rem; margin-right: .4rem; }
.where, .duration, .tags, .worker { color: #57606a; margin-left: .5rem; }
.body { padding: 0 1rem 1rem; }
pre.error { background: #fff5f5; border: 1px solid #ffcecb; padding: .6rem; white-space: pre-wrap; overflow-wrap: anywhere; }
ol.steps { padding-left: 1.5rem; } li.step.bad { color: #cf222e; font-weight: 600; background: #fff5f5; }
li.step.hook { list-style: none; margin-left: -1.5rem; }
.timeline { display: inline-block; width: 8rem; height: .6rem; margin-left: .5rem; background: #eaeef2; vertical-align: middle; }
.timeline .bar { display: block; height: 100%; background: #2da44e; min-width: 1px; }
li.step.bad .timeline .bar { background: #cf222e; }
li.step.skipped, li.step.untested { color: #8c959f; }
section.lane-failures { border: 1px solid #ffcecb; border-left: 6px solid #cf222e; border-radius: 4px; padding: 0 1rem; margin: .4rem 0; }
img.screenshot { max-width: 100%; border: 1px solid #d0d7de; }
"""

# Filter buttons: hide passing scenarios; the report works without it too.
_SCRIPT = """
document.querySelectorAll("nav button").forEach(function (button) {
  button.addEventListener("click", function () {
    var failedOnly = button.dataset.filter === "failed";
    document.querySelectorAll("details.scenario").forEach(function (scenario) {
      scenario.hidden = failedOnly && scenario.dataset.failed !== "true";
    });
    document.querySelectorAll("nav button").forEach(function (other) {
      other.setAttribute("aria-pressed", String(other === button));
    });
  });
});
"""


def write_html(report: LaneReport, path: Path, *, secrets: Iterable[str] = ()) -> None:
    known = list(secrets)
    run, results = report.run, report.results
    failed = [result for result in results if result.failed]
    stages = ", ".join(f"{escape(name)} {seconds:.2f}s" for name, seconds in run.stage_durations.items())
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>Acceptance report: {escape(run.lane)}</title><style>{_CSS}</style></head><body>",
        "<header><h1>Acceptance report</h1>",
        f'<p class="meta">{_meta(run)}</p>',
        f'<p class="summary">{_counts(results)}</p>',
        f'<p class="stages">startup: {stages}</p>' if stages else "",
        *(
            f'<p class="meta">Excluded by design: {count} scenario(s) with {escape(why)}</p>'
            for why, count in run.excluded.items()
        ),
        '<nav aria-label="Filter scenarios">',
        f'<button type="button" data-filter="all" aria-pressed="true">All ({len(results)})</button>',
        f'<button type="button" data-filter="failed" aria-pressed="false">Failed ({len(failed)})</button>',
        "</nav></header><main>",
        _lane_failures(report.lane_failures, known),
        *(_scenario(index, result, path.parent, known) for index, result in enumerate(results)),
        f"</main><script>{_SCRIPT}</script></body></html>",
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(part for part in parts if part) + "\n", encoding="utf-8")


def _meta(run: RunInfo) -> str:
    shard = f" · shard {escape(run.shard)}" if run.shard else ""
    return (
        f"lane <code>{escape(run.lane)}</code>{shard} · run <code>{escape(run.run_id)}</code>"
        f" · target <code>{escape(run.base_url or 'n/a')}</code> · {run.workers} worker(s)"
        f" · started {escape(run.started_at)} · {run.duration_s:.1f}s"
    )


def _lane_failures(failures: Sequence[LaneFailure], secrets: list[str]) -> str:
    if not failures:
        return ""
    items = "".join(
        f'<li><span class="status">{escape(failure.kind)}</span>'
        f'<pre class="error">{escape(redact(failure.message, secrets))}</pre>'
        + (f"<p>Fix: {escape(redact(failure.fix, secrets))}</p>" if failure.fix else "")
        + "</li>"
        for failure in failures
    )
    return (
        '<section class="lane-failures" aria-labelledby="lane-failures-heading">'
        f'<h2 id="lane-failures-heading">Lane failures ({len(failures)})</h2><ul>{items}</ul></section>'
    )


def _counts(results: Sequence[ScenarioResult]) -> str:
    counts = status_counts(results)
    if not counts:
        return '<span class="count">no scenarios ran</span>'
    return " ".join(
        f'<span class="count {status if status in STATUS_ORDER else "other"}">{count} {escape(status)}</span>'
        for status, count in counts
    )


def _scenario(index: int, result: ScenarioResult, report_dir: Path, secrets: list[str]) -> str:
    tone = "bad" if result.failed else "ok" if result.status == "passed" else result.status
    header = (
        f'<summary><span class="status">{escape(result.status)}</span>'
        f"<strong>{escape(result.feature_name)}: {escape(result.name)}</strong>"
        f'<code class="where">{escape(result.location)}</code>'
        f'<span class="tags">{escape(" ".join(result.tags))}</span>'
        f'<span class="worker">{escape(result.worker_id)}'
        f"{f' · attempt {result.attempt}' if result.attempt > 1 else ''}</span>"
        f'<span class="duration">{result.duration_s:.2f}s</span></summary>'
    )
    body: list[str] = []
    failing = result.failing_step()
    if failing is not None:
        body.append(
            f"<p>Failing step: <code>{escape(failing.keyword)} {escape(redact(failing.name, secrets))}</code></p>"
        )
    if result.error:
        body.append(f'<pre class="error">{escape(redact(result.error, secrets))}</pre>')
    longest = max((step.duration_s for step in result.steps), default=0.0)
    steps = "".join(_step(step, secrets, shown_error=result.error, longest=longest) for step in result.steps)
    body.append(f'<ol class="steps">{steps}</ol>')
    body += _evidence(result, report_dir)
    return (
        f'<details class="scenario {escape(tone)}" id="scenario-{index}" data-failed="{str(result.failed).lower()}"'
        f'{" open" if result.failed else ""}>{header}<div class="body">{"".join(body)}</div></details>'
    )


def _step(step: StepResult, secrets: list[str], shown_error: str | None, longest: float) -> str:
    tone = (
        "ok" if step.status == "passed" else step.status if step.status in ("skipped", "untested") else "bad"
    )
    # The timeline: each step's bar is its share of the scenario's longest step.
    width = 100 * step.duration_s / longest if longest else 0
    bar = (
        f'<span class="timeline" title="{step.duration_s:.2f}s">'
        f'<span class="bar" style="width:{width:.1f}%"></span></span>'
    )
    # The scenario's error is usually its failing step's: show it once, above the steps.
    show = step.error and step.error != shown_error
    error = f'<pre class="error">{escape(redact(step.error, secrets))}</pre>' if show else ""
    where = f'<span class="where">line {step.line}</span>' if step.line else ""
    hook = " hook" if step.hook else ""
    return (
        f'<li class="step {tone}{hook}"><span class="status">{escape(step.status)}</span>'
        f"<b>{escape(step.keyword)}</b> {escape(redact(step.name, secrets))}{where}"
        f'{bar}<span class="duration">{step.duration_s:.2f}s</span>{error}</li>'
    )


def _evidence(result: ScenarioResult, report_dir: Path) -> list[str]:
    parts: list[str] = []
    screenshot = result.evidence.get("screenshot")
    if screenshot is not None:
        media_type = _IMAGE_TYPES.get(screenshot.suffix.lower(), "image/png")
        if screenshot.is_file():
            data = base64.b64encode(screenshot.read_bytes()).decode("ascii")
            parts.append(
                f'<img class="screenshot" alt="Screenshot of {escape(result.name)} at failure"'
                f' src="data:{media_type};base64,{data}">'
            )
        else:
            parts.append(f"<p>Screenshot missing: <code>{escape(str(screenshot))}</code></p>")
    links = []
    for key, path in result.evidence.items():
        if key == "screenshot":
            continue
        href = quote(Path(os.path.relpath(path, report_dir)).as_posix())
        link = f'<a href="{escape(href)}">{escape(_EVIDENCE_LABELS.get(key, key))}</a>'
        if key == "trace":
            command = f"{_PLAYWRIGHT} show-trace {path}"
            link += f' · open it with <code class="show-trace">{escape(command)}</code>'
        links.append(f"<li>{link}</li>")
    if links:
        parts.append(f'<ul class="evidence">{"".join(links)}</ul>')
    return parts
