"""The access matrix names every route of the console (issue 31, class 4): a route that is not in
`ROUTES` (access_matrix.py) with its rule fails here, by name, and so does a public route that
features/agent/access-matrix.feature does not ask in every state."""

from __future__ import annotations

from collections.abc import Callable

from access_matrix import FEATURE, ROUTES, route_table
from fastapi.testclient import TestClient
from gherkin.parser import Parser

from support.api.public_routes import SERVICE_API_ROUTES as SERVICE_ROUTES_CALLED
from support.api.public_routes import WEB_APP_ROUTES as WEB_APP_ROUTES_CALLED
from support.api_setup.access import SERVICE_API_STATES as SERVICE_FEATURE_STATES
from support.api_setup.access import WEB_APP_STATES as WEB_APP_FEATURE_STATES


def test_every_route_of_the_console_is_in_the_matrix(make_client: Callable[..., TestClient]) -> None:
    app = make_client(enable_test_seed=True).app
    table = route_table(app)
    missing = sorted(table - ROUTES.keys())
    assert not missing, (
        f"routes with no access rule in the matrix: {missing}; add each to ROUTES with its rule "
        "(and, for a web app or service API route, to features/agent/access-matrix.feature)"
    )
    gone = sorted(ROUTES.keys() - table)
    assert not gone, f"the matrix lists routes the console no longer has: {gone}"


def test_public_routes_say_why_they_are_public() -> None:
    for route, rule in ROUTES.items():
        assert (rule.surface == "public") == bool(rule.why), route


def _feature_rows() -> list[dict[str, str]]:
    """The Examples rows of the visitor's and the integrator's matrix, by column."""
    document = Parser().parse(FEATURE.read_text())
    rows = []
    for child in document["feature"]["children"]:
        for examples in child.get("scenario", {}).get("examples", []):
            header = [cell["value"] for cell in examples["tableHeader"]["cells"]]
            rows += [
                dict(zip(header, (c["value"] for c in row["cells"]), strict=True))
                for row in examples["tableBody"]
            ]
    return rows


def test_the_access_matrix_feature_asks_every_public_route_in_every_state() -> None:
    asked = {(row["route"], row["state"]) for row in _feature_rows()}
    wanted = {
        (f"{method} {path}", state)
        for (method, path), rule in ROUTES.items()
        for state in {"web_app": WEB_APP_FEATURE_STATES, "service_api": SERVICE_FEATURE_STATES}.get(
            rule.surface, ()
        )
    }
    missing = sorted(wanted - asked)
    assert not missing, f"{FEATURE.name} asks no visitor or integrator these (route, state): {missing}"
    assert not asked - wanted, (
        f"{FEATURE.name} asks routes the console does not have: {sorted(asked - wanted)}"
    )
    # The suite's own list of public routes (how each is called) names the same routes.
    assert set(WEB_APP_ROUTES_CALLED) | set(SERVICE_ROUTES_CALLED) == {route for route, _ in wanted}
