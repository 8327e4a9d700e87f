"""What a lane run will run: the lane's scenarios by behave's own selection, one shard of them or all,
longest first (or in a seeded random order), each `--repeat` times; and what the lane leaves out
by design, counted."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from support.lanes.link import Assignment
from support.lanes.schedule import Estimates, Shard, load_durations
from support.lanes.selection import select_scenarios
from support.lanes.since import Selection
from support.lanes.since import for_lane as select_since
from support.tags import LANE_EXCLUSIONS, behave_args, excluded_expression


@dataclass(frozen=True)
class LanePlan:
    lane: str
    behave_args: tuple[str, ...]  # the lane's tag expression plus the caller's arguments
    assignments: tuple[Assignment, ...]  # longest first, or in the order_seed's random order
    shard: Shard | None = None
    repeat: int = 1
    excluded: Mapping[str, int] = field(default_factory=dict)  # "<tag>: <why>" -> scenarios left out
    order_seed: int | None = None
    since: Selection | None = None  # --since REF: why each kept scenario runs, or why all do
    stop: bool = False  # --stop: no scenario is handed out after the first that fails

    @property
    def order(self) -> str:
        return "longest-first" if self.order_seed is None else f"random:{self.order_seed}"

    def worker_count(self, requested: int) -> int:
        """No more workers than scenarios: an idle worker would only pay for its start-up."""
        return min(requested, len(self.assignments))


def plan_lane(
    lane: str,
    extra_args: Sequence[str] = (),
    *,
    shard: Shard | None = None,
    repeat: int = 1,
    durations: Mapping[str, float] | None = None,
    order_seed: int | None = None,
    since: str | None = None,
    stop: bool = False,
) -> LanePlan:
    if repeat < 1:
        raise ValueError(f"--repeat {repeat}: expected a count >= 1")
    args = (*behave_args(lane), *extra_args)
    estimates = Estimates(load_durations() if durations is None else durations)
    refs = select_scenarios(args)
    selection = None
    if since is not None:
        selection = select_since(since, refs)
        if selection.whole is None:
            refs = [ref for ref in refs if ref.location in selection.kept]
    if shard is not None:
        refs = estimates.shard(refs, shard)
    if order_seed is None:
        ordered = estimates.longest_first(refs)
    else:
        ordered = sorted(refs)
        random.Random(order_seed).shuffle(ordered)
    assignments = tuple(Assignment(ref, attempt) for ref in ordered for attempt in range(1, repeat + 1))
    excluded = {
        f"{tag}: {why}": len(select_scenarios([f"--tags={excluded_expression(lane, tag)}", *extra_args]))
        for tag, why in LANE_EXCLUSIONS.get(lane, {}).items()
    }
    return LanePlan(lane, args, assignments, shard, repeat, excluded, order_seed, selection, stop)
