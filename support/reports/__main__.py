"""`python -m support.reports merge DIR... [--out DIR]`: one report for a lane run as shards.

Each DIR is a lane report folder (with report.json), e.g. the `artifacts/pr` of every shard's
CI job. Exit code 1 when the merged lane failed (a failed scenario or a lane failure), 2 on usage.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from support.reports.json_report import read_json
from support.reports.lane import merge_reports, publish_lane
from support.reports.summary import summary_text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m support.reports")
    commands = parser.add_subparsers(dest="command", required=True)
    merge = commands.add_parser("merge", help="merge shards' lane reports into one")
    merge.add_argument("folders", nargs="+", type=Path, help="lane report folders holding report.json")
    merge.add_argument("--out", type=Path, default=Path("artifacts/merged"), help="where to write the result")
    args = parser.parse_args(argv)
    missing = [str(folder) for folder in args.folders if not (folder / "report.json").is_file()]
    if missing:
        print(f"no report.json in: {', '.join(missing)} (give each shard's lane folder)", file=sys.stderr)
        return 2
    try:
        report = merge_reports([read_json(folder / "report.json") for folder in args.folders])
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    paths = publish_lane(report, args.out, args.out.parent)
    print(summary_text(report, reports=paths), file=sys.stderr)
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
