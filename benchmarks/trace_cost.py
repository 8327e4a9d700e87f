"""Print what recording failure evidence costs the PR lane: E2E_TRACE=on-failure against off.

    .venv/bin/python -m benchmarks.trace_cost [--rounds N] [--workers N]

`on-failure` records a Playwright trace of every scenario and keeps it only when the scenario
fails, so its cost is paid by every passing scenario too. The two modes alternate within one run
(same machine, same noise) and the medians are compared. Figures only: nothing asserts a time.
"""

from __future__ import annotations

import argparse

from benchmarks.lane_runs import compare_pr_lane, row

MODES = ("off", "on-failure")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    runs = compare_pr_lane({mode: {"E2E_TRACE": mode} for mode in MODES}, args.rounds, args.workers)
    off, on = runs["off"], runs["on-failure"]
    print(row("E2E_TRACE=off", off))
    print(row("E2E_TRACE=on-failure", on))
    print(
        f"on-failure costs {100 * (on.wall_s / off.wall_s - 1):+.1f}% wall, "
        f"{100 * (on.cpu_s / off.cpu_s - 1):+.1f}% CPU (median of {args.rounds} rounds)"
    )


if __name__ == "__main__":
    main()
