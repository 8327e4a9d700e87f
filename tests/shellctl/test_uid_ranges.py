"""Run as root, every shellctl on a host runs its owners as uids no other shellctl uses: the kernel
counts RLIMIT_NPROC per uid host-wide, so a shared uid would share an owner's process limit."""

from __future__ import annotations

import os
import subprocess
from contextlib import ExitStack
from io import BytesIO
from itertools import pairwise
from pathlib import Path

import pytest

from agent_builder.service_errors import ApiError
from agent_builder.shellctl import uid_range
from agent_builder.shellctl.config import LARGEST_UID, MAX_UID_BASE
from agent_builder.shellctl.uid_range import RECORD, UidRange, UidRangeTaken
from tests.product_services import agent_builder, workspaces_folder
from tests.shellctl.conftest import Shellctl, new_session, running_shellctl

AS_ROOT = pytest.mark.skipif(os.geteuid() != 0, reason="only shellctl run as root runs owners as uids")


def _first_owner_uid(shellctl: Shellctl) -> int:
    session = new_session()
    shellctl.exec(session, "touch mine", owner="first-owner")
    with shellctl.files_of(session, "first-owner") as files:
        return (files / "mine").stat().st_uid


def _refused_start(workspaces: Path, **env: str) -> subprocess.CompletedProcess[str]:
    command = agent_builder("shellctl", "--port", "0", "--workspaces", str(workspaces))
    return subprocess.run(
        command, capture_output=True, text=True, timeout=30, check=False, env={**os.environ, **env}
    )


@AS_ROOT
def test_two_shellctls_at_once_give_their_first_owners_different_uids(tmp_path: Path) -> None:
    with running_shellctl(tmp_path, name="one") as one, running_shellctl(tmp_path, name="two") as two:
        bases = [int((started.workspaces / RECORD).read_text()) for started in (one, two)]
        assert bases[0] != bases[1]
        assert [_first_owner_uid(one), _first_owner_uid(two)] == [bases[0] + 1, bases[1] + 1]


@AS_ROOT
def test_a_base_another_shellctl_runs_on_stops_the_start_naming_the_setting(tmp_path: Path) -> None:
    with running_shellctl(tmp_path) as running, workspaces_folder() as other:
        base = (running.workspaces / RECORD).read_text().strip()
        result = _refused_start(other, AGENT_BUILDER_SANDBOX_UID_BASE=base)
    assert result.returncode == 2
    assert "AGENT_BUILDER_SANDBOX_UID_BASE" in result.stderr and f"uids from {base}" in result.stderr


@AS_ROOT
def test_a_restart_keeps_the_range_its_workspaces_were_made_with(tmp_path: Path) -> None:
    with workspaces_folder() as folder:
        with running_shellctl(tmp_path, name="before", workspaces=folder) as before:
            uid = _first_owner_uid(before)
        with ExitStack() as stack:
            # Another shellctl on that range meanwhile: the restart refuses rather than share it.
            base = (folder / RECORD).read_text().strip()
            env = {"AGENT_BUILDER_SANDBOX_UID_BASE": base}
            stack.enter_context(running_shellctl(tmp_path, name="squatter", env=env))
            result = _refused_start(folder)
            assert result.returncode == 2
            assert f"The workspaces in {folder.resolve()} belong to uids from {base}" in result.stderr
        with running_shellctl(tmp_path, name="after", workspaces=folder) as after:
            assert _first_owner_uid(after) == uid


@AS_ROOT
def test_a_stopped_shellctls_range_stays_its_folders_while_another_starts(tmp_path: Path) -> None:
    """A shellctl starting while another is stopped (a restart, a crash) must not take the range
    the stopped one's workspaces belong to: that one could not start again."""
    with workspaces_folder() as folder:
        with running_shellctl(tmp_path, name="first", workspaces=folder) as first:
            uid = _first_owner_uid(first)
        with running_shellctl(tmp_path, name="meanwhile") as meanwhile:
            assert (meanwhile.workspaces / RECORD).read_text() != (folder / RECORD).read_text()
            with running_shellctl(tmp_path, name="restarted", workspaces=folder) as restarted:
                assert _first_owner_uid(restarted) == uid


def test_an_owner_past_the_range_is_refused_not_given_the_next_ranges_uid() -> None:
    uids = UidRange(base=0x7000_0000, owners=8, lock=BytesIO())
    assert uids.uid_for(7) == 0x7000_0007
    with pytest.raises(ApiError) as refused:
        uids.uid_for(8)
    assert (refused.value.status_code, refused.value.code) == (507, "owners_exhausted")


@AS_ROOT
def test_the_largest_base_allowed_runs_its_owners(tmp_path: Path) -> None:
    env = {"AGENT_BUILDER_SANDBOX_UID_BASE": str(MAX_UID_BASE)}
    with running_shellctl(tmp_path, env=env) as started:
        assert _first_owner_uid(started) == MAX_UID_BASE + 1


def test_automatic_ranges_are_many_disjoint_and_below_the_uids_bwrap_misreads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A host keeps workspaces folders (CI's artifacts, pytest's last runs), each reserving its
    range: 16 ranges ran out on CI, and the 17th, from 2^31, broke every sandbox."""
    monkeypatch.setattr(uid_range, "RANGES", tmp_path / "ranges")
    claimed: list[UidRange] = []
    with pytest.raises(UidRangeTaken):
        while len(claimed) < 1000:
            claimed.append(uid_range.claim(tmp_path / f"ws{len(claimed)}", None))
    ends = sorted((uids.base, uids.base + uids.owners - 1) for uids in claimed)
    assert len(ends) >= 200 and ends[-1][1] <= LARGEST_UID
    assert all(end < next_base for (_, end), (next_base, _) in pairwise(ends))
