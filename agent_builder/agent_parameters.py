"""The bounds and defaults of an agent's model and knowledge parameters: one definition for the
console, which validates a draft with them, and the runtime, which validates a run. Not here:
any other field of either service's bodies."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

Temperature = Annotated[float, Field(ge=0, le=2)]
MaxTokens = Annotated[int, Field(ge=1, le=32000)]
TopK = Annotated[int, Field(ge=1, le=10)]  # retrieved passages per knowledge_search call
ScoreThreshold = Annotated[float, Field(ge=0, le=1)]  # retrieval scores are in [0, 1]
# `agent_decided`: the model calls knowledge_search when it wants to; `every_message`: the runtime
# retrieves with the user's question before the model is called, and the model gets the passages.
RetrievalMode = Literal["agent_decided", "every_message"]

DEFAULT_TEMPERATURE = 0.7
DEFAULT_MAX_TOKENS = 1024
DEFAULT_TOP_K = 3
DEFAULT_RETRIEVAL_MODE: RetrievalMode = "agent_decided"
