"""Kept traces are zip archives of text (network log, snapshots) and images; secrets must go."""

import zipfile
from pathlib import Path

from support.browser.evidence import redact_archive

PNG_BYTES = b"\x89PNG\r\n\x1a\n\x00\xff\xfe"


def test_text_members_are_redacted_and_binary_members_kept(tmp_path: Path) -> None:
    raw, kept = tmp_path / "raw.zip", tmp_path / "kept.zip"
    with zipfile.ZipFile(raw, "w") as archive:
        archive.writestr("trace.network", '{"cookie": "ab_session=tok-123456789"}\n')
        archive.writestr("resources/page.html", "<p>app-AbCdEfGhIjKlMnOpQrStUv shown once</p>")
        archive.writestr("resources/shot.png", PNG_BYTES)

    # The run knows both: the session token, and the API key the page showed the scenario once.
    redact_archive(raw, kept, ["tok-123456789", "app-AbCdEfGhIjKlMnOpQrStUv"])

    with zipfile.ZipFile(kept) as archive:
        assert archive.read("trace.network") == b'{"cookie": "[REDACTED]"}\n'
        assert archive.read("resources/page.html") == b"<p>[REDACTED] shown once</p>"
        assert archive.read("resources/shot.png") == PNG_BYTES
