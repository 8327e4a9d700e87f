"""The per-scenario World: one typed object, capability state under `world.agent_builder`.

Every class here uses slots, so a step that invents an attribute fails at once instead of
leaking ad-hoc state between steps. Created resources go into the typed cleanup queues.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime

from playwright.sync_api import BrowserContext, Page, Response

from support.api.console import ConsoleClient
from support.api.models import AgentDetail, AgentModelRef, Dataset, Document, Model, ToolCredential
from support.api.service import ServiceStreamEvent
from support.browser.held_requests import HeldRequest
from support.browser.loading import wait_until_loaded
from support.cleanup import Cleanup, ResourceKind
from support.naming import e2e_name
from support.replay.control import ReplayControl
from support.seeded.specs import VoiceClip
from support.settings import Settings


@dataclass(frozen=True, slots=True)
class RuntimeBackend:
    """The agent runtime backend (and its shellctl sandbox, when known) that answered its probe."""

    url: str
    shellctl_url: str | None


@dataclass(slots=True)
class FixturesState:
    """Seeded, environment-owned resources a scenario resolved; read-only for scenarios."""

    stable_model: Model | None = None
    decision_model: Model | None = None
    ready_knowledge: Dataset | None = None
    web_search_credential: ToolCredential | None = None
    # By fixture key: `full-config`, `tool-states`, `dual-retrieval` (seed/data/agents.toml).
    fixture_agents: dict[str, AgentDetail] = field(default_factory=dict)
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
class SettingsState:
    """Run-unique names of providers and credentials a scenario created, by their Gherkin label."""

    provider_names: dict[str, str] = field(default_factory=dict)
    credential_names: dict[str, str] = field(default_factory=dict)
    fake_provider_url: str | None = None  # a provider the scenario started (support/fake_provider.py)


@dataclass(slots=True)
class RuntimeState:
    """What a chat through the service API returned, for the assertions that follow it."""

    conversation_id: str | None = None
    other_agent_api_key: str | None = None  # a key of another published agent, for scoping checks
    answer: str | None = None
    refused_status: int | None = None
    stream_events: list[ServiceStreamEvent] = field(default_factory=list)
    stream_arrivals: list[float] = field(default_factory=list)  # seconds after the request, per event


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
    fixtures: FixturesState = field(default_factory=FixturesState)
    configure: ConfigureState = field(default_factory=ConfigureState)
    access_point: AccessPointState = field(default_factory=AccessPointState)
    knowledge: KnowledgeState = field(default_factory=KnowledgeState)
    settings: SettingsState = field(default_factory=SettingsState)
    runtime: RuntimeState = field(default_factory=RuntimeState)
    preview: PreviewState = field(default_factory=PreviewState)
    build_assistant: BuildAssistantState = field(default_factory=BuildAssistantState)
    speech_to_text: SpeechToTextState = field(default_factory=SpeechToTextState)
    auth: AuthState = field(default_factory=AuthState)


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
