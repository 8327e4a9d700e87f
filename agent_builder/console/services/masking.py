"""How secrets are shown back to users: enough to recognise them, never enough to use them."""


def mask_secret(secret: str) -> str:
    """`sk-…x9Qa` for ordinary keys; short secrets reveal less (or nothing)."""
    if len(secret) >= 12:
        return f"{secret[:3]}…{secret[-4:]}"
    if len(secret) >= 6:
        return f"…{secret[-2:]}"
    return "…"
