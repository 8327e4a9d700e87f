"""The CI workflows pass zizmor's audit offline with no finding: every action pinned to a commit,
no token permission a job does not need, no checkout credential left in `.git` for artifacts.
`make lint` runs the same audit."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
ZIZMOR = Path(sys.executable).parent / "zizmor"


@pytest.mark.skipif(not ZIZMOR.exists(), reason="zizmor is not installed (pip install -e '.[dev]')")
def test_the_workflows_have_no_zizmor_finding() -> None:
    assert WORKFLOWS, "no workflow in .github/workflows/"
    audit = subprocess.run(
        [str(ZIZMOR), "--offline", "--format", "json", *map(str, WORKFLOWS)],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    findings = json.loads(audit.stdout or "[]")
    described = [_describe(finding) for finding in findings]
    assert described == [], "zizmor findings:\n" + "\n".join(described)
    assert audit.returncode == 0, audit.stderr[-2000:]


def _describe(finding: dict) -> str:
    """`pr.yml:12: artipacked: ... (does not set persist-credentials: false)`."""
    where = finding["locations"][0]
    path = Path(where["symbolic"]["key"]["Local"]["verbatim_path"]).name
    line = where["concrete"]["location"]["start_point"]["row"] + 1
    return f"{path}:{line}: {finding['ident']}: {finding['desc']} ({where['symbolic']['annotation']})"
