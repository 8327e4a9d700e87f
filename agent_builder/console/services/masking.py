"""How secrets are shown back to users: enough to recognise them, never enough to use them."""

# At most a quarter of a secret is ever shown: its first 3 and last 4 characters from 28 on,
# the last 4 from 16, the last 2 from 8, nothing below.
_SHOWN = ((28, 3, 4), (16, 0, 4), (8, 0, 2))


def mask_secret(secret: str) -> str:
    """`sk-…x9Qa` for long keys, `…x9Qa` or `…Qa` for shorter ones, `…` for the shortest: never
    more than a quarter of the secret (a 12-character one shows 2)."""
    for length, first, last in _SHOWN:
        if len(secret) >= length:
            return f"{secret[:first]}…{secret[-last:]}"
    return "…"
