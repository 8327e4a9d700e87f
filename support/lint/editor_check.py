"""What the editor sees, checked by hand: `python -m support.lint.editor_check <node_modules>`.

Runs the Cucumber Language Server (what VS Code's Cucumber extension runs; install it with
`npm install @cucumber/language-server@1.7.0` in a scratch folder, and pass that folder's
`node_modules`) over stdio, as the extension does: it answers the server's configuration request
with `.vscode/settings.json`'s `cucumber.*` settings, opens every feature file, waits until the
server has indexed the glue twice (once at start, once after the files opened) and prints what
it reported: the step definitions it indexed, its errors on them, and every undefined step.
Exits 1 when there is an error or an undefined step. Not part of `make test` (it needs Node and
the package); tests/harness/test_cucumber_expressions.py pins the same in Python.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

_STARTER = """
const server = require({server!r} + '/dist/cjs/src/wasm/startStandaloneServer')
const files = require({server!r} + '/dist/cjs/src/node/NodeFiles')
server.startStandaloneServer({wasm!r}, (rootUri) => new files.NodeFiles(rootUri))
"""
_INDEXED = "suggestions for auto complete"  # the server's last log line of a reindex
_TIMEOUT_S = 120.0


class Session:
    """A language server over stdio: requests it sends are answered, what it says is kept."""

    def __init__(self, process: subprocess.Popen[bytes], settings: dict[str, Any]) -> None:
        self.process, self.settings = process, settings
        self.logs: list[str] = []
        self.diagnostics: dict[str, list[dict[str, Any]]] = {}
        self._lock = threading.Lock()
        # What the reader thread heard, for wait_indexed: reindexes done, the files diagnosed by
        # the last one (a reindex sends its diagnostics, then logs _INDEXED), and since.
        self._heard = threading.Condition()
        self._indexed = 0
        self._diagnosed_by_last_index: set[str] = set()
        self._diagnosed_since_index: set[str] = set()
        threading.Thread(target=self._read, daemon=True).start()

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        stdin = self.process.stdin
        assert stdin is not None, "the language server was started without stdin=PIPE"
        with self._lock:
            stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
            stdin.flush()

    def _read(self) -> None:
        stdout = self.process.stdout
        assert stdout is not None, "the language server was started without stdout=PIPE"
        while True:
            headers = {}
            while (line := stdout.readline().decode()) not in ("\r\n", ""):
                name, _, value = line.partition(":")
                headers[name.strip().lower()] = value.strip()
            if "content-length" not in headers:
                with self._heard:
                    self._heard.notify_all()  # the server is gone: nobody waits for it any more
                return
            self._received(json.loads(stdout.read(int(headers["content-length"]))))

    def _received(self, message: dict[str, Any]) -> None:
        method = message.get("method")
        if method == "workspace/configuration":
            self.send({"id": message["id"], "result": [self.settings]})
        elif method and "id" in message:  # e.g. client/registerCapability
            self.send({"id": message["id"], "result": None})
        elif method == "window/logMessage":
            with self._heard:
                self.logs.append(message["params"]["message"])
                if _INDEXED in self.logs[-1]:
                    self._indexed += 1
                    self._diagnosed_by_last_index = self._diagnosed_since_index
                    self._diagnosed_since_index = set()
                self._heard.notify_all()
        elif method == "textDocument/publishDiagnostics":
            with self._heard:
                self.diagnostics[message["params"]["uri"]] = message["params"]["diagnostics"]
                self._diagnosed_since_index.add(message["params"]["uri"])
                self._heard.notify_all()

    def wait_indexed(self, times: int, uris: set[str]) -> bool:
        """Until the server has reindexed `times` times, diagnosing every one of `uris` in the
        last reindex: what it then shows is what an editor would show. False when it stopped or
        took longer than _TIMEOUT_S."""

        def done() -> bool:
            gone = self.process.poll() is not None
            return gone or (self._indexed >= times and uris <= self._diagnosed_by_last_index)

        with self._heard:
            finished = self._heard.wait_for(done, timeout=_TIMEOUT_S)
        return finished and self.process.poll() is None


def check(root: Path, node_modules: Path) -> int:
    raw = json.loads((root / ".vscode" / "settings.json").read_text(encoding="utf-8"))
    settings = {
        key.removeprefix("cucumber."): value for key, value in raw.items() if key.startswith("cucumber.")
    }
    server = node_modules.resolve() / "@cucumber" / "language-server"
    wasm = node_modules.resolve() / "@cucumber" / "language-service" / "dist"
    with tempfile.NamedTemporaryFile("w", suffix=".cjs", delete=False) as starter:
        starter.write(_STARTER.format(server=str(server), wasm=str(wasm)))
    process = subprocess.Popen(
        ["node", starter.name, "--stdio"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=root
    )
    try:
        session = Session(process, settings)
        session.send({"id": 1, "method": "initialize", "params": _initialize(root)})
        session.send({"method": "initialized", "params": {}})
        features = sorted({path for glob in settings["features"] for path in root.glob(glob)})
        for path in features:
            document = {
                "uri": path.as_uri(),
                "languageId": "cucumber",
                "version": 1,
                "text": path.read_text(),
            }
            session.send({"method": "textDocument/didOpen", "params": {"textDocument": document}})
        indexed = session.wait_indexed(times=2, uris={path.as_uri() for path in features})
    finally:
        process.terminate()
        Path(starter.name).unlink()
    return _report(root, session, len(features), indexed)


def _initialize(root: Path) -> dict[str, Any]:
    return {
        "processId": None,
        "rootUri": root.as_uri(),
        "capabilities": {
            "workspace": {"configuration": True, "didChangeConfiguration": {"dynamicRegistration": True}}
        },
        "clientInfo": {"name": "support.lint.editor_check", "version": "1"},
    }


def _report(root: Path, session: Session, feature_count: int, indexed: bool) -> int:
    last = max((i for i, log in enumerate(session.logs) if log.startswith("Reindexing")), default=0)
    reindex = session.logs[last:]
    for log in reindex:
        if log.startswith("* Found"):
            print(log)
    errors = [log.splitlines()[0] for log in reindex if log.startswith("* Step Definition errors")]
    for line in errors:
        print(line)
    undefined = [
        f"{Path(uri.removeprefix('file://')).relative_to(root)}:{d['range']['start']['line'] + 1}: {d['message']}"
        for uri, found in sorted(session.diagnostics.items())
        for d in found
        if d["message"].startswith("Undefined step")
    ]
    for line in undefined:
        print(line)
    files = len({line.partition(":")[0] for line in undefined})
    print(
        f"{len(errors)} step definition errors; {len(undefined)} undefined steps in {files} of "
        f"{feature_count} feature files ({len(session.diagnostics)} files diagnosed)"
    )
    if not indexed:
        print("the server did not finish indexing: see its log above", file=sys.stderr)
    return 0 if indexed and not errors and not undefined else 1


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.splitlines()[0])
    sys.exit(check(Path.cwd(), Path(sys.argv[1])))
