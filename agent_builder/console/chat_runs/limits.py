"""How many replies may be in progress at once (docs/console.md, "Chat"): per web app visitor
(the `ab_visitor` cookie), per web app client address (a request without the cookie is a new
visitor each time), per service API key and `user`, and per agent over the web app and the
service API together. The configure page's preview, which only the signed-in admin can start, is
not counted.

A run holds its slots from the moment it is let in until it ends, however it ends: a web app
reply whose reader left keeps going (a reload shows it) and keeps its slots until it is stored,
so connections dropped one after another cannot pile up runs. One more is refused at once with
429 `too_many_runs` and `Retry-After`, before anything is stored or sent to the runtime. State is
in memory, per console process, like the runs themselves."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from agent_builder.console.config import ConsoleConfig
from agent_builder.console.errors import ApiError
from agent_builder.console.services.conversations import Owner, Source

# Runs last seconds to minutes: a refused client is told to try again after this many seconds.
RETRY_AFTER_S = 5


@dataclass(frozen=True)
class Limit:
    key: str  # what is counted: "visitor:<owner>", "client:<address>", "user:<key>:<user>", "agent:<id>"
    most: int
    message: str  # why the next run is refused, for the people chatting


@dataclass(frozen=True)
class Ticket:
    """The slots one run holds: give it back exactly once, when the run has ended."""

    keys: tuple[str, ...]


class RunLimits:
    """The slots of the runs in progress. Used from the event loop only: taking and giving back
    never wait, so no lock is needed."""

    def __init__(self, config: ConsoleConfig) -> None:
        self._config = config
        self._held: dict[str, int] = {}

    def limits(self, agent_id: str, source: Source, owner: Owner, client: str | None) -> list[Limit]:
        """What a run of this agent, for this owner (and, in the web app, this client address),
        is counted against."""
        config = self._config
        if source == "preview":
            return []
        each = config.max_runs_per_visitor
        if source == "web_app":
            who = [
                Limit(
                    f"visitor:{owner.key}",
                    each,
                    f"Too many replies at once: you already have {each} in progress. "
                    "Wait for one to finish, then send your message again.",
                ),
                Limit(
                    f"client:{client}",
                    config.max_runs_per_client,
                    f"Too many replies at once from your network: {config.max_runs_per_client} are "
                    "in progress. Try again in a few seconds.",
                ),
            ]
        else:
            who = [
                Limit(
                    f"user:{owner.key}:{owner.end_user}",
                    each,
                    f"Too many replies at once: this user already has {each} in progress. "
                    "Wait for one to finish, then send again.",
                )
            ]
        most = config.max_runs_per_agent
        agent = Limit(
            f"agent:{agent_id}",
            most,
            f"Too many conversations right now: this agent is already writing {most} replies. "
            "Try again in a few seconds.",
        )
        return [*who, agent]

    def take(self, limits: Sequence[Limit]) -> Ticket:
        """A slot under each limit, or 429 `too_many_runs` (naming the first one that is full)
        and nothing taken."""
        for limit in limits:
            if self._held.get(limit.key, 0) >= limit.most:
                raise ApiError(
                    429,
                    "too_many_runs",
                    limit.message,
                    headers={"Retry-After": str(RETRY_AFTER_S)},
                    retry_after=RETRY_AFTER_S,
                )
        for limit in limits:
            self._held[limit.key] = self._held.get(limit.key, 0) + 1
        return Ticket(tuple(limit.key for limit in limits))

    def give_back(self, ticket: Ticket) -> None:
        for key in ticket.keys:
            left = self._held.get(key, 0) - 1
            if left > 0:
                self._held[key] = left
            else:
                self._held.pop(key, None)  # nothing kept for whoever has no run going
