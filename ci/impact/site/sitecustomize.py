"""Measures the product's line coverage per scenario, for `make impact-map` only.

`ci.impact` puts this folder first on PYTHONPATH with E2E_IMPACT_DIR set; every Python process
then imports it at start, and only the product's services (`python -m agent_builder ...`)
measure: coverage of the `agent_builder` package, under the context the harness names. The
harness (support/run/impact.py) writes the scenario's id to `<dir>/context` and sends SIGUSR1
to every pid listed in `<dir>/pids/`; each process switches context and acknowledges under
`<dir>/acks/<pid>`, so no line the scenario runs is counted for the one before. Lines run
before the first switch (imports, start-up) keep the empty context: every scenario's.
For the unit tests, `ci.impact` sets COVERAGE_PROCESS_START and IMPACT_MAP_TESTS_DIR instead:
pytest and its xdist workers measure, and so do the services a test starts, switched from test to
test the same way by the pytest plugin impact_per_test.py.
"""

import os
import sys


def _start(folder: str, context: str | None = None) -> "coverage.Coverage":
    import atexit

    import coverage

    measurer = coverage.Coverage(
        data_file=os.path.join(folder, "data", ".coverage"),
        data_suffix=True,
        source_pkgs=["agent_builder"],
        config_file=False,
    )
    measurer.start()
    if context:  # a dynamic context, as later switches are (a static one would prefix them all)
        measurer.switch_context(context)

    def save() -> None:
        measurer.stop()
        measurer.save()

    atexit.register(save)
    # uvicorn ends on SIGTERM by returning from main: atexit then saves the data.
    return measurer


def _measure(folder: str, context: str | None = None) -> None:
    import signal

    measurer = _start(folder, context)

    def switch(signum: int, frame: object) -> None:
        with open(os.path.join(folder, "context"), encoding="utf-8") as current:
            name = current.read()
        measurer.switch_context(name)
        with open(os.path.join(folder, "acks", str(os.getpid())), "w", encoding="utf-8") as ack:
            ack.write(name)

    signal.signal(signal.SIGUSR1, switch)
    for sub in ("data", "acks", "pids"):
        os.makedirs(os.path.join(folder, sub), exist_ok=True)
    with open(os.path.join(folder, "pids", str(os.getpid())), "w", encoding="utf-8"):
        pass


def _current_test(folder: str) -> str | None:
    """The test that started this service: its start-up lines count for it."""
    try:
        with open(os.path.join(folder, "context"), encoding="utf-8") as current:
            return current.read()
    except FileNotFoundError:
        return None


def _is_product_service() -> bool:
    argv = sys.orig_argv
    return "-m" in argv and argv[argv.index("-m") + 1 : argv.index("-m") + 2] == ["agent_builder"]


if os.environ.get("E2E_IMPACT_DIR") and _is_product_service():
    _measure(os.environ["E2E_IMPACT_DIR"])
elif os.environ.get("IMPACT_MAP_TESTS_DIR") and _is_product_service():  # started by a unit test
    _measure(os.environ["IMPACT_MAP_TESTS_DIR"], _current_test(os.environ["IMPACT_MAP_TESTS_DIR"]))
elif os.environ.get("COVERAGE_PROCESS_START"):  # pytest and its workers (impact_per_test.py)
    import coverage

    coverage.process_startup()
