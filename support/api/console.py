"""The console JSON API for setup and contract checks, typed by the generated models.

Scenarios use this to prepare scenario-owned state and to read the agent detail (the single
owner of agent state); the action under test and the final assertion stay in the browser.
Every response is validated against the generated model, so a contract drift fails loudly here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar
from urllib.parse import urlsplit

import httpx
from pydantic import BaseModel

from support.api.models import (
    Access,
    AccessUpdate,
    AgentConfig,
    AgentDetail,
    AgentFile,
    AgentFileList,
    AgentList,
    ApiKeyCreated,
    ApiKeyList,
    ChatMessageList,
    Dataset,
    DatasetList,
    Document,
    DocumentList,
    Draft,
    DraftUpdate,
    EnvVar,
    EnvVarCreate,
    EnvVarList,
    Model,
    PendingProposal,
    Provider,
    ProviderList,
    PublishedVersionList,
    PublishRequest,
    PublishResult,
    RetrieveResponse,
    SegmentList,
    SkillList,
    SystemModels,
    ToolCredential,
    ToolCredentialList,
    ToolList,
    Transcription,
    VersionRestore,
    WebAppSettings,
)
from support.settings.network import tls

SESSION_COOKIE = "ab_session"
ModelT = TypeVar("ModelT", bound=BaseModel)


class ConsoleApiError(RuntimeError):
    def __init__(self, method: str, path: str, status: int, code: str, message: str) -> None:
        super().__init__(f"{method} {path} -> {status} {code}: {message}")
        self.status = status
        self.code = code


def _raise_for_error(response: httpx.Response) -> None:
    if response.is_success:
        return
    try:
        body = response.json()
        code, message = str(body.get("code")), str(body.get("message"))
    except ValueError:
        code, message = "non_json_error", response.text[:200]
    raise ConsoleApiError(
        response.request.method, response.request.url.path, response.status_code, code, message
    )


def sign_in(base_url: str, email: str, password: str) -> str:
    """One API login; the returned token is both the bearer token and the browser's session cookie."""
    response = httpx.post(
        f"{base_url.rstrip('/')}/console/api/login", json={"email": email, "password": password}, verify=tls()
    )
    _raise_for_error(response)
    token: str = response.json()["access_token"]
    return token


def session_of(cookies: Sequence[Mapping[str, Any]]) -> str | None:
    """The console session token among a browser's cookies, if it holds one."""
    return next((str(cookie["value"]) for cookie in cookies if cookie.get("name") == SESSION_COOKIE), None)


