"""The public service API (`/v1`), authenticated by an app API key: the contract integrators use."""

from __future__ import annotations

import time
from typing import Any

import httpx
from httpx_sse import ServerSentEvent, connect_sse

from support.api.models import (
    AppInfo,
    AppParameters,
    ChatMessageList,
    ChatMessageRequest,
    ChatMessageResponse,
    ServiceApiStreamEvent,
)
from support.settings.network import tls

ServiceStreamEvent = ServiceApiStreamEvent
# The service API's `user`: a conversation belongs to the API key and user that started it.
END_USER = "e2e"
# A chat run waits on the model and tools; generous, but bounded so a hang fails the scenario.
CHAT_TIMEOUT_S = 60.0


class ServiceApiError(RuntimeError):
    def __init__(self, path: str, status: int, code: str) -> None:
        super().__init__(f"{path} -> {status} {code}")
        self.status = status
        self.code = code


def _raise_for_error(response: httpx.Response) -> None:
    if response.is_success:
        return
    response.read()
    try:
        code = str(response.json().get("code"))
    except ValueError:
        code = "non_json_error"
    raise ServiceApiError(response.request.url.path, response.status_code, code)


class ServiceApiClient:
    def __init__(self, base_url: str, api_key: str) -> None:
        self._http = httpx.Client(
            base_url=base_url.rstrip("/"),
            headers={"Authorization": f"Bearer {api_key}"},
            timeout=15.0,
            verify=tls(),
        )

    def _get(self, path: str) -> Any:
        response = self._http.get(path)
        _raise_for_error(response)
        return response.json()

    def info(self) -> AppInfo:
        return AppInfo.model_validate(self._get("/info"))

    def parameters(self) -> AppParameters:
        return AppParameters.model_validate(self._get("/parameters"))

    def info_status(self) -> int:
        """The status `/info` answers with, for scenarios about refusals."""
        try:
            self._get("/info")
        except ServiceApiError as error:
            return error.status
        return 200

    def chat_blocking(self, query: str, conversation_id: str | None = None) -> ChatMessageResponse:
        body = ChatMessageRequest(
            query=query, response_mode="blocking", conversation_id=conversation_id, user=END_USER
        )
        response = self._http.post(
            "/chat-messages", json=body.model_dump(exclude_none=True), timeout=CHAT_TIMEOUT_S
        )
        _raise_for_error(response)
        return ChatMessageResponse.model_validate(response.json())

    def chat_streaming(self, query: str, conversation_id: str | None = None) -> list[ServiceStreamEvent]:
        return [event for event, _ in self.chat_streaming_timed(query, conversation_id)]

    def chat_streaming_timed(
        self, query: str, conversation_id: str | None = None
    ) -> list[tuple[ServiceStreamEvent, float]]:
        """Each event with the second it arrived at, counted from the request (a monotonic clock)."""
        started = time.monotonic()
        body = ChatMessageRequest(
            query=query, response_mode="streaming", conversation_id=conversation_id, user=END_USER
        )
        with connect_sse(
            self._http,
            "POST",
            "/chat-messages",
            json=body.model_dump(exclude_none=True),
            timeout=CHAT_TIMEOUT_S,
        ) as events:
            _raise_for_error(events.response)
            return [(_event(event), time.monotonic() - started) for event in events.iter_sse()]

    def conversation_status(self, conversation_id: str, user: str = END_USER) -> int:
        """The status a request for that conversation's messages (as `user`) is answered with."""
        try:
            self.conversation_messages(conversation_id, user)
        except ServiceApiError as error:
            return error.status
        return 200

    def conversation_messages(self, conversation_id: str, user: str = END_USER) -> ChatMessageList:
        """A conversation of this key and `user` (END_USER unless told): only they may read it."""
        response = self._http.get(f"/conversations/{conversation_id}/messages", params={"user": user})
        _raise_for_error(response)
        return ChatMessageList.model_validate(response.json())


def _event(event: ServerSentEvent) -> ServiceStreamEvent:
    return ServiceStreamEvent.model_validate({"event": event.event, "data": event.json()})
