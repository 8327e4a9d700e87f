"""Run a named lane: `python -m support.lanes LANE [--workers N] [--shard I/N] [--repeat N] [behave args...]`.

The lane names and their tag expressions live in support/tags.py; the Makefile and CI call
this so no lane is ever re-spelled in YAML. The lane runs on a pool of worker processes
(support/lanes/coordinator.py): `--workers` (default `E2E_WORKERS`, `auto` = one more than the CPU count, at most 4),
`--shard I/N` for one CI machine's part of the lane, `--repeat N` to run each scenario N times
(a scenario that fails once fails the run), `--order random[:SEED]` to hand scenarios out in a
seeded random order instead of longest first (the seed is printed and kept for `make rerun`), so a
scenario that needs another to run first fails here, not only on some other machine; `--since REF`
(pr and a11y) runs only the scenarios a change since REF can affect (support/lanes/since.py);
`--stop` hands out no scenario after the first that fails (what the mutation lane needs to know).
Anything else goes to behave (`-n NAME`, a `file:line`, ...); `--dry-run` lists what the lane
selects without running it.
"""

from __future__ import annotations

import secrets
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from behave.__main__ import main as behave_main

from support.lanes.coordinator import run_pool
from support.lanes.finish import fresh_lane_folder
from support.lanes.plan import plan_lane
from support.lanes.schedule import Shard
from support.lanes.selection import select_scenarios
from support.lanes.since import describe
from support.settings import Settings, SettingsError, load_settings
from support.tags import LANES, behave_args

USAGE = (
    f"usage: python -m support.lanes {{{','.join(LANES)}}} [--workers N|auto] [--shard I/N] [--repeat N] "
    "[--order random[:SEED]] [--since REF] [--stop] [behave args...]"
)
EXIT_USAGE = 2
# The quick lanes; post-merge and nightly runs are the safety net and run everything.
SINCE_LANES = ("pr", "a11y")


@dataclass(frozen=True)
class LaneArgs:
    lane: str
    workers: str | None  # None: E2E_WORKERS
    shard: Shard | None
    repeat: int
    behave_args: tuple[str, ...]
    order_seed: int | None = None  # --order random[:SEED]; None: longest first
    since: str | None = None  # --since REF: only what a change since REF can affect
    stop: bool = False  # --stop: no scenario after the first that fails


def parse_lane_args(argv: Sequence[str]) -> LaneArgs:
    """Our three options, anywhere on the line (`--opt V` or `--opt=V`); the rest is behave's, in order."""
    if not argv or argv[0] not in LANES:
        raise ValueError(USAGE)
    ours: dict[str, str] = {}
    rest: list[str] = []
    items = iter(argv[1:])
    for item in items:
        name, equals, value = item.partition("=")
        if item == "--stop":
            ours[item] = "yes"
        elif name in ("--workers", "--shard", "--repeat", "--order", "--since"):
            if not equals:
                value = next(items, "")
            if not value:
                raise ValueError(f"{name} needs a value\n{USAGE}")
            ours[name] = value
        else:
            rest.append(item)
    repeat = ours.get("--repeat", "1")
    if not repeat.isdigit() or int(repeat) < 1:
        raise ValueError(f"--repeat {repeat!r}: expected a count >= 1")
    shard = Shard.parse(ours["--shard"]) if "--shard" in ours else None
    seed = parse_order(ours["--order"]) if "--order" in ours else None
    if "--since" in ours and argv[0] not in SINCE_LANES:
        raise ValueError(
            f"--since: the {argv[0]} lane always runs everything; it is for {', '.join(SINCE_LANES)}"
        )
    return LaneArgs(
        argv[0],
        ours.get("--workers"),
        shard,
        int(repeat),
        tuple(rest),
        seed,
        ours.get("--since"),
        "--stop" in ours,
    )


def parse_order(value: str) -> int:
    """`random` (a fresh seed) or `random:SEED`: the seed of the lane's random order."""
    kind, colon, seed = value.partition(":")
    if kind != "random" or (colon and not seed.isdigit()):
        raise ValueError(f"--order {value!r}: expected random or random:SEED (SEED a whole number)\n{USAGE}")
    return int(seed) if colon else secrets.randbelow(1_000_000)


def resolve_workers(settings: Settings, requested: str | None) -> int:
    """`--workers` wins over E2E_WORKERS; validated like the setting."""
    if requested is None:
        return settings.worker_count()
    return settings.model_copy(update={"workers": _checked_workers(requested)}).worker_count()


def _checked_workers(requested: str) -> str | int:
    try:
        return load_settings({"E2E_WORKERS": requested}, env_file=None).workers
    except SettingsError as error:
        raise ValueError(str(error).replace("E2E_WORKERS", "--workers")) from None


def main(argv: list[str]) -> int:
    try:
        args = parse_lane_args(argv)
        settings = load_settings()
        workers = resolve_workers(settings, args.workers)
    except (ValueError, SettingsError) as error:
        print(error, file=sys.stderr)
        return EXIT_USAGE
    if "--dry-run" in args.behave_args or "-d" in args.behave_args:
        listed: int = behave_main([*behave_args(args.lane), *args.behave_args])  # lists, runs nothing
        return listed
    if settings.start_agent_backend:
        print(
            "E2E_START_AGENT_BACKEND=1 is the post-merge orchestrator's job: run "
            "`E2E_START_AGENT_BACKEND=1 make post-merge ARGS='...'`.",
            file=sys.stderr,
        )
        return EXIT_USAGE
    if args.lane == "deployed" and settings.base_url is None:
        print(
            "The deployed lane runs against a deployment: `make deployed` brings one up and runs it, or set "
            "E2E_BASE_URL (with E2E_CA_FILE, E2E_HOST_RESOLVER_RULES and E2E_REPLAY_URL as it needs) to yours.",
            file=sys.stderr,
        )
        return EXIT_USAGE
    fresh_lane_folder(settings, args.lane)
    plan = plan_lane(
        args.lane,
        args.behave_args,
        shard=args.shard,
        repeat=args.repeat,
        order_seed=args.order_seed,
        since=args.since,
        stop=args.stop,
    )
    if plan.since is not None and args.since is not None:
        report = describe(
            plan.since, select_scenarios([*behave_args(args.lane), *args.behave_args]), args.since
        )
        print(report.splitlines()[0], file=sys.stderr)
        since_file = settings.artifacts_dir / args.lane / "since.txt"
        since_file.write_text(report, encoding="utf-8")
        print(f"  every scenario and why it runs or not: {since_file}", file=sys.stderr)
        if not plan.assignments:
            print("  nothing this change can affect runs in this lane", file=sys.stderr)
            return 0
    return run_pool(plan, settings, workers=workers)
