"""Skills in the runtime: each skill's name and description are offered to the model in the system
message, after the instructions (their files reach the sandbox: features/agent/runtime-skills.feature)."""

from __future__ import annotations

import httpx

from tests.fakes.upstream import FakeUpstream
from tests.runtime.run_requests import run_body, run_events

_SKILLS = [
    {"name": "house-rules", "description": "The house rules for visitors.", "files": {"SKILL.md": "---"}},
    {"name": "pdf-forms", "description": "Fills PDF forms.", "files": {"SKILL.md": "---"}},
]


def test_the_model_is_offered_each_skill_by_name_and_description(
    client: httpx.Client, fake_upstream: FakeUpstream
) -> None:
    run_events(client, run_body(fake_upstream.base_url, "Hello?", skills=_SKILLS))
    (model_call,) = fake_upstream.calls("/v1/chat")
    assert model_call.body["messages"][0] == {
        "role": "system",
        "content": "You are a careful test agent.\n\n"
        "Skills: each is a folder in your sandbox workspace, skills/<name>/ (read-only). When a request "
        "matches a skill's description, read its SKILL.md (and the files it names) with the sandbox "
        "shell before you answer.\n"
        "- house-rules: The house rules for visitors.\n"
        "- pdf-forms: Fills PDF forms.",
    }


def test_without_skills_the_system_message_is_the_instructions(
    client: httpx.Client, fake_upstream: FakeUpstream
) -> None:
    run_events(client, run_body(fake_upstream.base_url, "Hello?"))
    (model_call,) = fake_upstream.calls("/v1/chat")
    assert model_call.body["messages"][0] == {"role": "system", "content": "You are a careful test agent."}
