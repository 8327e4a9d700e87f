"""The per-scenario World: one typed object, capability state under `world.agent_builder`.

`World.start` opens a scenario against its run (support/run/state.py): a fresh signed-in browser
context (traced, its pages guarded against other origins and watched for errors) and page, and a
replay scope when the scenario calls providers. `World.close` ends it: the after-scenario checks
(`scenario_checks`), the evidence, the browser context, then the cleanup queues. The hooks
(support/hooks.py) only call the two.

Every class here uses slots, so a step that invents an attribute fails at once instead of
leaking ad-hoc state between steps. Created resources go into the typed cleanup queues.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from behave.model import Scenario
from playwright.sync_api import BrowserContext, Page, Response

from support.api.client_state import AccessMatrixState, ServiceApiChatState
from support.api.console import ConsoleClient
from support.api.models import AgentDetail, AgentModelRef, Dataset, Document, Model
from support.browser.evidence import capture, save_trace, scenario_dir
from support.browser.held_requests import HeldRequest
from support.browser.loading import wait_until_loaded, wait_until_quiet
from support.browser.origin_guard import guard_origin
from support.cleanup import Cleanup, ResourceKind
from support.lanes.audit import Resource, every_resource, left_behind
from support.naming import e2e_name
from support.replay.control import ReplayControl
from support.replay.explain import leftover_text, misses_text
from support.run.impact import PageCoverage, enter_scenario, scenario_id
from support.run.result import CheckFailure
from support.run.service_logs import ServiceLogs
from support.run.state import RunState
from support.seeded.runtime import RuntimeBackend
from support.seeded.specs import VoiceClip
from support.settings import Settings
from support.tags import EXTERNAL_MODEL, EXTERNAL_TOOL, MICROPHONE
from support.ui.embedding_site import EMBEDDING_SITE
from support.ui.other_port_site import other_port_origin


@dataclass(slots=True)
class SeededState:
    """Seeded, environment-owned resources the scenario's fixture steps resolved (support/seeded/),
    and the runtime backend they probed; read-only for scenarios."""

    stable_model: Model | None = None
    decision_model: Model | None = None
    ready_knowledge: Dataset | None = None
    # By key: `full-config`, `tool-states`, `dual-retrieval` (seed/data/agents.toml).
    agents: dict[str, AgentDetail] = field(default_factory=dict)
    agent_backend: RuntimeBackend | None = None
    speech_to_text_model: AgentModelRef | None = None


@dataclass(slots=True)
class ConfigureState:
    agent: AgentDetail | None = None  # the agent "the agent" refers to: the last one created
    agents_by_label: dict[str, AgentDetail] = field(default_factory=dict)
    second_tab: Page | None = None  # another tab of the same browser, for concurrent edits


@dataclass(frozen=True, slots=True)
class PublicUrls:
    web_app: str
    service_api: str


@dataclass(slots=True)
class AccessPointState:
    shown_api_key_secret: str | None = None
    other_api_key_secret: str | None = None  # "the other key": a second key of the same agent
    # Each published agent's public URLs by agent id, kept once read: still known after deletion.
    public_urls: dict[str, PublicUrls] = field(default_factory=dict)


@dataclass(slots=True)
class AuthState:
    signed_out_session: str | None = None  # the session token the scenario signed out of


@dataclass(slots=True)
class KnowledgeState:
    dataset: Dataset | None = None
    document: Document | None = None


@dataclass(slots=True)
class ProvidersState:
    """The console's settings pages: run-unique names of the model providers and tool credentials a
    scenario created, by their Gherkin label."""

    provider_names: dict[str, str] = field(default_factory=dict)
    credential_names: dict[str, str] = field(default_factory=dict)
    fake_provider_url: str | None = (
        None  # a provider the scenario started (support/api_setup/fake_provider.py)
    )


@dataclass(slots=True)
class WebAppState:
    """The web app conversation the scenario had seeded (test seeding router), to open it on."""

    conversation_id: str | None = None


@dataclass(slots=True)
class PreviewState:
    """The configure page's preview: the responses its questions got, in order (a reply's event
    stream is its body, complete once the reply has ended)."""

    replies: list[Response] = field(default_factory=list)


@dataclass(slots=True)
class BuildAssistantState:
    """What the scenario asked the build assistant for."""

    description: str | None = None


@dataclass(slots=True)
class SpeechToTextState:
    """Voice input: the clip the fake microphone played into the last recording."""

    clip: VoiceClip | None = None


@dataclass(slots=True)
class AgentBuilderState:
    seeded: SeededState = field(default_factory=SeededState)
    configure: ConfigureState = field(default_factory=ConfigureState)
    access_point: AccessPointState = field(default_factory=AccessPointState)
    knowledge: KnowledgeState = field(default_factory=KnowledgeState)
    providers: ProvidersState = field(default_factory=ProvidersState)
    service_api_chat: ServiceApiChatState = field(default_factory=ServiceApiChatState)
    web_app: WebAppState = field(default_factory=WebAppState)
    access_matrix: AccessMatrixState = field(default_factory=AccessMatrixState)
    preview: PreviewState = field(default_factory=PreviewState)
    build_assistant: BuildAssistantState = field(default_factory=BuildAssistantState)
    speech_to_text: SpeechToTextState = field(default_factory=SpeechToTextState)
    auth: AuthState = field(default_factory=AuthState)


@dataclass(frozen=True, slots=True)
class ScenarioEnd:
    """What closing a scenario found: the failed after-scenario checks, and the evidence kept."""

    checks: list[CheckFailure]
    evidence: dict[str, Path]


@dataclass(slots=True)
class World:
    settings: Settings
    console_url: str
    console: ConsoleClient
    browser_context: BrowserContext
    page: Page
    name_counter: Iterator[int]  # shared by the worker: names never repeat across scenarios
    # Shared by the worker: name -> the scenario that made it, so a leftover names its creator.
    creators: dict[str, str]
    scenario_label: str  # `file:line "name"` of this scenario
    scenario_location: str  # `file:line` of this scenario
    # The replay server's scope for this scenario; only @external-model/@external-tool scenarios have one.
    replay: ReplayControl | None = None
    replay_misses_shown: int = 0  # misses of the replay scope a step already failed with
    started_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    cleanup: Cleanup = field(default_factory=Cleanup)
    agent_builder: AgentBuilderState = field(default_factory=AgentBuilderState)
    page_errors: list[str] = field(default_factory=list)
    console_log: list[str] = field(default_factory=list)
    # Secret values the scenario was given (API keys shown once): redacted from every artifact.
    secrets: set[str] = field(default_factory=set)
    # Requests the scenario holds open, by what they are ("draft save", "access change").
    held: dict[str, HeldRequest] = field(default_factory=dict)
    # What the console held when the scenario started: what it holds after the cleanup, beyond
    # this, the scenario left behind, whatever it was called.
    resources_before: set[Resource] = field(default_factory=set)
    page_coverage: PageCoverage | None = None  # only while `make impact-map` measures
    service_logs: ServiceLogs | None = None  # the logs of the services this worker started

    def name(self, label: str) -> str:
        """A run- and worker-unique name with the E2E prefix, so leftovers can be audited."""
        name = e2e_name(
            label, run_id=self.settings.run_id, worker_id=self.settings.worker_id, counter=self.name_counter
        )
        self.creators[name] = self.scenario_label
        return name

    def track(self, kind: ResourceKind, resource_id: str, remove: Callable[[], None], label: str) -> None:
        self.cleanup.track(kind, resource_id, remove, label)

    def register_cleanup(self, fn: Callable[[], None], label: str) -> None:
        self.cleanup.register(fn, label)

    def url(self, path: str) -> str:
        return self.console_url.rstrip("/") + path

    def open(self, path: str) -> None:
        """Navigate the scenario's page to a console path, such as a page object's `PATH`, and
        return once the page has loaded: a step may act on it at once."""
        self.page.goto(self.url(path))
        wait_until_loaded(self.page)

    @classmethod
    def start(cls, run: RunState, scenario: Scenario) -> World:
        """The scenario's World: a fresh signed-in browser context and page, and a replay scope if it
        calls providers (then every model or search call must match its cassette)."""
        tags = {f"@{tag}" for tag in scenario.effective_tags}
        measured = scenario_id(scenario.filename, scenario.line)
        if run.settings.impact_dir is not None:  # first: what starting the World runs is the scenario's
            enter_scenario(run.settings.impact_dir, measured)
        browser_context = run.browser.new_context(run.storage_state, microphone=MICROPHONE in tags)
        if run.settings.trace != "off":
            # Actions, network and console; DOM snapshots only with `always`, the mode for rerunning a
            # failure to look closer: recorded for every passing scenario, they cost a tenth of the
            # lane (benchmarks/trace_cost.py), and a failure keeps its screenshot and page HTML anyway.
            always = run.settings.trace == "always"
            browser_context.tracing.start(screenshots=False, snapshots=always, title=scenario.name)
        guard_origin(
            browser_context,
            run.console_url,
            suite_origins=(EMBEDDING_SITE, other_port_origin(run.console_url)),
        )
        world = cls(
            settings=run.settings,
            console_url=run.console_url,
            console=run.console,
            browser_context=browser_context,
            page=browser_context.new_page(),
            name_counter=run.name_counter,
            creators=run.creators,
            scenario_label=f'{scenario.filename}:{scenario.line} "{scenario.name}"',
            scenario_location=f"{scenario.filename}:{scenario.line}",
            replay=run.replay if tags & {EXTERNAL_MODEL, EXTERNAL_TOOL} else None,
            resources_before=every_resource(run.console),
            service_logs=ServiceLogs.mark(services)
            if (services := run.report_dir / "services").is_dir()
            else None,
        )
        browser_context.on("page", lambda new_page: _watch_page(new_page, world))
        _watch_page(world.page, world)
        if run.settings.impact_dir is not None:
            world.page_coverage = PageCoverage(run.settings.impact_dir, measured, run.console_url)
            world.page_coverage.watch(browser_context, world.page)
        if world.replay is not None:
            world.replay.open_scope(scenario.name, scenario.filename)  # loads the scenario's cassette
        return world

    def close(self, run: RunState, scenario: Scenario, *, steps_failed: bool) -> ScenarioEnd:
        """The after-scenario checks, then the evidence (everything when a step or check failed;
        else the trace as E2E_TRACE says), the browser context closed, and the cleanup queues run:
        a cleanup that failed is one more failed check."""
        checks = scenario_checks(self, steps_passed=not steps_failed)
        run.secrets |= self.secrets  # before any evidence is written
        evidence = self._evidence(run, scenario, failed=steps_failed or bool(checks))
        if self.page_coverage is not None:
            self.page_coverage.save()
        self.browser_context.close()
        cleanup_failures = self.cleanup.run()
        if cleanup_failures:
            checks.append(("cleanup", "cleanup failed: " + "; ".join(str(f) for f in cleanup_failures)))
        checks += self._left_behind()
        if self.service_logs is not None and (errors := self.service_logs.errors_since_mark()):
            checks.append(("service errors", "\n".join(errors)))
        return ScenarioEnd(checks, evidence)

    def _left_behind(self) -> list[CheckFailure]:
        """The scenario fails for what it created and its cleanup did not remove (named for the
        run or not), so every report and the rerun file name it, not only the lane's audit."""
        try:
            left = left_behind(
                self.resources_before,
                every_resource(self.console),
                self.settings.run_id,
                self.settings.worker_id,
            )
        except Exception as error:  # noqa: BLE001 - a check that cannot run must fail visibly
            return [("leftovers", f"could not list the console's resources after the cleanup: {error}")]
        if not left:
            return []
        shown = ", ".join(f"{kind} {name!r}" for kind, name in left)
        message = (
            f"left behind after its cleanup: {shown}. Fix: register a cleanup for every resource a "
            "step creates: world.track(...) or world.register_cleanup(...) (features/README.md, "
            "'Writing a step'); then delete the leftovers in the console."
        )
        return [("leftovers", message)]

    def _evidence(self, run: RunState, scenario: Scenario, *, failed: bool) -> dict[str, Path]:
        out_dir = scenario_dir(run.lane_dir, scenario.filename, scenario.name, run.attempt)
        keep_trace = self.settings.trace == "always" or (self.settings.trace == "on-failure" and failed)
        if failed:
            return capture(
                self.page,
                self.browser_context,
                self.console_log,
                out_dir,
                tracing=keep_trace,
                secrets=run.secrets,
            )
        if keep_trace:
            return {"trace": save_trace(self.browser_context, out_dir / "trace.zip", run.secrets)}
        if self.settings.trace != "off":
            self.browser_context.tracing.stop()
        return {}


