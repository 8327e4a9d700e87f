"""A lane that executes zero scenarios must fail, end to end through behave's exit code."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_lane_matching_no_scenario_fails(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "behave", "--tags=@no-scenario-has-this-tag", "--no-junit"],
        cwd=ROOT,
        env={**os.environ, "E2E_ARTIFACTS_DIR": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode != 0, result.stdout + result.stderr
    assert "executed zero scenarios" in result.stdout + result.stderr
