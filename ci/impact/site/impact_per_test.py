"""pytest plugin of `make impact-map`'s unit-test run: every product line counts for the test that
ran it, whichever thread or process ran it.

coverage's own `test_function` context names the test only on the thread that calls it: the lines a
TestClient's app runs on its portal thread, or a service started by another file's fixture, would
count for no test. So before each test this switches the worker's whole measurement to the test
(coverage's data of every thread), and switches the services this worker started the way a lane
switches them per scenario (sitecustomize.py, support/run/impact.py).
"""

from __future__ import annotations

import os
from pathlib import Path

import coverage
import pytest

from support.run.impact import enter_scenario

SERVICES_DIR = "IMPACT_MAP_TESTS_DIR"


def pytest_configure(config: pytest.Config) -> None:
    if os.environ.get(SERVICES_DIR):
        # One folder per xdist worker: a worker's services serve only its tests, one at a time.
        worker = Path(os.environ[SERVICES_DIR]) / os.environ.get("PYTEST_XDIST_WORKER", "main")
        worker.mkdir(parents=True, exist_ok=True)
        os.environ[SERVICES_DIR] = str(worker)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    test = item.nodeid.split("[", 1)[0]  # a parametrized test runs as one: all its cases
    measurer = coverage.Coverage.current()
    if measurer is not None:
        measurer.switch_context(test)
    enter_scenario(Path(os.environ[SERVICES_DIR]), test)
