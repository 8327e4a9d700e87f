"""Re-record every cassette and golden of the provider-calling scenarios (`make record-cassettes`).

With no provider key here, recordings come from the deterministic reference model
(support/replay/reference_model.py) and say `recorded_from: reference-model`. To record against a
real provider instead, run the post-merge lane in record mode with its key (see README).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from support.lanes.selection import select_scenarios
from support.stack import python_module_argv, start_service
from support.tags import HTTPS, behave_args

RECORDED_TAGS = "@external-model or @external-tool"


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        reference = start_service(
            "reference-model",
            python_module_argv("support.replay.reference_model", "--port", "0"),
            ready_prefix="REFERENCE_MODEL_READY",
            log_path=Path(tmp) / "reference-model.log",
        )
        try:
            env = {
                **os.environ,
                "E2E_MODEL_MODE": "record",
                "E2E_RECORDED_FROM": "reference-model",
                "E2E_STABLE_MODEL_BASE_URL": reference.url,
                "E2E_STABLE_MODEL_API_KEY": "reference-model-key",
                "E2E_WEB_SEARCH_BASE_URL": reference.url,
                "E2E_WEB_SEARCH_API_KEY": "reference-search-key",
                "E2E_START_AGENT_BACKEND": "1",
                "E2E_GOLDEN": "refresh",
            }
            codes = [
                subprocess.run([sys.executable, "-m", orchestrator, *args], env=env, check=False).returncode
                for orchestrator, args in _recording_runs(sys.argv[1:])
            ]
            return max(codes, default=0)
        finally:
            reference.stop()


def _recording_runs(extra: list[str]) -> list[tuple[str, list[str]]]:
    """The post-merge lane records on the suite's own stack; @https scenarios need the deployed
    lane's. Each runs only when the arguments select a scenario of it."""
    runs = [
        ("ci.post_merge", "post-merge", [f"--tags={RECORDED_TAGS}", *extra]),
        ("ci.deployed", "deployed", [f"--tags={HTTPS}", f"--tags={RECORDED_TAGS}", *extra]),
    ]
    return [
        (orchestrator, args)
        for orchestrator, lane, args in runs
        if select_scenarios([*behave_args(lane), *args])
    ]


if __name__ == "__main__":
    sys.exit(main())
