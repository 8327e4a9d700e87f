"""`python -m support.replay serve|inspect|verify` (see README.md in this folder)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from support.replay.cassette import DEFAULT_CASSETTES_DIR, CassetteError, SseResponse, load_cassette
from support.replay.config import API_KEY_ENV, ReplayConfig
from support.replay.matching import key_text
from support.replay.server import READY_PREFIX, run


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "serve":
        try:
            config = ReplayConfig(
                cassettes=args.cassettes,
                mode=args.mode,
                upstream=args.upstream.rstrip("/") if args.upstream else None,
                search_upstream=args.search_upstream,
                api_key=os.environ.get(API_KEY_ENV),
                pace_ms=args.pace_ms,
                recorded_from=args.recorded_from,
                models=tuple(args.model),
            )
        except ValueError as error:
            parser.error(str(error))
        run(
            config,
            args.host,
            args.port,
            lambda url: print(f"{READY_PREFIX} {json.dumps({'url': url})}", flush=True),
        )
        return 0
    if args.command == "inspect":
        return _inspect(args.cassette)
    return _verify(args.folder)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m support.replay", description="Model record/replay server"
    )
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", help="run the OpenAI-compatible record/replay server")
    serve.add_argument("--port", type=int, default=0, help="0 picks a free port (default)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument(
        "--cassettes", type=Path, required=True, help=f"cassettes folder, e.g. {DEFAULT_CASSETTES_DIR}"
    )
    serve.add_argument("--mode", choices=["replay", "record", "live"], default="replay")
    serve.add_argument("--upstream", help="provider base URL for record/live, e.g. https://api.openai.com/v1")
    serve.add_argument("--search-upstream", help="web-search provider base URL that /search/... forwards to")
    serve.add_argument("--pace-ms", type=int, default=0, help="delay between replayed SSE chunks")
    serve.add_argument("--recorded-from", help="`recorded_from` label written into cassettes")
    serve.add_argument(
        "--model",
        action="append",
        default=[],
        metavar="NAME",
        help="also list NAME in GET /v1/models in replay mode (repeatable): the models the seed activates",
    )

    inspect = commands.add_parser("inspect", help="list a cassette's entries and match keys")
    inspect.add_argument("cassette", type=Path)

    verify = commands.add_parser(
        "verify", help="load every cassette under a folder; non-zero exit on any problem"
    )
    verify.add_argument("folder", type=Path)
    return parser


def _inspect(path: Path) -> int:
    try:
        cassette = load_cassette(path)
    except CassetteError as error:
        print(error, file=sys.stderr)
        return 1
    print(path)
    for label, value in (
        ("scenario", cassette.scenario),
        ("feature", cassette.feature),
        ("recorded_at", cassette.recorded_at),
        ("recorded_from", cassette.recorded_from),
        ("model", cassette.model),
        ("entries", len(cassette.entries)),
    ):
        print(f"  {label + ':':<15}{value}")
    for index, entry in enumerate(cassette.entries):
        response = entry.response
        shape = f"{len(response.chunks)} chunks" if isinstance(response, SseResponse) else "body"
        print(f"\n[{index}] {entry.key}  -> {response.kind} {response.status}, {shape}")
        print("\n".join("    " + line for line in key_text(entry.request).splitlines()))
    return 0


def _verify(folder: Path) -> int:
    if not folder.is_dir():
        print(f"{folder}: not a folder", file=sys.stderr)
        return 1
    paths = sorted(folder.rglob("*.json"))
    failures = 0
    for path in paths:
        try:
            cassette = load_cassette(path)
        except CassetteError as error:
            failures += 1
            print(f"FAIL {error}")
            continue
        print(f"ok   {path} ({len(cassette.entries)} entries)")
    print(f"{len(paths)} cassette(s), {failures} problem(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
