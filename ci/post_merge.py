"""`make post-merge` (`python -m ci.post_merge [--workers N] [--shard I/N] [--repeat N] [behave args...]`).

One process owns the post-merge lane's whole lifecycle, so CI never re-implements it in YAML:

1. select the lane's scenarios (and shard), so it starts no more stacks than there are scenarios;
2. start one stack per worker on free ports (ci/stacks.py), logging to
   `<artifacts>/post-merge/workers/<id>/services/`: the record/replay server (unless
   E2E_REPLAY_URL is given), with E2E_START_AGENT_BACKEND=1
   shellctl and the agent runtime, then the console wired to them (unless E2E_BASE_URL is given);
   each stack's services start side by side with the other stacks';
3. run the strict seed, profile `post-merge`, against every stack (report beside its logs);
4. run the lane on the worker pool, worker N against stack N (support/lanes);
5. tear everything down in reverse order: on success, on failure, on Ctrl-C and on SIGTERM.

Exit code: the lane's; 3 when a seed blocked (no scenario runs); 2 for invalid settings or
arguments; 4 when a service did not start; 130/143 when interrupted by SIGINT/SIGTERM. A blocked
seed and a service that did not start still write the lane's reports, with a `seed-blocked` or
`service-failed` lane failure, so the reports say what the exit code says.
"""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor

from ci.lifecycle import EXIT_SERVICE_FAILED, Interrupted, ignore_signals, interrupt_on_signals, stage
from ci.stacks import WorkerStack, start_stacks
from seed.report import SeedReport
from seed.runner import EXIT_BLOCKED, EXIT_USAGE, seed_and_print
from support.lanes.cli import parse_lane_args, resolve_workers
from support.lanes.coordinator import run_pool
from support.lanes.finish import finish_without_run, fresh_lane_folder, lane_folder
from support.lanes.plan import LanePlan, plan_lane
from support.reports import LaneFailure
from support.settings import Settings, SettingsError, load_settings
from support.stack import ServiceStartError, stop_services

LANE = "post-merge"


def _announce(message: str) -> None:
    print(f"[post-merge] {message}", file=sys.stderr, flush=True)


def _seed(settings: Settings, worker: WorkerStack) -> SeedReport:
    env = worker.behave_env(settings)
    seeded = settings.model_copy(
        update={
            "base_url": env["E2E_BASE_URL"],
            "replay_url": env["E2E_REPLAY_URL"],
            "artifacts_dir": worker.folder,
        }
    )
    return seed_and_print(seeded, LANE)


def seed_blocked_failures(workers: list[WorkerStack], seeds: list[SeedReport]) -> list[LaneFailure]:
    """One `seed-blocked` lane failure per blocked task of each worker's seed."""
    return [
        LaneFailure(
            "seed-blocked",
            f"the strict seed of worker {worker.worker_id} blocked task {task.task} (owner {task.owner}): "
            f"{task.detail}. No scenario ran. Seed report: {worker.folder / 'seed-report' / f'{LANE}.json'}",
            task.remediation,
        )
        for worker, seed in zip(workers, seeds, strict=True)
        for task in seed.blocked
    ]


def check_workers(settings: Settings, count: int) -> list[str]:
    """Settings that pin one shared service cannot serve several workers."""
    if count <= 1:
        return []
    pinned = [
        (variable, "pins a port")
        for variable, value in (
            ("E2E_AGENT_BACKEND_PORT", settings.agent_backend_port),
            ("E2E_SHELLCTL_PORT", settings.shellctl_port),
        )
        if value
    ]
    pinned += [
        (variable, "is one replay server, which serves one scenario at a time")
        for variable, value in (("E2E_REPLAY_URL", settings.replay_url), ("E2E_BASE_URL", settings.base_url))
        if value
    ]
    return [
        f"{variable} {why}, but {count} workers each need their own. Fix: unset {variable}, or run with --workers 1."
        for variable, why in pinned
    ]


def _start_seed_and_run(
    settings: Settings, plan: LanePlan, workers: list[WorkerStack], stages: dict[str, float]
) -> int:
    with stage(stages, "stacks start"):
        start_stacks(settings, workers, stages)
    with stage(stages, "seed"), ThreadPoolExecutor(max_workers=len(workers)) as pool:
        seeds = list(pool.map(lambda worker: _seed(settings, worker), workers))
    _announce("startup stages: " + ", ".join(f"{name} {seconds:.2f}s" for name, seconds in stages.items()))
    blocked = seed_blocked_failures(workers, seeds)
    if blocked:
        _announce("a seed is blocked (see the table above): the lane does not run")
        finish_without_run(plan, settings, blocked, workers=len(workers), stage_durations=stages)
        return EXIT_BLOCKED
    by_id = {worker.worker_id: worker for worker in workers}
    # While it runs, the pool takes the signals: it lets every worker finish its teardown first.
    return run_pool(
        plan,
        settings,
        workers=len(workers),
        worker_env=lambda worker_id: by_id[worker_id].behave_env(settings),
        stage_durations=stages,
    )


def main(argv: list[str]) -> int:
    try:
        settings = load_settings()
        args = parse_lane_args([LANE, *argv])
        plan = plan_lane(
            LANE,
            args.behave_args,
            shard=args.shard,
            repeat=args.repeat,
            order_seed=args.order_seed,
            stop=args.stop,
        )
        count = plan.worker_count(resolve_workers(settings, args.workers))
    except (SettingsError, ValueError) as error:
        print(error, file=sys.stderr)
        return EXIT_USAGE
    fresh_lane_folder(settings, LANE)
    if count == 0:  # nothing selected: fail the zero-scenario gate without starting a stack
        return run_pool(plan, settings, workers=0)
    problems = check_workers(settings, count)
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return EXIT_USAGE
    interrupt_on_signals()
    workers = [
        WorkerStack(f"w{index}", lane_folder(settings, LANE) / "workers" / f"w{index}")
        for index in range(1, count + 1)
    ]
    stages: dict[str, float] = {}
    try:
        return _start_seed_and_run(settings, plan, workers, stages)
    except ServiceStartError as error:
        _announce(str(error))
        failure = LaneFailure(
            "service-failed", str(error), "read the service's log named above; fix it, then rerun"
        )
        finish_without_run(plan, settings, [failure], workers=count, stage_durations=stages)
        return EXIT_SERVICE_FAILED
    except Interrupted as interrupted:
        _announce(f"interrupted by {interrupted}: tearing down")
        return 128 + interrupted.signum
    finally:
        ignore_signals()
        for worker in workers:
            worker.close_sockets()
        # Every worker's services at once: each graceful shutdown takes its own fraction of a second.
        stop_services(
            [service for worker in reversed(workers) for service in reversed(worker.stack.services)]
        )
        _announce("all services stopped")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
