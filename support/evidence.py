"""Failure evidence for one scenario: screenshot, Playwright trace, page HTML, console log."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError

from support.world import World


def scenario_dir(artifacts_dir: Path, feature_path: str, scenario_name: str) -> Path:
    slug = re.sub(r"[^a-z0-9]+", "-", scenario_name.lower()).strip("-")[:80]
    return artifacts_dir / "scenarios" / f"{Path(feature_path).stem}--{slug}"


def capture(world: World, out_dir: Path, *, tracing: bool) -> dict[str, Path]:
    """Collect what the browser shows now; each item is best effort so one failure doesn't hide the rest."""
    out_dir.mkdir(parents=True, exist_ok=True)
    evidence: dict[str, Path] = {}
    page = world.page
    if not page.is_closed():
        try:
            page.screenshot(path=out_dir / "screenshot.png", full_page=True)
            evidence["screenshot"] = out_dir / "screenshot.png"
        except PlaywrightError as error:
            world.console_log.append(f"[evidence] screenshot failed: {error}")
        try:
            (out_dir / "page.html").write_text(page.content(), encoding="utf-8")
            evidence["html"] = out_dir / "page.html"
        except PlaywrightError as error:
            world.console_log.append(f"[evidence] page HTML failed: {error}")
    if tracing:
        world.browser_context.tracing.stop(path=out_dir / "trace.zip")
        evidence["trace"] = out_dir / "trace.zip"
    (out_dir / "console.log").write_text("\n".join(world.console_log) + "\n", encoding="utf-8")
    evidence["console"] = out_dir / "console.log"
    return evidence
