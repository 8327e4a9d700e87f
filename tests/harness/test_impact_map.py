"""The impact map (ci/impact/): JavaScript coverage read as lines, the map's file round trip, and
a map that no longer describes a file refusing to answer for it."""

import functools
import http.server
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser

from ci.impact.__main__ import PER_TEST, SITE
from ci.impact.build import build
from ci.impact.site.impact_per_test import SERVICES_DIR
from support.lanes.impact_map import ROOT, FileImpact, ImpactMap, StaleMap, blob_of
from support.run.impact import PageCoverage, _static_name, enter_scenario, executed_lines
from tests.product_services import agent_builder, running

SCRIPT = "function a() {\n  return 1;\n}\nfunction b() {\n  if (x) {\n    y();\n  }\n}\nb();\n"


def _range(source: str, start: str, end: str, count: int) -> dict[str, int]:
    first = source.index(start)
    return {"startOffset": first, "endOffset": source.index(end, first) + len(end), "count": count}


def test_a_line_counts_when_the_innermost_block_around_its_code_ran() -> None:
    script = {
        "functions": [
            {"ranges": [{"startOffset": 0, "endOffset": len(SCRIPT), "count": 1}]},
            {"ranges": [_range(SCRIPT, "function a", "}\n", 0)]},  # never called
            {
                "ranges": [
                    _range(SCRIPT, "function b", "}\n}", 1),
                    _range(SCRIPT, "{\n    y", "}", 0),  # the if's block never ran
                ]
            },
        ]
    }

    lines = executed_lines(SCRIPT, script)

    # Line 7 is only the closing brace of the block that did not run.
    assert lines == {4, 5, 8, 9}, "a's body and the if's block did not run; b and the call did"


def test_hashed_static_names_are_the_files_under_static() -> None:
    assert _static_name("/static/configure.3f2a9c01b7d4.js") == "configure.js"
    assert _static_name("/static/configure.js") == "configure.js"
    assert _static_name("/static/chat_view.0123456789ab.js") == "chat_view.js"


def _measuring_env(**measured_as: str) -> dict[str, str]:
    """This process's environment (which may be `make impact-map`'s own) measuring only as told."""
    ours = ("PYTEST_CURRENT_TEST", "COVERAGE_PROCESS_START", "E2E_IMPACT_DIR", SERVICES_DIR)
    return {
        **{name: value for name, value in os.environ.items() if name not in ours},
        "PYTHONPATH": os.pathsep.join([str(SITE), str(ROOT)]),
        **measured_as,
    }


def _tests_folder(folder: Path) -> dict[str, str]:
    (folder / "data").mkdir(parents=True)
    (folder / "coveragerc").write_text(
        f"[run]\nsource_pkgs = agent_builder\ndata_file = {folder}/data/.coverage\nparallel = True\n",
        encoding="utf-8",
    )
    return {"COVERAGE_PROCESS_START": str(folder / "coveragerc"), SERVICES_DIR: str(folder)}


def test_a_line_any_thread_of_a_test_runs_counts_for_that_test(tmp_path: Path) -> None:
    """A TestClient runs the app on its own thread, where coverage's `test_function` context names
    no test: the map would give `make test`'s generated mutants none of the tests that kill them."""
    folder = tmp_path / "measured"
    (tmp_path / "test_threads.py").write_text(
        "import threading\n"
        "from agent_builder.redaction import scrub\n\n"
        "def test_scrubs_on_a_thread():\n"
        "    thread = threading.Thread(target=scrub, args=('Bearer abc',))\n"
        "    thread.start()\n"
        "    thread.join()\n\n"
        "def test_nothing():\n"
        "    pass\n",
        encoding="utf-8",
    )
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", PER_TEST, "test_threads.py"]
    subprocess.run(
        argv, cwd=tmp_path, env=_measuring_env(**_tests_folder(folder)), check=True, capture_output=True
    )

    impact = build({"tests": folder}, "commit")

    ran = {
        scenario for lines in impact.files["agent_builder/redaction.py"].lines.values() for scenario in lines
    }
    assert ran == {"tests test_threads.py::test_scrubs_on_a_thread"}


