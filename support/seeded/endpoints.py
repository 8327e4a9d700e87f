"""Where the seeded model provider and web-search credential point, for this run's settings.

Through the lane's record/replay server whenever there is one; directly at the provider only in
live mode. The seed registers these endpoints and the fixture check compares against them.
"""

from __future__ import annotations

from support.seeded.blocked import Blocked
from support.settings import Settings

# The replay server ignores the key the console sends (in record/live it uses its own), but the
# console requires one. Not a secret.
REPLAY_API_KEY = "replay-keyless"
# Replayed searches need no key, but the console requires a secret. Not a secret.
REPLAY_SEARCH_SECRET = "replay-keyless"


def provider_url(settings: Settings, replay_path: str, direct_url: str | None, direct_variable: str) -> str:
    """Where the console reaches a model or web-search provider.

    Through the lane's record/replay server whenever there is one: it replays, records or
    forwards depending on E2E_MODEL_MODE, and its fault patches apply in every mode. Only live
    mode may call the provider directly (say, the external lane against a deployment).
    """
    if settings.replay_url:
        return settings.replay_url + replay_path
    if settings.model_mode != "live":
        raise Blocked(
            f"E2E_MODEL_MODE={settings.model_mode} serves provider calls from the lane's record/replay "
            "server, but E2E_REPLAY_URL is not set",
            "run the lane with `make post-merge`, which starts the replay server, or start "
            "`python -m support.replay serve --cassettes features/cassettes --model <name> ...` where the "
            "console can reach it and set E2E_REPLAY_URL",
        )
    if not direct_url:
        raise Blocked(
            f"live mode without E2E_REPLAY_URL calls the provider directly, but {direct_variable} is not set",
            f"set {direct_variable} (or E2E_REPLAY_URL)",
        )
    return direct_url


def model_endpoint(settings: Settings) -> tuple[str, str]:
    """The model provider's base URL and the key the console sends it."""
    base_url = provider_url(settings, "/v1", settings.stable_model_base_url, "E2E_STABLE_MODEL_BASE_URL")
    if settings.replay_url:
        return base_url, REPLAY_API_KEY
    assert settings.stable_model_api_key is not None  # direct calls are live mode, where Settings requires it
    return base_url, settings.stable_model_api_key.get_secret_value()


def web_search_endpoint(settings: Settings) -> tuple[str, str]:
    """The credential's base URL and secret. The replay server forwards the product's own
    Authorization header upstream, so record and live need the real key even through it."""
    base_url = provider_url(settings, "/search", settings.web_search_base_url, "E2E_WEB_SEARCH_BASE_URL")
    if settings.model_mode == "replay":
        return base_url, REPLAY_SEARCH_SECRET
    if settings.web_search_api_key is None:
        raise Blocked(
            f"E2E_MODEL_MODE={settings.model_mode} calls the real web-search provider, "
            "but E2E_WEB_SEARCH_API_KEY is not set",
            "set E2E_WEB_SEARCH_BASE_URL and E2E_WEB_SEARCH_API_KEY, "
            "or unset E2E_MODEL_MODE to replay recorded searches",
        )
    return base_url, settings.web_search_api_key.get_secret_value()
