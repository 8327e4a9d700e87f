"""Print each lane's wall time with 1 and with N workers, their ratio, CPU seconds per scenario, and
each N-worker run's efficiency: wall / (CPU / cores), 1.0 when every core was busy from start to end.

    .venv/bin/python -m benchmarks.parallel [--lanes pr,post-merge] [--rounds N] [--workers 1,2,3]

One run measures every configuration; with several rounds the configurations alternate, so the
noise of a shared machine hits them alike, and the medians are printed. Figures only: nothing
here asserts a time.
"""

from __future__ import annotations

import argparse
import os

from benchmarks.lane_runs import LaneRun, median_run, row, run_lane


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--lanes", default="pr,post-merge")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--workers", default="1,2", help="worker counts to compare with 1, e.g. 1,2,3")
    args = parser.parse_args()
    lanes = args.lanes.split(",")
    counts = sorted({1, *(int(n) for n in args.workers.split(","))})
    runs: dict[tuple[str, int], list[LaneRun]] = {(lane, n): [] for lane in lanes for n in counts}
    for round_number in range(1, args.rounds + 1):
        for lane in lanes:
            for workers in counts:
                runs[lane, workers].append(run_lane(lane, workers))
            # Each round's own figures too: on a shared machine their spread says what a median is
            # worth. With CPU per scenario beside them: on a quiet machine the same scenarios cost about
            # the same CPU with any worker count, so a run that cost much more did the same work slower.
            print(
                f"round {round_number}, {lane}: "
                + ", ".join(_round_figures(runs[lane, 1][-1], runs[lane, n][-1], n) for n in counts),
                flush=True,
            )
    print()
    for lane in lanes:
        one = median_run(runs[lane, 1])
        print(row(f"{lane}, 1 worker", one))
        for workers in counts[1:]:
            many = median_run(runs[lane, workers])
            print(row(f"{lane}, {workers} workers", many))
            same = "same scenarios" if one.scenarios == many.scenarios else "DIFFERENT scenario counts"
            print(
                f"{lane}: {workers} workers are {one.wall_s / many.wall_s:.2f}x faster than 1 ({same}), "
                f"efficiency {_efficiency(many):.2f} on {_cores()} cores"
            )
        print()


def _round_figures(one: LaneRun, run: LaneRun, workers: int) -> str:
    figures = f"{workers} workers {run.wall_s:.1f}s ({_cpu_per_scenario(run):.2f} cpu-s/scenario"
    if workers == 1:
        return figures + ")"
    return figures + f", efficiency {_efficiency(run):.2f}) = {one.wall_s / run.wall_s:.2f}x"


def _cores() -> int:
    return len(os.sched_getaffinity(0))


def _efficiency(run: LaneRun) -> float:
    """How far the lane's wall is from its CPU spread over every core: the serial start and end and
    an idle tail all raise it above 1."""
    return run.wall_s / (run.cpu_s / _cores())


def _cpu_per_scenario(run: LaneRun) -> float:
    return run.cpu_s / max(run.scenarios, 1)


if __name__ == "__main__":
    main()
