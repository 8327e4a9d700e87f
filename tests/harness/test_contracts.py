"""The committed contracts must match what the services' /openapi.json serve today: the console's
(and the suite's models generated from it), the agent runtime's and shellctl's."""

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from support.api.contract import (
    CONTRACT_PATH,
    RUNTIME_CONTRACT_PATH,
    SHELLCTL_CONTRACT_PATH,
    committed_contract,
    contract_differences,
)
from support.api.generate import (
    MODELS_PATH,
    fetch_runtime_schema,
    fetch_schema,
    fetch_shellctl_schema,
    render_models,
    render_schema,
)


def test_committed_models_match_the_live_schema() -> None:
    schema = fetch_schema()
    assert CONTRACT_PATH.read_text(encoding="utf-8") == render_schema(schema), (
        "support/api/openapi.json is stale: the console's schema changed. Run `make contracts`."
    )
    assert MODELS_PATH.read_text(encoding="utf-8") == render_models(schema), (
        "support/api/models.py is stale. Run `make contracts` and commit the result."
    )


@pytest.mark.parametrize(
    ("path", "fetch"),
    [(RUNTIME_CONTRACT_PATH, fetch_runtime_schema), (SHELLCTL_CONTRACT_PATH, fetch_shellctl_schema)],
    ids=["runtime", "shellctl"],
)
def test_the_services_the_console_calls_serve_their_committed_contract(
    path: Path, fetch: Callable[[], dict[str, Any]]
) -> None:
    served = fetch()
    differences = contract_differences(committed_contract(path), served)
    assert not differences, f"{path.name} is stale; run `make contracts` if this is intended:\n" + "\n".join(
        differences
    )
    assert path.read_text(encoding="utf-8") == render_schema(served), (
        f"{path.name} is stale: run `make contracts`"
    )
