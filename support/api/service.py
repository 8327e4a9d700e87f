"""The public service API (`/v1`), authenticated by an app API key: the contract integrators use."""

from __future__ import annotations

import httpx

from support.api.models import AppInfo, AppParameters


class ServiceApiError(RuntimeError):
    def __init__(self, path: str, status: int, code: str) -> None:
        super().__init__(f"GET {path} -> {status} {code}")
        self.status = status
        self.code = code


class ServiceApiClient:
    def __init__(self, base_url: str, api_key: str) -> None:
        self._http = httpx.Client(base_url=base_url.rstrip("/"), headers={"Authorization": f"Bearer {api_key}"},
                                  timeout=15.0)

    def _get(self, path: str) -> dict[str, object]:
        response = self._http.get(path)
        if not response.is_success:
            raise ServiceApiError(path, response.status_code, str(response.json().get("code")))
        body: dict[str, object] = response.json()
        return body

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
