"""`python -m support.lanes LANE [--workers N] [--shard I/N] [--repeat N] [behave args...]` (support/lanes/cli.py)."""

import sys

from support.lanes.cli import main

sys.exit(main(sys.argv[1:]))
