"""How the API a console serves differs from the contract the suite's models were generated from
(support/api/openapi.json, written by `make contracts`), and likewise the agent runtime's and
shellctl's APIs (runtime.openapi.json, shellctl.openapi.json beside it), which the console calls.

Compared operation by operation, each with its schemas inlined, so a difference is named where a
client meets it (`PATCH /console/api/agents/{agent_id} requestBody...maxItems`), whatever the
components are called. The test seeding router (`/__test__`) is left out: a lane serves it only
when it seeds through it, and no client of the product calls it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx

from support.settings.network import tls

CONTRACT_PATH = Path(__file__).parent / "openapi.json"
# The APIs the console is a client of: a runtime or shellctl deployed apart from the console must
# serve what the console calls.
RUNTIME_CONTRACT_PATH = Path(__file__).parent / "runtime.openapi.json"
SHELLCTL_CONTRACT_PATH = Path(__file__).parent / "shellctl.openapi.json"
_TEST_ROUTER_PREFIX = "/__test__"
_METHODS = ("get", "post", "put", "patch", "delete")
_SHOWN_PER_OPERATION = 3
_TIMEOUT_S = 15.0


def served_schema(url: str, token: str | None = None) -> dict[str, Any]:
    """The /openapi.json a running service serves (shellctl's only with its token)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = httpx.get(f"{url.rstrip('/')}/openapi.json", headers=headers, timeout=_TIMEOUT_S, verify=tls())
    response.raise_for_status()
    schema: dict[str, Any] = response.json()
    return schema


def committed_contract(path: Path = CONTRACT_PATH) -> dict[str, Any]:
    contract: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return contract


def contract_differences(contract: dict[str, Any], served: dict[str, Any]) -> list[str]:
    """One line per difference: an operation only one side has, or a field of an operation (its
    parameters, body, answers, security) that differs, with both values."""
    expected, got = _operations(contract), _operations(served)
    lines = [f"{route}: in the contract, not served" for route in expected.keys() - got.keys()]
    lines += [f"{route}: served, not in the contract" for route in got.keys() - expected.keys()]
    for route in sorted(expected.keys() & got.keys()):
        found = _differences(expected[route], got[route], "")
        lines += [f"{route} {where}" for where in found[:_SHOWN_PER_OPERATION]]
        if len(found) > _SHOWN_PER_OPERATION:
            lines.append(f"{route}: and {len(found) - _SHOWN_PER_OPERATION} more differences")
    if contract["components"].get("securitySchemes") != served["components"].get("securitySchemes"):
        lines.append("components.securitySchemes differ")
    return sorted(lines)


def _operations(schema: dict[str, Any]) -> dict[str, Any]:
    schemas = schema["components"]["schemas"]
    return {
        f"{method.upper()} {path}": _inlined(operation, schemas, ())
        for path, item in schema["paths"].items()
        if not path.startswith(_TEST_ROUTER_PREFIX)
        for method, operation in item.items()
        if method in _METHODS
    }


def _inlined(value: Any, schemas: dict[str, Any], resolving: tuple[str, ...]) -> Any:
    """`value` with each `$ref` to a component replaced by the component (a recursive one stays a
    reference by name)."""
    if isinstance(value, list):
        return [_inlined(item, schemas, resolving) for item in value]
    if not isinstance(value, dict):
        return value
    ref = value.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
        name = ref.rsplit("/", 1)[1]
        if name in resolving or name not in schemas:
            return {"$ref": name}
        return _inlined(schemas[name], schemas, (*resolving, name))
    return {key: _inlined(item, schemas, resolving) for key, item in value.items()}


def _differences(expected: Any, got: Any, where: str) -> list[str]:
    if isinstance(expected, dict) and isinstance(got, dict):
        return [
            line
            for key in sorted(expected.keys() | got.keys(), key=str)
            for line in _differences(expected.get(key), got.get(key), f"{where}.{key}")
        ]
    if isinstance(expected, list) and isinstance(got, list) and len(expected) == len(got):
        return [
            line
            for index, (one, other) in enumerate(zip(expected, got, strict=True))
            for line in _differences(one, other, f"{where}[{index}]")
        ]
    if expected == got:
        return []
    return [f"{where.lstrip('.')}: contract {_short(expected)}, served {_short(got)}"]


def _short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= 120 else text[:117] + "..."
