"""State only the test seeding router can create: a published agent without a model provider,
and backdated conversations. Both belong to the scenario's agent and go with it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from support.api.seeding_router import SeededConversation, SeedingRouterClient
from support.api_setup.agents import current_agent, remember_agent, saved_agent
from support.world import World

# Far enough in the past that a backdated message can never be mistaken for one sent now.
SEEDED_DAY = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)


def _client(world: World) -> SeedingRouterClient:
    client = SeedingRouterClient(world.console_url, world.console.token)
    world.register_cleanup(client.close, "test seeding client")
    return client


def publish_without_model(world: World, note: str = "") -> None:
    """The agent's draft published as it is: a web app for lanes that have no model provider."""
    _client(world).publish(current_agent(world).id, note)
    remember_agent(world, saved_agent(world), "agent")


def seed_exchanges_out_of_order(world: World, questions: list[str]) -> SeededConversation:
    """A web app conversation of one exchange per question, the n-th a day after the one before,
    handed to the router out of order (the first one last), by a new visitor."""
    days = list(enumerate(questions))
    messages: list[dict[str, str]] = []
    for day, question in days[1:] + days[:1]:
        when = (SEEDED_DAY + timedelta(days=day)).isoformat()
        messages += [
            {"role": "user", "content": question, "created_at": when},
            {"role": "assistant", "content": f"Answer to: {question}", "created_at": when},
        ]
    return _client(world).conversation(current_agent(world).id, SEEDED_DAY, messages)
