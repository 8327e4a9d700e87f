"""Contract-wide guarantees: JSON errors everywhere, 401 before anything for signed-out callers,
no client input reaching a 500, and an OpenAPI document a client generator can use."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from api_shortcuts import assert_error, sign_in
from fastapi.testclient import TestClient


@pytest.fixture
def seeded_client(make_client: Any) -> TestClient:
    """Signed in, with the test seed router mounted so its routes are walked too."""
    client = make_client(enable_test_seed=True)
    sign_in(client)
    return client


def _operations(client: TestClient) -> list[tuple[str, str, dict[str, Any]]]:
    spec = client.get("/openapi.json").json()
    return [(method.upper(), path, op) for path, ops in spec["paths"].items() for method, op in ops.items()]


def _fill(path: str) -> str:
    """A concrete path: each parameter spelled as itself, except where the route takes only a
    given form (a variable name is capitals)."""
    path = path.replace("{site_token}", "no-such-token").replace("{name}", "API_TOKEN")
    return path.replace("{", "").replace("}", "")


def test_every_operation_refuses_signed_out_callers(seeded_client: TestClient) -> None:
    anon = TestClient(seeded_client.app)
    operations = _operations(seeded_client)
    assert len(operations) >= 40
    for method, path, _ in operations:
        response = anon.request(method, _fill(path))
        if path == "/console/api/login":
            assert_error(response, 422, "invalid_request")
        elif path.startswith(("/console/api/", "/__test__/")):
            assert_error(response, 401, "unauthorized")
        elif path.startswith("/v1/"):
            assert_error(response, 401, "invalid_api_key")
        elif path.startswith("/chat/"):
            assert response.status_code in (404, 422), (method, path, response.text)
            assert response.json()["code"] in ("not_found", "invalid_request")
        else:
            assert path == "/healthz" and response.json() == {"status": "ok"}


MALFORMED_BODIES: list[tuple[bytes, str]] = [
    (b"", "application/json"),
    (b"{", "application/json"),
    (b"null", "application/json"),
    (b"[]", "application/json"),
    (b'"text"', "application/json"),
    (b"[" * 5000 + b"]" * 5000, "application/json"),
    (b'{"name": NaN, "query": Infinity, "revision": 1e999}', "application/json"),
    (b'{"name": "\\ud800", "query": "\\udfff", "email": "\\ud800", "password": "x"}', "application/json"),
    (b'{"revision": 99999999999999999999999999, "config": {}}', "application/json"),
    (
        b'{"name": {"$gt": ""}, "active": "maybe", "enabled": [], "config": "x", "messages": 5}',
        "application/json",
    ),
    ('{"name": "\u00e9\u4e2d\U0001f600"}'.encode("latin-1", "replace"), "application/json"),
    (b"\xff\xfe\x00garbage", "application/json"),
    (b"name=x", "application/x-www-form-urlencoded"),
    (b"plain text", "text/plain"),
    (
        b'--b\r\nContent-Disposition: form-data; name="file"\r\n\r\nx\r\n--b--\r\n',
        "multipart/form-data; boundary=b",
    ),
    (
        b'--b\r\nContent-Disposition: form-data; name="file"; filename="\xff\xfe.txt"\r\n\r\nx\r\n--b--\r\n',
        "multipart/form-data; boundary=b",
    ),
]


def test_malformed_bodies_get_4xx_json_never_5xx(seeded_client: TestClient) -> None:
    # TestClient re-raises server errors, so any input reaching a 500 fails loudly here.
    for method, path, op in _operations(seeded_client):
        if "requestBody" not in op:
            continue
        for body, content_type in MALFORMED_BODIES:
            response = seeded_client.request(
                method, _fill(path), content=body, headers={"Content-Type": content_type}
            )
            assert 400 <= response.status_code < 500, (method, path, body[:60], response.text)
            error = response.json()
            assert error["code"] and error["message"], (method, path, error)


ODD_SEGMENTS = ["%00", "x" * 5000, "%F0%9F%98%80", "..%2F..%2Fetc", "%ED%A0%80", "'; DROP TABLE agents;--"]


def test_odd_path_parameters_are_4xx_not_5xx(seeded_client: TestClient) -> None:
    for method, path, _ in _operations(seeded_client):
        for segment in ODD_SEGMENTS if "{" in path else ():
            url = re.sub(r"\{[a-z_]+\}", segment, path)
            response = seeded_client.request(method, url, json={})
            assert 400 <= response.status_code < 500, (method, url[:100], response.text)
            assert response.json()["code"]


def test_query_strings_are_validated(client: TestClient) -> None:
    for url in (
        "/console/api/agents?limit=1e9",
        "/console/api/agents?offset=%00",
        "/console/api/models?active=perhaps",
        "/console/api/datasets?search=" + "x" * 300,
    ):
        assert_error(client.get(url), 422, "invalid_request")


def test_validation_errors_name_the_field(client: TestClient) -> None:
    body = assert_error(
        client.post("/console/api/agents", json={"name": "x" * 81, "extra": 1}), 422, "invalid_request"
    )
    assert body["errors"] == [
        {"field": "name", "message": "String should have at most 80 characters"},
        {"field": "extra", "message": "Extra inputs are not permitted"},
    ]
    assert body["message"] == "name: String should have at most 80 characters (and 1 more)"
    invalid_json = client.post(
        "/console/api/agents", content=b"{oops", headers={"Content-Type": "application/json"}
    )
    body = assert_error(invalid_json, 422, "invalid_request")
    assert body["errors"][0] == {
        "field": "body",
        "message": "Request body is not valid JSON (Expecting property name enclosed in double quotes at character 2).",
    }


def test_unknown_routes(client: TestClient) -> None:
    for path in ("/console/api/nope", "/v1/nope", "/__test__/nope", "/chat/token/api/nope"):
        body = assert_error(client.get(path), 404, "not_found")
        assert body["message"] == "No such route."
    assert_error(client.delete("/console/api/tools"), 405, "method_not_allowed")
    page = client.get("/definitely/not/a/page")
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")


def test_oversized_json_bodies_are_413_json(client: TestClient) -> None:
    oversized = b'{"name": "' + b"a" * (2 << 20) + b'"}'
    declared = client.post(
        "/console/api/agents", content=oversized, headers={"Content-Type": "application/json"}
    )
    assert_error(declared, 413, "payload_too_large")

    def chunks() -> Iterator[bytes]:  # no Content-Length: the limit is counted while reading
        yield oversized

    streamed = client.post(
        "/console/api/agents", content=chunks(), headers={"Content-Type": "application/json"}
    )
    assert "content-length" not in streamed.request.headers
    assert_error(streamed, 413, "payload_too_large")
    assert client.get("/console/api/agents").json()["total"] == 0


def test_healthz_and_static_files(anon: TestClient) -> None:
    assert anon.get("/healthz").json() == {"status": "ok"}
    assert anon.get("/static/api.js").status_code == 200


def test_openapi_uses_named_schemas_everywhere(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    schemas = spec["components"]["schemas"]
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            assert op["operationId"].isidentifier(), (method, path)
            for media in op.get("requestBody", {}).get("content", {}).values():
                assert "$ref" in media["schema"], (method, path)
            for status, response in op["responses"].items():
                for media in response.get("content", {}).values():
                    assert "$ref" in media["schema"], (method, path, status, media)
    for name in (
        "AgentDetail",
        "AgentConfig",
        "Provider",
        "ErrorResponse",
        "ValidationErrorResponse",
        "RevisionConflictResponse",
        "DraftInvalidResponse",
        "RetrieveResponse",
        "ApiKeyCreated",
    ):
        assert name in schemas
    assert "HTTPValidationError" not in schemas  # our 422 body replaces FastAPI's
    security = spec["components"]["securitySchemes"]
    assert {"SessionCookie", "SessionBearer", "AppApiKey"} <= set(security)


def test_openapi_feeds_datamodel_code_generator(client: TestClient, tmp_path: Path) -> None:
    spec = tmp_path / "openapi.json"
    spec.write_text(json.dumps(client.get("/openapi.json").json()))
    output = tmp_path / "models.py"
    codegen = Path(sys.executable).with_name("datamodel-codegen")
    result = subprocess.run(
        [
            str(codegen),
            "--input",
            str(spec),
            "--input-file-type",
            "openapi",
            "--output",
            str(output),
            "--output-model-type",
            "pydantic_v2.BaseModel",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    generated = output.read_text()
    for name in ("class AgentDetail(", "class AgentConfig(", "class Provider(", "class ApiKeyCreated("):
        assert name in generated


def test_every_upload_documents_its_file_name_rule_in_any_case(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    uploads = {
        op["operationId"]: op
        for ops in spec["paths"].values()
        for op in ops.values()
        if "multipart/form-data" in op.get("requestBody", {}).get("content", {})
    }
    examples = {
        "upload_document": "NOTES.MD",
        "upload_agent_file": "Data.CSV",
        "transcribe_audio": "clip.WAV",
        "transcribe_web_app_audio": "clip.Wav",
    }
    assert examples.keys() <= uploads.keys()
    for operation_id, name in examples.items():
        media = uploads[operation_id]["requestBody"]["content"]["multipart/form-data"]
        rule = media["encoding"]["file"]["headers"]["Content-Disposition"]["schema"]["pattern"]
        assert re.search(rule, f'form-data; name="file"; filename="{name}"'), (operation_id, rule)
        assert not re.search(rule, 'form-data; name="file"; filename="notes.exe"'), (operation_id, rule)
