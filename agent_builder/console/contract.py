"""Making the console answer what /openapi.json says, and say what the console enforces.

- A 405 lists in `Allow` every method of the resource (Starlette names only the first route
  that matched the path, e.g. `GET` for a path that also takes `POST`).
- Every operation with a request body documents the 400 (unparsable body) and 413 (body over the
  size limit) that any such request can get.
- Uploads say which file names (extensions) and sizes the console takes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI, Request
from fastapi.routing import iter_route_contexts
from starlette.routing import compile_path

from agent_builder.console.schemas.errors import ErrorResponse

_BODY_ERRORS = {
    "400": "The body cannot be parsed (not JSON, not UTF-8, or a broken multipart body)",
    "413": "The body is larger than the limit (1 MiB for JSON; uploads: the file size limit)",
}
_UNSAFE = ("post", "put", "patch", "delete")
_CROSS_ORIGIN = "Refused `cross_origin_request`: a change sent with a cookie from another origin"


def allowed_methods(request: Request) -> str:
    """The methods of every route whose path matches the request's, for `Allow`."""
    methods: set[str] = set()
    for route in iter_route_contexts(request.app.routes):  # included routers' routes too
        if route.path and route.methods:
            pattern, _, _ = compile_path(route.path)  # `path` keeps convertors such as {name:env_var}
            if pattern.match(request.scope["path"]):
                methods |= route.methods
    return ", ".join(sorted(methods))


def install(app: FastAPI, uploads: Mapping[str, Upload]) -> None:
    """Complete the app's /openapi.json with the body errors and the upload rules."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = generate()
            document_common_errors(schema)
            describe_uploads(schema, uploads)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented way to extend /openapi.json


def document_common_errors(schema: dict[str, Any]) -> None:
    """Add the 400 and 413 answers to every operation that takes a body, and the origin check's
    403 to every state-changing one (in place)."""
    content = {"application/json": {"schema": {"$ref": f"#/components/schemas/{ErrorResponse.__name__}"}}}
    for path_item in schema.get("paths", {}).values():
        for method, operation in path_item.items():
            if not isinstance(operation, dict):
                continue
            responses = operation.setdefault("responses", {})
            answers = {**(_BODY_ERRORS if "requestBody" in operation else {})}
            if method in _UNSAFE:
                answers["403"] = _CROSS_ORIGIN
            for status, description in answers.items():
                responses.setdefault(status, {"description": description, "content": content})


@dataclass(frozen=True)
class Upload:
    """What an upload operation takes in its `file` part."""

    extensions: Sequence[str]  # `.txt`, ...: the file name must end in one of them (any case)
    limit_bytes: int
    example_name: str
    content: str  # what else the bytes must be, in words


def describe_uploads(schema: dict[str, Any], uploads: Mapping[str, Upload]) -> None:
    """Document, per upload operation id, the file part's name rule and size limit (in place)."""
    for path_item in schema.get("paths", {}).values():
        for operation in path_item.values():
            upload = uploads.get(operation.get("operationId", "")) if isinstance(operation, dict) else None
            if upload is None:
                continue
            media = operation["requestBody"]["content"]["multipart/form-data"]
            names = " or ".join(upload.extensions)
            alternatives = "|".join(_any_case(extension.lstrip(".")) for extension in upload.extensions)
            media["encoding"] = {
                "file": {
                    "headers": {
                        "Content-Disposition": {
                            "description": f"The file name must end in {names} (any case); else 415.",
                            "schema": {"type": "string", "pattern": rf'filename="[^"]*\.(?:{alternatives})"'},
                            "example": f'form-data; name="file"; filename="{upload.example_name}"',
                        }
                    }
                }
            }
            file_schema = _file_property(schema, media)
            file_schema["minLength"] = 1
            file_schema["description"] = (
                f"A {names} file of 1 to {upload.limit_bytes} bytes (larger: 413, empty: 400); {upload.content}"
            )


def _any_case(text: str) -> str:
    """`md` → `[Mm][Dd]` (JSON Schema patterns have no case-insensitive flag)."""
    return "".join(f"[{char.upper()}{char.lower()}]" if char.isalpha() else re.escape(char) for char in text)


def _file_property(schema: dict[str, Any], media: dict[str, Any]) -> dict[str, Any]:
    name = media["schema"]["$ref"].rsplit("/", 1)[-1]
    file_schema: dict[str, Any] = schema["components"]["schemas"][name]["properties"]["file"]
    return file_schema