def test_the_map_round_trips_and_refuses_a_changed_file(tmp_path: Path) -> None:
    product = tmp_path / "agent_builder" / "x.py"
    product.parent.mkdir()
    product.write_text("a = 1\nb = 2\nc = 3\n", encoding="utf-8")
    lines = {1: frozenset({"pr f.feature:3"}), 2: frozenset({"pr f.feature:3", "a11y g.feature:9"})}
    impact = ImpactMap("abc", {"agent_builder/x.py": FileImpact(blob_of(product), lines, {3})})
    impact.save(tmp_path / "map.json")

    loaded = ImpactMap.load(tmp_path / "map.json")

    assert loaded.impact_of("agent_builder/x.py", tmp_path).lines == lines
    assert loaded.impact_of("agent_builder/x.py", tmp_path).startup == {3}
    product.write_text("a = 1\nb = 20\nc = 3\n", encoding="utf-8")
    with pytest.raises(StaleMap, match="changed since"):
        loaded.impact_of("agent_builder/x.py", tmp_path)
    with pytest.raises(StaleMap, match="not in the impact map"):
        loaded.impact_of("agent_builder/y.py", tmp_path)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def site(tmp_path: Path) -> Iterator[str]:
    """Two pages, each running its own script under /static/, served over real HTTP; a click on the
    first leaves for the second."""
    (tmp_path / "static").mkdir()
    (tmp_path / "static" / "first.js").write_text(
        "function first() {\n  return 1;\n}\nfirst();\n"
        'addEventListener("click", () => {\n  location.href = "/second.html";\n});\n'
    )
    (tmp_path / "static" / "second.js").write_text("function second() {\n  return 2;\n}\nsecond();\n")
    for name in ("first", "second"):
        (tmp_path / f"{name}.html").write_text(f"<script src='/static/{name}.js'></script>")
    handler = functools.partial(_QuietHandler, directory=str(tmp_path))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_what_a_page_ran_up_to_its_navigation_is_counted(site: str, tmp_path: Path, browser: Browser) -> None:
    """A click whose handler navigates (the Duplicate button): its document, and its coverage, are
    gone before the step ends."""
    context = browser.new_context()
    page = context.new_page()
    coverage = PageCoverage(tmp_path, "pr features/a.feature:3", site)
    coverage.watch(context, page)
    page.goto(f"{site}/first.html")
    page.click("body")
    page.wait_for_url("**/second.html")
    coverage.save()
    context.close()

    (saved,) = (tmp_path / "js").glob("*.json")
    assert json.loads(saved.read_text()) == {
        "scenario": "pr features/a.feature:3",
        "lines": {"first.js": [1, 2, 3, 4, 5, 6, 7], "second.js": [1, 2, 3, 4]},
    }


def test_a_service_a_test_starts_counts_for_that_test_then_for_each_next_one(tmp_path: Path) -> None:
    """`make impact-map`'s unit-test run: the service starts under the test running then, and is
    switched from test to test like a lane's services from scenario to scenario."""
    folder = tmp_path / "gw0"
    env = _tests_folder(folder)
    first, second = "tests/runtime/test_a.py::test_starts_it", "tests/runtime/test_b.py::test_asks_it"
    (folder / "context").write_text(first, encoding="utf-8")
    argv = agent_builder("runtime", "--port", "0")
    runtime_env = {
        **_measuring_env(**env),
        "AGENT_BUILDER_RUNTIME_TOKEN": "",
        "AGENT_BUILDER_RUNTIME_INSECURE_NO_TOKEN": "1",
    }
    with running(argv, "AGENT_BUILDER_READY", tmp_path / "runtime.log", env=runtime_env) as runtime:
        enter_scenario(folder, second)
        httpx.get(f"{runtime.url}/healthz", timeout=10)

    impact = build({"tests": tmp_path}, "commit")

    ran = {
        scenario
        for impact_of in impact.files.values()
        for lines in impact_of.lines.values()
        for scenario in lines
    }
    assert ran == {f"tests {first}", f"tests {second}"}  # each alone: no context prefixes another


def test_a_line_the_lanes_run_at_start_stays_a_start_up_line_when_a_test_ran_it(tmp_path: Path) -> None:
    """A service's import-time lines (decorators, constants) run in every lane with no scenario's
    context; a unit test that starts the service runs them under its own. Every scenario depends on
    them: the map must not file them under that test alone (`--since` and the generated mutants
    would then leave the lanes out)."""
    for lane, test in (("pr", None), ("tests", "tests/console/test_cli.py::test_help")):
        folder = tmp_path / lane
        if test:  # a test's service measures under IMPACT_MAP_TESTS_DIR, a lane's under E2E_IMPACT_DIR
            measured_as = _tests_folder(folder)
            (folder / "context").write_text(test, encoding="utf-8")
        else:
            (folder / "data").mkdir(parents=True)
            measured_as = {"E2E_IMPACT_DIR": str(folder)}
        subprocess.run(
            [sys.executable, "-m", "agent_builder", "--help"],
            env=_measuring_env(**measured_as),
            check=True,
            capture_output=True,
        )

    impact = build({"pr": tmp_path / "pr", "tests": tmp_path / "tests"}, "commit")

    main = impact.files["agent_builder/__main__.py"]
    assert main.startup, "the lane ran __main__.py with no scenario's context"
    assert main.startup <= set(main.lines), "the test ran the same lines under its context"
    assert {s for line in main.startup for s in main.lines[line]} == {
        "tests tests/console/test_cli.py::test_help"
    }
