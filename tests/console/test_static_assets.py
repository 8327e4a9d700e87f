"""Static files under content-hashed names (ui/assets.py): cached for good by their hashed URL,
renamed whenever they or anything they import changes, and named that way by every page."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from agent_builder.console.ui.assets import IMMUTABLE, REVALIDATE, AssetManifest

HASHED = re.compile(r"/static/([\w-]+)\.[0-9a-f]{12}\.(js|css|svg)")


def _static(tmp_path: Path, files: dict[str, str]) -> Path:
    folder = tmp_path / "static"
    folder.mkdir(exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text)
    return folder


def test_a_changed_module_renames_every_module_that_imports_it_and_nothing_else(tmp_path: Path) -> None:
    files = {
        "page.js": "import { helper } from './helper.js';\nhelper();\n",
        "helper.js": "import { dom } from './dom.js';\nexport const helper = () => dom;\n",
        "dom.js": "export const dom = 1;\n",
        "other.js": "export const other = 2;\n",
        "worklet.js": "registerProcessor('x', class {});\n",
        "voice.js": "await context.audioWorklet.addModule('/static/worklet.js');\n",
    }
    before = AssetManifest(_static(tmp_path, files))
    after = AssetManifest(_static(tmp_path, {**files, "dom.js": "export const dom = 2;\n"}))

    changed = {name for name in files if before.url(name) != after.url(name)}
    assert changed == {"dom.js", "helper.js", "page.js"}
    page, _ = after.find("page.js") or (None, None)
    assert page is not None and f"'./{after.url('helper.js').removeprefix('/static/')}'" in page.body.decode()
    voice, _ = after.find("voice.js") or (None, None)
    assert voice is not None and f"'{after.url('worklet.js')}'" in voice.body.decode()


def test_an_import_cycle_is_hashed_once_and_both_modules_change_together(tmp_path: Path) -> None:
    files = {"a.js": "import './b.js';\n", "b.js": "import './a.js';\n"}
    before = AssetManifest(_static(tmp_path, files))
    after = AssetManifest(_static(tmp_path, {**files, "b.js": "import './a.js';\n// changed\n"}))
    assert before.url("a.js") != after.url("a.js") and before.url("b.js") != after.url("b.js")


def test_a_hashed_url_is_cached_for_good_and_a_plain_one_revalidated(anon: TestClient) -> None:
    page = anon.get("/login")
    scripts = HASHED.findall(page.text)
    assert ("login", "js") in scripts and ("console", "css") in scripts, page.text
    hashed = re.search(r"/static/login\.[0-9a-f]{12}\.js", page.text)
    assert hashed is not None

    immutable = anon.get(hashed[0])
    plain = anon.get("/static/login.js")

    assert (immutable.status_code, immutable.headers["cache-control"]) == (200, IMMUTABLE)
    assert immutable.headers["content-type"].startswith("text/javascript")
    assert (plain.status_code, plain.headers["cache-control"]) == (200, REVALIDATE)
    assert plain.content == immutable.content  # both name their imports by hash
    again = anon.get("/static/login.js", headers={"If-None-Match": plain.headers["etag"]})
    assert (again.status_code, again.content) == (304, b"")
    assert page.headers["cache-control"] == "no-store"  # the page itself is never cached


def test_what_is_not_a_static_file_is_404_and_only_reads_are_allowed(anon: TestClient) -> None:
    for path in ("/static/nope.js", "/static/login.000000000000.js", "/static/x/login.js", "/static/"):
        assert anon.get(path).status_code == 404, path
    assert anon.post("/static/login.js").status_code in (403, 405)
