"""The rerun file: every lane writes the failed scenarios' file:line and how it ran; `make rerun`
runs exactly those, as the same lane."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from ci import post_merge, rerun
from support.lanes import cli
from support.reports import LaneReport, Rerun, RunInfo, ScenarioResult, publish_lane, read_rerun

RUN = RunInfo(
    "post-merge",
    "ab12cd34",
    None,
    "2025-01-01T10:00:00+00:00",
    3.0,
    workers=2,
    repeat=3,
    settings={"E2E_START_AGENT_BACKEND": "1"},
)


def result(line: int, status: str, attempt: int = 1) -> ScenarioResult:
    return ScenarioResult(
        "Chat",
        "features/agent/chat.feature",
        f"S{line}",
        line,
        [],
        status,
        1.0,
        [],
        attempt=attempt,  # type: ignore[arg-type]
    )


def test_a_lane_writes_its_failed_scenarios_once_each_in_its_folder_and_as_the_latest(tmp_path: Path) -> None:
    report = LaneReport(
        RUN, [result(4, "passed"), result(9, "failed", 1), result(9, "failed", 2), result(12, "error")]
    )
    publish_lane(report, tmp_path / "post-merge", tmp_path)
    text = (tmp_path / "post-merge" / "rerun.txt").read_text()
    assert text.splitlines() == [
        "# rerun file: lane post-merge, run ab12cd34, 2 failed scenario(s); `make rerun` runs exactly these",
        "# lane: post-merge",
        "# workers: 2",
        "# repeat: 3",
        "# setting: E2E_START_AGENT_BACKEND=1",
        "features/agent/chat.feature:9",
        "features/agent/chat.feature:12",
    ]
    assert (tmp_path / "rerun.txt").read_text() == text  # the last lane's, for plain `make rerun`
    assert read_rerun(tmp_path / "rerun.txt") == Rerun(
        "post-merge",
        2,
        3,
        {"E2E_START_AGENT_BACKEND": "1"},
        ("features/agent/chat.feature:9", "features/agent/chat.feature:12"),
    )


@pytest.mark.parametrize(
    ("lane", "entry", "args"),
    [
        ("post-merge", post_merge.main, ["--workers", "2", "--repeat", "1", "f.feature:3"]),
        ("pr", cli.main, ["pr", "--workers", "2", "--repeat", "1", "f.feature:3"]),
        ("@core and @x", rerun.behave_main, ["f.feature:3"]),
    ],
)
def test_rerun_runs_the_same_lane_with_its_options(lane: str, entry: object, args: list[str]) -> None:
    assert rerun.rerun_command(Rerun(lane, 2, 1, {}, ("f.feature:3",))) == (entry, args)


def test_a_lane_run_in_random_order_is_rerun_in_the_same_order(tmp_path: Path) -> None:
    report = LaneReport(replace(RUN, order="random:401873"), [result(9, "failed")])
    publish_lane(report, tmp_path / "pr", tmp_path)
    assert "# order: random:401873" in (tmp_path / "rerun.txt").read_text().splitlines()
    again = read_rerun(tmp_path / "rerun.txt")
    assert again.order == "random:401873"
    _, args = rerun.rerun_command(again)
    assert args[args.index("--order") + 1] == "random:401873"


def test_nothing_to_rerun_passes_and_a_missing_file_says_what_to_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    publish_lane(LaneReport(RUN, [result(4, "passed")]), tmp_path / "post-merge", tmp_path)
    assert rerun.main([str(tmp_path / "rerun.txt")]) == 0
    assert "nothing to rerun: no scenario of lane post-merge failed" in capsys.readouterr().err
    assert rerun.main([str(tmp_path / "absent.txt")]) == rerun.EXIT_USAGE
    assert "run a lane first" in capsys.readouterr().err
