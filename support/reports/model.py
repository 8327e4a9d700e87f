"""The results of a lane run, independent of behave and of the product under test."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

ScenarioStatus = Literal["passed", "failed", "error", "skipped", "untested"]
STATUS_ORDER: tuple[ScenarioStatus, ...] = ("passed", "failed", "error", "skipped", "untested")
# Statuses that mean "nothing went wrong"; anything else (including statuses a runner
# adds later, like "undefined") counts as a failure, so it is never hidden.
OK_STATUSES = frozenset({"passed", "skipped", "untested"})


@dataclass(frozen=True)
class Attachment:
    """What a step or hook attached (`context.attach`, failure evidence): a text body as is, bytes
    base64-encoded; or, for a file kept beside the report (a trace), only its `url`."""

    media_type: str
    body: str = ""
    encoding: Literal["identity", "base64"] = "identity"
    file_name: str | None = None
    url: str | None = None  # relative to the report's folder


@dataclass(frozen=True)
class StepResult:
    """A Gherkin step's result, or with `hook` set, a scenario hook's: `keyword` "Before" or "After"
    (behave's before/after_scenario, and each after-scenario check: cleanup, page errors, unused
    model recordings), its own entry, so a failure there is shown where it happened."""

    keyword: str
    name: str
    status: str
    duration_s: float
    error: str | None = None
    line: int | None = None  # the step's line in its feature file; None for a hook
    hook: bool = False
    exception_type: str | None = None  # the class of the exception that failed it (or made it pending)
    source: str | None = None  # `path:line` of the step definition or hook function that ran it
    attachments: Sequence[Attachment] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "attachments", tuple(self.attachments))


@dataclass(frozen=True)
class Definition:
    """A step definition (`kind` "step": `text` is its pattern), a scenario hook ("before" or
    "after") or run hook ("before-all", "after-all": `text` is its name) or a parameter type of Cucumber expressions ("parameter-type":
    `text` is its name, `patterns` its regular expressions) that the run loaded, used or not;
    `source` is `path:line`."""

    kind: Literal["step", "before", "after", "before-all", "after-all", "parameter-type"]
    text: str
    source: str
    regex: bool = False  # a regular expression, else a behave/Cucumber expression
    patterns: Sequence[str] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "patterns", tuple(self.patterns))


@dataclass(frozen=True)
class ScenarioResult:
    feature_name: str
    feature_path: str
    name: str
    line: int
    tags: Sequence[str]
    status: ScenarioStatus
    duration_s: float
    steps: Sequence[StepResult]
    error: str | None = None
    # e.g. "screenshot", "trace", "html", "console" -> file path
    evidence: Mapping[str, Path] = field(default_factory=dict)
    worker_id: str = "w0"
    attempt: int = 1  # 1..N with --repeat N
    started_at: str | None = None  # ISO 8601; steps start one after another from here

    @property
    def id(self) -> str:
        """Unique in a lane run, also a merged one: `file:line`, and the attempt after the first."""
        return self.location + (f"#{self.attempt}" if self.attempt > 1 else "")

    def __post_init__(self) -> None:
        # Callers pass lists and strings; normalising makes results compare equal after a JSON
        # round trip and keeps tags and steps immutable.
        object.__setattr__(self, "tags", tuple(self.tags))
        object.__setattr__(self, "steps", tuple(self.steps))
        object.__setattr__(self, "evidence", {key: Path(path) for key, path in self.evidence.items()})

    @property
    def failed(self) -> bool:
        return self.status not in OK_STATUSES

    @property
    def location(self) -> str:
        return f"{self.feature_path}:{self.line}"

    def failing_step(self) -> StepResult | None:
        return next((step for step in self.steps if step.status not in OK_STATUSES), None)


@dataclass(frozen=True)
class RunInfo:
    lane: str
    run_id: str
    base_url: str | None
    started_at: str  # ISO 8601
    duration_s: float
    stage_durations: Mapping[str, float] = field(default_factory=dict)
    workers: int = 1
    shard: str | None = None  # "I/N" when the run is one shard of the lane
    repeat: int = 1  # --repeat N
    # The settings a rerun must repeat to run the same way, e.g. {"E2E_START_AGENT_BACKEND": "1"}.
    settings: Mapping[str, str] = field(default_factory=dict)
    # Scenarios the lane left out by design, e.g. {"@needs-test-hooks: needs ...": 6}.
    excluded: Mapping[str, int] = field(default_factory=dict)
    order: str = "longest-first"  # or "random:<seed>" (`--order random`)


@dataclass(frozen=True)
class LaneFailure:
    """A failure of the lane as a whole, not of one scenario: leftovers, zero scenarios, a dead worker."""

    kind: str  # e.g. "leftovers", "zero-scenarios", "worker-died"
    message: str
    fix: str | None = None


@dataclass(frozen=True)
class LaneReport:
    """Everything one lane run (or one shard, or their merge) reports."""

    run: RunInfo
    results: Sequence[ScenarioResult]
    lane_failures: Sequence[LaneFailure] = ()
    definitions: Sequence[Definition] = ()  # what the steps and hooks define: Cucumber Messages' glue
    # The run's own hooks (keyword "BeforeAll" or "AfterAll": behave's before_all/after_all), in order.
    run_hooks: Sequence[StepResult] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "results", tuple(self.results))
        object.__setattr__(self, "lane_failures", tuple(self.lane_failures))
        object.__setattr__(self, "definitions", tuple(dict.fromkeys(self.definitions)))
        object.__setattr__(self, "run_hooks", tuple(self.run_hooks))

    @property
    def failed(self) -> bool:
        hooks_failed = any(hook.status not in OK_STATUSES for hook in self.run_hooks)
        return bool(self.lane_failures) or hooks_failed or any(result.failed for result in self.results)


def status_counts(results: Iterable[ScenarioResult]) -> list[tuple[str, int]]:
    """(status, count) for each status present: known ones in `STATUS_ORDER`, then any others."""
    counts = Counter(result.status for result in results)
    statuses = [status for status in STATUS_ORDER if counts[status]]
    statuses += sorted(status for status in counts if status not in STATUS_ORDER)
    return [(status, counts[status]) for status in statuses]
