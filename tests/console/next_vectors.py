"""Sign-in `next` values, shared by the server-side tests and the browser test of login.js."""

# `next` values that a browser would follow to another site, after its own clean-up.
ELSEWHERE = [
    "//evil.example/",
    "/\\evil.example",
    "\\\\evil.example",
    "/\t/evil.example/",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "/%09/evil.example/",
    "/%2F/evil.example",
    "/%5Cevil.example",
    "/%2f%2fevil.example",
    "https:evil.example",
    "https://evil.example",
    "javascript:alert(1)",
    " /agents",
    "agents",
    "/%zz",
    "/%ff",
    "",
]
CONSOLE_PATHS = ["/agents", "/agents/abc/configure?tab=1#x", "/knowledge/%C3%A9", "/..//evil", "/%252F/evil"]
