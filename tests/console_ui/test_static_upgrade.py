"""After an upgrade a browser runs the new scripts, without a hard reload, even when the files keep
old modification times (as packages and image layers often do): a browser that cached a script by
heuristic would otherwise run the old module under the new page."""

from __future__ import annotations

import os
import shutil
import time
from contextlib import AbstractContextManager
from pathlib import Path

from playwright.sync_api import Browser

import agent_builder
from support.stack import ListeningSocket, Service
from tests.product_services import agent_builder as agent_builder_argv
from tests.product_services import running

MONTH_S = 30 * 24 * 3600
MARK = "\ndocument.documentElement.dataset.build = 'upgraded';\n"


def _installed_copy(folder: Path) -> Path:
    """The product as an image would hold it: every file last modified a month ago."""
    package = folder / "agent_builder"
    shutil.copytree(
        Path(agent_builder.__file__).parent, package, ignore=shutil.ignore_patterns("__pycache__")
    )
    old = time.time() - MONTH_S
    for path in package.rglob("*"):
        os.utime(path, (old, old))
    return folder


def _serve(code: Path, listening: ListeningSocket, log: Path) -> AbstractContextManager[Service]:
    argv = agent_builder_argv("console", "--fd", str(listening.fd), "--db", str(code / "console.db"))
    # PYTHONSAFEPATH: `-m` would otherwise put the working directory (this checkout) first.
    env = {
        "PYTHONPATH": str(code),
        "PYTHONSAFEPATH": "1",
        "AGENT_BUILDER_PUBLIC_URL": "",
        "AGENT_BUILDER_RUNTIME_URL": "",
    }
    return running(argv, "AGENT_BUILDER_READY", log, env=env, listening=listening)


def test_a_browser_runs_the_upgraded_module_on_its_next_page(browser: Browser, tmp_path: Path) -> None:
    code = _installed_copy(tmp_path / "release")
    first = ListeningSocket()
    port = int(first.url.rsplit(":", 1)[1])
    context = browser.new_context()
    try:
        page = context.new_page()
        with _serve(code, first, tmp_path / "console-1.log") as console:
            page.goto(f"{console.url}/login")
            page.wait_for_function("() => document.querySelector('form') !== null")
            assert page.evaluate("document.documentElement.dataset.build") is None

        dom = code / "agent_builder" / "console" / "ui" / "static" / "dom.js"
        stat = dom.stat()
        dom.write_text(dom.read_text() + MARK)
        os.utime(dom, (stat.st_atime, stat.st_mtime))  # the upgrade keeps the old time stamp

        with _serve(code, ListeningSocket(port=port), tmp_path / "console-2.log") as console:
            # An ordinary navigation to another page: Chromium takes one to the same URL for a reload.
            page.goto(f"{console.url}/login?next=%2Fknowledge")
            page.wait_for_function("() => document.documentElement.dataset.build === 'upgraded'")
    finally:
        context.close()
