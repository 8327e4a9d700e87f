"""The committed API models must match what the console's /openapi.json generates today."""

from support.api.contract import CONTRACT_PATH
from support.api.generate import MODELS_PATH, fetch_schema, render_models, render_schema


def test_committed_models_match_the_live_schema() -> None:
    schema = fetch_schema()
    assert CONTRACT_PATH.read_text(encoding="utf-8") == render_schema(schema), (
        "support/api/openapi.json is stale: the console's schema changed. Run `make contracts`."
    )
    assert MODELS_PATH.read_text(encoding="utf-8") == render_models(schema), (
        "support/api/models.py is stale. Run `make contracts` and commit the result."
    )