def status_of(base_url: str, method: str, path: str, token: str | None = None) -> int:
    """The status the console answers a bare request with: no session, or `token` as its bearer."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = httpx.request(
        method, f"{base_url.rstrip('/')}{path}", headers=headers, timeout=15.0, verify=tls()
    )
    return response.status_code


class ConsoleClient:
    def __init__(self, base_url: str, token: str) -> None:
        self.base_url = base_url.rstrip("/")
        self._token = token
        self._http = httpx.Client(
            base_url=self.base_url + "/console/api",
            headers={"Authorization": f"Bearer {token}"},
            timeout=15.0,
            verify=tls(),
        )

    @property
    def token(self) -> str:
        """The session's bearer token, for the console's other clients (the test seeding router)."""
        return self._token

    def storage_state(self) -> dict[str, Any]:
        """Playwright storage state holding the signed-in session cookie."""
        host = urlsplit(self.base_url).hostname or "127.0.0.1"
        cookie = {
            "name": SESSION_COOKIE,
            "value": self._token,
            "domain": host,
            "path": "/",
            "expires": -1,
            "httpOnly": True,
            "secure": False,
            "sameSite": "Lax",
        }
        return {"cookies": [cookie], "origins": []}

    def sign_out(self) -> None:
        """Revoke the session: a token that leaked into any artifact is dead once the run ends."""
        _raise_for_error(self._http.post("/logout"))

    def _call(self, method: str, path: str, model: type[ModelT], **kwargs: Any) -> ModelT:
        response = self._http.request(method, path, **kwargs)
        _raise_for_error(response)
        return model.model_validate(response.json())

    def _delete(self, path: str) -> None:
        _raise_for_error(self._http.delete(path))

    # agents
    def create_agent(self, name: str, description: str = "") -> AgentDetail:
        return self._call("POST", "/agents", AgentDetail, json={"name": name, "description": description})

    def get_agent(self, agent_id: str) -> AgentDetail:
        return self._call("GET", f"/agents/{agent_id}", AgentDetail)

    def list_agents(self, search: str = "") -> AgentList:
        return self._call("GET", "/agents", AgentList, params={"search": search, "limit": 100})

    def all_agent_names(self) -> list[str]:
        """Every agent's name, page by page (a page holds at most 100)."""
        names: list[str] = []
        while True:
            page = self._call("GET", "/agents", AgentList, params={"limit": 100, "offset": len(names)})
            names += [agent.name for agent in page.data]
            if not page.data or len(names) >= page.total:
                return names

    def delete_agent(self, agent_id: str) -> None:
        self._delete(f"/agents/{agent_id}")

    def save_draft(self, agent_id: str, config: AgentConfig) -> AgentDetail:
        """Save on top of the current revision, as a second browser tab would."""
        revision = self.get_agent(agent_id).draft.revision
        body = DraftUpdate(revision=revision, config=config).model_dump(mode="json")
        _raise_for_error(self._http.put(f"/agents/{agent_id}/draft", json=body))
        return self.get_agent(agent_id)

    def save_web_app_settings(self, agent_id: str, settings: WebAppSettings) -> Draft:
        """The draft's web app settings, as the access point's settings dialog saves them."""
        body = settings.model_dump(mode="json")
        return self._call("PUT", f"/agents/{agent_id}/draft/web-app", Draft, json=body)

    def publish_agent(self, agent_id: str, note: str = "") -> PublishResult:
        body = PublishRequest(note=note).model_dump()
        return self._call("POST", f"/agents/{agent_id}/publish", PublishResult, json=body)

    def list_versions(self, agent_id: str) -> PublishedVersionList:
        return self._call("GET", f"/agents/{agent_id}/versions", PublishedVersionList)

    def restore_version(self, agent_id: str, version: int) -> Draft:
        body = VersionRestore(revision=self.get_agent(agent_id).draft.revision).model_dump()
        return self._call("POST", f"/agents/{agent_id}/versions/{version}/restore", Draft, json=body)

    def create_env_var(self, agent_id: str, name: str, value: str, secret: bool) -> EnvVar:
        body = EnvVarCreate(name=name, value=value, secret=secret).model_dump()
        return self._call("POST", f"/agents/{agent_id}/env-vars", EnvVar, json=body)

    def list_env_vars(self, agent_id: str) -> EnvVarList:
        return self._call("GET", f"/agents/{agent_id}/env-vars", EnvVarList)

    def set_access(
        self, agent_id: str, *, web_app_enabled: bool | None = None, service_api_enabled: bool | None = None
    ) -> Access:
        body = AccessUpdate(web_app_enabled=web_app_enabled, service_api_enabled=service_api_enabled)
        return self._call(
            "PATCH", f"/agents/{agent_id}/access", Access, json=body.model_dump(exclude_none=True)
        )

    def create_api_key(self, agent_id: str) -> ApiKeyCreated:
        return self._call("POST", f"/agents/{agent_id}/api-keys", ApiKeyCreated, json={})

    def list_api_keys(self, agent_id: str) -> ApiKeyList:
        return self._call("GET", f"/agents/{agent_id}/api-keys", ApiKeyList)

    def revoke_api_key(self, agent_id: str, key_id: str) -> None:
        self._delete(f"/agents/{agent_id}/api-keys/{key_id}")

    def upload_agent_file(self, agent_id: str, name: str, content: bytes) -> AgentFile:
        return self._call("POST", f"/agents/{agent_id}/files", AgentFile, files={"file": (name, content)})

    def list_agent_files(self, agent_id: str) -> AgentFileList:
        return self._call("GET", f"/agents/{agent_id}/files", AgentFileList)

    def delete_agent_file(self, agent_id: str, file_id: str) -> None:
        self._delete(f"/agents/{agent_id}/files/{file_id}")

    def add_skill(self, agent_id: str, files: list[tuple[str, bytes]]) -> Draft:
        parts = [("files", (path, content)) for path, content in files]
        return self._call("POST", f"/agents/{agent_id}/skills", Draft, files=parts)

    def list_skills(self, agent_id: str) -> SkillList:
        return self._call("GET", f"/agents/{agent_id}/skills", SkillList)

    def remove_skill(self, agent_id: str, name: str) -> Draft:
        return self._call("DELETE", f"/agents/{agent_id}/skills/{name}", Draft)

    # knowledge
    def create_dataset(self, name: str, description: str = "") -> Dataset:
        return self._call("POST", "/datasets", Dataset, json={"name": name, "description": description})

    def get_dataset(self, dataset_id: str) -> Dataset:
        return self._call("GET", f"/datasets/{dataset_id}", Dataset)

    def list_datasets(self, search: str = "") -> DatasetList:
        return self._call("GET", "/datasets", DatasetList, params={"search": search})

    def delete_dataset(self, dataset_id: str) -> None:
        self._delete(f"/datasets/{dataset_id}")

    def upload_document(self, dataset_id: str, name: str, content: bytes) -> Document:
        return self._call(
            "POST", f"/datasets/{dataset_id}/documents", Document, files={"file": (name, content)}
        )

    def list_documents(self, dataset_id: str) -> DocumentList:
        return self._call("GET", f"/datasets/{dataset_id}/documents", DocumentList)

    def delete_document(self, dataset_id: str, document_id: str) -> None:
        self._delete(f"/datasets/{dataset_id}/documents/{document_id}")

    def get_document(self, dataset_id: str, document_id: str) -> Document:
        return self._call("GET", f"/datasets/{dataset_id}/documents/{document_id}", Document)

    def list_segments(self, dataset_id: str, document_id: str) -> SegmentList:
        return self._call("GET", f"/datasets/{dataset_id}/documents/{document_id}/segments", SegmentList)

    def retrieve(self, dataset_id: str, query: str, top_k: int = 3) -> RetrieveResponse:
        return self._call(
            "POST",
            f"/datasets/{dataset_id}/retrieve",
            RetrieveResponse,
            json={"query": query, "top_k": top_k},
        )

    # model providers and tools
    def create_provider(self, name: str, base_url: str, api_key: str) -> Provider:
        return self._call(
            "POST",
            "/model-providers",
            Provider,
            json={"name": name, "base_url": base_url, "api_key": api_key},
        )

    def list_providers(self) -> ProviderList:
        return self._call("GET", "/model-providers", ProviderList)

    def update_provider(self, provider_id: str, base_url: str, api_key: str) -> Provider:
        """Changes the endpoint and key; the console revalidates with a real call."""
        return self._call(
            "PATCH",
            f"/model-providers/{provider_id}",
            Provider,
            json={"base_url": base_url, "api_key": api_key},
        )

    def validate_provider(self, provider_id: str) -> Provider:
        return self._call("POST", f"/model-providers/{provider_id}/validate", Provider)

    def set_model_active(self, provider_id: str, model_id: str, active: bool) -> Model:
        return self._call(
            "PATCH", f"/model-providers/{provider_id}/models/{model_id}", Model, json={"active": active}
        )

    def delete_provider(self, provider_id: str) -> None:
        self._delete(f"/model-providers/{provider_id}")

    def list_tools(self) -> ToolList:
        return self._call("GET", "/tools", ToolList)

    def create_tool_credential(
        self, tool: str, name: str, secret: str, base_url: str | None
    ) -> ToolCredential:
        return self._call(
            "POST",
            "/tool-credentials",
            ToolCredential,
            json={"tool": tool, "name": name, "secret": secret, "base_url": base_url},
        )

    def list_tool_credentials(self) -> ToolCredentialList:
        return self._call("GET", "/tool-credentials", ToolCredentialList)

    def delete_tool_credential(self, credential_id: str) -> None:
        self._delete(f"/tool-credentials/{credential_id}")

    def check_tool_credential(self, credential_id: str) -> ToolCredential:
        return self._call("POST", f"/tool-credentials/{credential_id}/check", ToolCredential)

    # the console's own models: the build assistant's decision model, voice input's speech to text
    def get_system_models(self) -> SystemModels:
        return self._call("GET", "/system-models", SystemModels)

    def set_system_models(self, models: SystemModels) -> SystemModels:
        return self._call("PUT", "/system-models", SystemModels, json=models.model_dump(mode="json"))

    def transcribe(self, name: str, audio: bytes, media_type: str) -> Transcription:
        return self._call(
            "POST", "/audio/transcriptions", Transcription, files={"file": (name, audio, media_type)}
        )

    def preview_messages(self, agent_id: str, conversation_id: str) -> ChatMessageList:
        path = f"/agents/{agent_id}/preview/conversations/{conversation_id}/messages"
        return self._call("GET", path, ChatMessageList)

    def get_pending_proposal(self, agent_id: str) -> PendingProposal:
        return self._call("GET", f"/agents/{agent_id}/build-assistant/proposal", PendingProposal)
