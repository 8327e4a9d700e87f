"""Print each lane's wall time with 1 and 2 workers, their ratio, and CPU seconds per scenario.

    .venv/bin/python -m benchmarks.parallel [--lanes pr,post-merge] [--rounds N]

One run measures every configuration; with several rounds the configurations alternate, so the
noise of a shared machine hits them alike, and the medians are printed. Figures only: nothing
here asserts a time.
"""

from __future__ import annotations

import argparse

from benchmarks.lane_runs import LaneRun, median_run, row, run_lane

WORKER_COUNTS = (1, 2)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--lanes", default="pr,post-merge")
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    lanes = args.lanes.split(",")
    runs: dict[tuple[str, int], list[LaneRun]] = {(lane, n): [] for lane in lanes for n in WORKER_COUNTS}
    for round_number in range(1, args.rounds + 1):
        for lane in lanes:
            for workers in WORKER_COUNTS:
                runs[lane, workers].append(run_lane(lane, workers))
            one, two = runs[lane, 1][-1], runs[lane, 2][-1]
            # Each round's own ratio too: on a shared machine their spread says what a median is worth.
            # With its CPU per scenario beside it: on a quiet machine the same scenarios cost about the
            # same CPU with 1 or 2 workers, so a 2-worker run that cost much more did the same work slower.
            print(
                f"round {round_number}, {lane}: 1 worker {one.wall_s:.1f}s ({_cpu_per_scenario(one):.2f} "
                f"cpu-s/scenario), 2 workers {two.wall_s:.1f}s ({_cpu_per_scenario(two):.2f} cpu-s/scenario) "
                f"= {one.wall_s / two.wall_s:.2f}x",
                flush=True,
            )
    print()
    for lane in lanes:
        one, two = median_run(runs[lane, 1]), median_run(runs[lane, 2])
        print(row(f"{lane}, 1 worker", one))
        print(row(f"{lane}, 2 workers", two))
        same = "same scenarios" if one.scenarios == two.scenarios else "DIFFERENT scenario counts"
        print(f"{lane}: 2 workers are {one.wall_s / two.wall_s:.2f}x faster than 1 ({same})\n")


def _cpu_per_scenario(run: LaneRun) -> float:
    return run.cpu_s / max(run.scenarios, 1)


if __name__ == "__main__":
    main()
