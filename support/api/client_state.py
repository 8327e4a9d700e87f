"""What a scenario's clients of the public surfaces got back, kept in the World for the steps that
follow (`world.agent_builder.service_api_chat`, `.access_matrix`): the service API's chat, and
the access matrix's calls to every public route."""

from __future__ import annotations

from dataclasses import dataclass, field

from support.api.models import MessageEndEvent
from support.api.public_routes import Answer, VisitorConversation
from support.api.service import ServiceApiError, ServiceStreamEvent


@dataclass(slots=True)
class ServiceApiChatState:
    """What a chat through the service API returned, for the assertions that follow it."""

    # What a client keeps of the last answer to go on: the conversation to continue, the message
    # it named and its usage (a blocking answer's, or a stream's message_end).
    ended: MessageEndEvent | None = None
    other_agent_api_key: str | None = None  # a key of another published agent, for scoping checks
    answer: str | None = None
    refused: ServiceApiError | None = None  # the last chat's refusal: its status and error code
    stream_events: list[ServiceStreamEvent] = field(default_factory=list)
    stream_arrivals: list[float] = field(default_factory=list)  # seconds after the request, per event


@dataclass(slots=True)
class AccessMatrixState:
    """The access matrix (features/agent/access-matrix.feature): the web app address a visitor
    uses and their conversation, the API key an integrator holds, and what the route answered."""

    site_token: str | None = None
    visitor_conversation: VisitorConversation | None = None
    api_key: str | None = None
    answer: Answer | None = None
