"""provider_refusal (agent_builder/provider_errors.py): what a user is told a provider said when it
refused a call: its error message, else its body, else the reason phrase, one line, key scrubbed."""

import httpx
import pytest

from agent_builder.provider_errors import provider_refusal

KEY = "sk-refused-key-0123456789abcdef"


@pytest.mark.parametrize(
    ("response", "shown"),
    [
        (
            httpx.Response(401, json={"error": {"message": f"Incorrect API key {KEY}"}}),
            "Incorrect API key ***",
        ),
        (httpx.Response(429, json={"error": "Rate limit\n reached"}), "Rate limit reached"),
        (
            httpx.Response(502, text="<html>Bad gateway from the proxy</html>"),
            "<html>Bad gateway from the proxy</html>",
        ),
        (httpx.Response(503, text=""), "Service Unavailable"),
    ],
    ids=["error message", "error string", "plain body", "empty body"],
)
def test_a_refusal_quotes_the_message_else_the_body_else_the_reason(
    response: httpx.Response, shown: str
) -> None:
    assert provider_refusal(response, [KEY]) == shown


def test_a_long_refusal_is_cut_to_one_bounded_line() -> None:
    assert len(provider_refusal(httpx.Response(500, text="word " * 200), [])) == 300
