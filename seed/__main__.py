"""`python -m seed --profile prepared|external-runtime|post-merge [--strict] [--dry-run]`

Seeds the deployment at E2E_BASE_URL (see seed/README.md). Exit codes: 0 done (blocked tasks
are reported, and fail the run only with --strict), 2 invalid settings or no E2E_BASE_URL,
3 --strict and a task is blocked.
"""

from __future__ import annotations

import argparse
import sys

from seed.registry import PROFILES
from seed.runner import EXIT_BLOCKED, EXIT_USAGE, seed_and_report
from support.settings import SettingsError, load_settings
from support.settings.network import use_network_settings

NO_TARGET = """E2E_BASE_URL is not set: the seed prepares a running console, and there is none to seed.
- Run the post-merge lane with `make post-merge`: it starts the console and the replay server,
  seeds them and runs the scenarios.
- Or seed a deployment: E2E_BASE_URL=https://... E2E_REPLAY_URL=https://... make seed PROFILE=..."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m seed",
        description="Create or repair the environment-owned resources (models, tools, knowledge, "
        "fixture agents) that seeded scenarios consume, on the console at E2E_BASE_URL.",
        epilog=f"exit codes: 0 done; {EXIT_USAGE} invalid settings or no E2E_BASE_URL; "
        f"{EXIT_BLOCKED} --strict and a task is blocked",
    )
    parser.add_argument("--profile", required=True, choices=list(PROFILES), help="which resources to seed")
    parser.add_argument("--strict", action="store_true", help=f"exit {EXIT_BLOCKED} when any task is blocked")
    parser.add_argument("--dry-run", action="store_true", help="report what would change without changing it")
    args = parser.parse_args(argv)
    try:
        settings = load_settings()
    except SettingsError as error:
        print(error, file=sys.stderr)
        return EXIT_USAGE
    use_network_settings(settings)
    if settings.base_url is None:
        print(NO_TARGET, file=sys.stderr)
        return EXIT_USAGE
    return seed_and_report(settings, args.profile, strict=args.strict, dry_run=args.dry_run)


if __name__ == "__main__":
    sys.exit(main())
