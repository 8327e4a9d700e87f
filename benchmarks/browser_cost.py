"""Print what the browser binary costs the PR lane: Chromium's headless shell against full Chromium.

    .venv/bin/python -m benchmarks.browser_cost [--rounds N] [--workers N]

Both run the same pages headless; full Chromium also runs its browser UI and display compositor.
The two binaries alternate within one run (same machine, same noise) and the medians are
compared. Figures only: nothing asserts a time.
"""

from __future__ import annotations

import argparse
import shutil

from benchmarks.lane_runs import compare_pr_lane, row

BINARIES = ("chromium-headless-shell", "chromium")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    paths = {name: shutil.which(name) for name in BINARIES}
    if missing := [name for name, path in paths.items() if path is None]:
        raise SystemExit(f"not installed: {', '.join(missing)} (make setup installs both)")
    runs = compare_pr_lane(
        {name: {"E2E_BROWSER_PATH": str(path)} for name, path in paths.items()}, args.rounds, args.workers
    )
    shell, full = runs["chromium-headless-shell"], runs["chromium"]
    print(row("headless shell", shell))
    print(row("full Chromium", full))
    print(
        f"the headless shell takes {shell.wall_s / full.wall_s:.2f}x the wall and "
        f"{shell.cpu_s / full.cpu_s:.2f}x the CPU of full Chromium (median of {args.rounds} rounds)"
    )


if __name__ == "__main__":
    main()
