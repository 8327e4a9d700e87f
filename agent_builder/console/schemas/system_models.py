"""The models the console itself calls, apart from any agent's: the build assistant's decision
model and the speech-to-text model of voice input."""

from __future__ import annotations

from agent_builder.console.schemas.agents import AgentModelRef
from agent_builder.console.schemas.base import RequestModel


class SystemModels(RequestModel):
    """`decision_model` must be an active chat model; `speech_to_text_model` names a provider and
    the model it transcribes with (e.g. `whisper-1`: not a chat model, so not in its model list).
    Null switches the feature off."""

    decision_model: AgentModelRef | None = None
    speech_to_text_model: AgentModelRef | None = None