def _watch_page(page: Page, world: World) -> None:
    """Collect the page's uncaught errors (loads from other origins among them) and console messages."""
    page.on("pageerror", lambda error: world.page_errors.append(f"{page.url}: {error}"))
    page.on("console", lambda message: world.console_log.append(f"[{message.type}] {message.text}"))


def scenario_checks(world: World, *, steps_passed: bool) -> list[CheckFailure]:
    """What the scenario did wrong beyond its steps: uncaught page errors, model calls that missed
    (and no step reported yet), recordings or faults it never used."""
    checks: list[CheckFailure] = []
    if world.replay is not None and steps_passed:
        # A last step can pass while the agent still streams its reply (a tool's result shows
        # before the answer that follows it). The replay scope closes once the page is done, or
        # the reply's remaining model calls would be reported as recordings never used.
        timeout_ms = world.settings.timeout_ms
        busy = [page.url for page in world.browser_context.pages if not wait_until_quiet(page, timeout_ms)]
        if busy:
            checks.append(
                ("page busy", f"still aria-busy {timeout_ms} ms after the last step: {', '.join(busy)}")
            )
    if world.page_errors:
        checks.append(("page errors", "\n".join(f"uncaught page error: {e}" for e in world.page_errors)))
    if world.replay is None:
        return checks
    report = world.replay.close_scope()
    unreported = report.misses[world.replay_misses_shown :]
    if unreported:
        checks.append(("model calls", misses_text(unreported, report, world.scenario_location)))
    unused = leftover_text(report, world.scenario_location)
    if unused:
        checks.append(("model recordings", unused))
    return checks
