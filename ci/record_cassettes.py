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

from support.stack import python_module_argv, start_service

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
            command = [sys.executable, "-m", "ci.post_merge", f"--tags={RECORDED_TAGS}", *sys.argv[1:]]
            return subprocess.run(command, env=env, check=False).returncode
        finally:
            reference.stop()


if __name__ == "__main__":
    sys.exit(main())
