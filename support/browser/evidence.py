"""Failure evidence for one scenario: screenshot, Playwright trace, page HTML, console log.

Everything written here passes through the report redaction: a trace records request headers
and cookies, so the session token and any key the scenario handled are replaced before the file
is kept.
"""

from __future__ import annotations

import tempfile
import zipfile
from collections.abc import Iterable
from pathlib import Path

from playwright.sync_api import BrowserContext, Page
from playwright.sync_api import Error as PlaywrightError

from support.naming import scenario_slug
from support.reports import redact


def scenario_dir(lane_dir: Path, feature_path: str, scenario_name: str, attempt: int = 1) -> Path:
    """`<lane>/scenarios/<area>/<feature>--<scenario>[--attempt-N]`: the area folder keeps two
    features of the same name in different areas apart; `<scenario>` is `scenario_slug`, unique
    per name in any script (two Chinese names no longer share one folder)."""
    slug = scenario_slug(scenario_name)
    feature = Path(feature_path)
    area = feature.parent.relative_to("features") if feature.parent.parts[:1] == ("features",) else Path()
    suffix = f"--attempt-{attempt}" if attempt > 1 else ""
    return lane_dir / "scenarios" / area / f"{feature.stem}--{slug}{suffix}"


def save_trace(context: BrowserContext, path: Path, secrets: Iterable[str]) -> Path:
    """Stop tracing into `path`, with every text member of the trace archive redacted."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "trace.zip"
        context.tracing.stop(path=raw)
        redact_archive(raw, path, secrets)
    return path


def redact_archive(source_path: Path, target_path: Path, secrets: Iterable[str]) -> None:
    """Copy a zip archive with every UTF-8 text member redacted."""
    secrets = list(secrets)
    with (
        zipfile.ZipFile(source_path) as source,
        zipfile.ZipFile(target_path, "w", zipfile.ZIP_DEFLATED) as target,
    ):
        for member in source.infolist():
            data = source.read(member)
            try:
                data = redact(data.decode("utf-8"), secrets).encode("utf-8")
            except UnicodeDecodeError:
                pass  # images and other binary resources carry no header or cookie text
            target.writestr(member, data)


def capture(
    page: Page,
    context: BrowserContext,
    console_log: list[str],
    out_dir: Path,
    *,
    tracing: bool,
    secrets: Iterable[str],
) -> dict[str, Path]:
    """Collect what the browser shows now; each item is best effort so one failure doesn't hide the
    rest (and is noted in `console_log`, which is written last)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    secrets = list(secrets)
    evidence: dict[str, Path] = {}
    if not page.is_closed():
        try:
            page.screenshot(path=out_dir / "screenshot.png", full_page=True)
            evidence["screenshot"] = out_dir / "screenshot.png"
        except PlaywrightError as error:
            console_log.append(f"[evidence] screenshot failed: {error}")
        try:
            (out_dir / "page.html").write_text(redact(page.content(), secrets), encoding="utf-8")
            evidence["html"] = out_dir / "page.html"
        except PlaywrightError as error:
            console_log.append(f"[evidence] page HTML failed: {error}")
    if tracing:
        evidence["trace"] = save_trace(context, out_dir / "trace.zip", secrets)
    (out_dir / "console.log").write_text(redact("\n".join(console_log) + "\n", secrets), encoding="utf-8")
    evidence["console"] = out_dir / "console.log"
    return evidence
