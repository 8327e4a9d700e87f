"""Replay overhead per model call, against a direct call to the same fake upstream.

    .venv/bin/python -m benchmarks.replay_overhead [--iterations N]

Records one non-streamed and one streamed call from the tests' fake upstream (tests/fakes/),
then times, interleaved in one run, the same call through the official `openai` SDK directly to
the upstream and through the replay server. Prints medians and replay/direct ratios.
The fake upstream answers instantly, so this is the server's own cost, not a provider's.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from openai import OpenAI
from openai.types.chat import ChatCompletionMessageParam

from support.replay.config import ReplayConfig
from support.replay.control import ReplayControl
from support.replay.server import replay_server
from tests.fakes.upstream import MODEL, UpstreamServer

KEY = "sk-benchmark-key-000000"
MESSAGES: list[ChatCompletionMessageParam] = [
    {"role": "user", "content": "Give me a short answer about replay overhead please"}
]
SCENARIO = "Replay overhead"


def sdk(base_url: str) -> OpenAI:
    return OpenAI(base_url=base_url, api_key=KEY, max_retries=0)


def call(client: OpenAI, stream: bool) -> None:
    if stream:
        for _ in client.chat.completions.create(model=MODEL, messages=MESSAGES, stream=True):
            pass
    else:
        client.chat.completions.create(model=MODEL, messages=MESSAGES)


def timed(action: Callable[[], None]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=200)
    iterations = parser.parse_args().iterations

    with tempfile.TemporaryDirectory() as folder, UpstreamServer() as upstream:
        direct = sdk(upstream.current.base_url)
        cassettes = Path(folder)
        record = ReplayConfig(
            cassettes=cassettes, mode="record", upstream=upstream.current.base_url, api_key=KEY
        )
        with replay_server(record) as recorder, ReplayControl(recorder.url) as control:
            control.open_scope(SCENARIO)
            client = sdk(f"{recorder.url}/v1")
            call(client, stream=False)
            call(client, stream=True)
            control.close_scope()

        samples: dict[tuple[str, bool], list[float]] = {
            (target, stream): [] for target in ("direct", "replay") for stream in (False, True)
        }
        with replay_server(ReplayConfig(cassettes=cassettes)) as server, ReplayControl(server.url) as control:
            replayed = sdk(f"{server.url}/v1")
            for client in (direct, replayed):  # open the keep-alive connections before timing
                client.models.list()
            for _ in range(iterations):
                control.open_scope(SCENARIO)  # each scope replays the two recorded calls once
                for stream in (False, True):
                    samples[("direct", stream)].append(timed(partial(call, direct, stream)))
                    samples[("replay", stream)].append(timed(partial(call, replayed, stream)))
                report = control.close_scope()
                if not report.ok:
                    raise SystemExit(report.problems_text())

    print(
        f"replay overhead per call: medians of {iterations} interleaved calls each, official openai SDK client"
    )
    print(f"{'':14}{'direct':>10}{'replay':>10}{'overhead':>10}{'ratio':>8}")
    for stream, label in ((False, "non-streamed"), (True, "streamed")):
        direct_ms = statistics.median(samples[("direct", stream)]) * 1000
        replay_ms = statistics.median(samples[("replay", stream)]) * 1000
        print(
            f"{label:14}{direct_ms:>8.2f}ms{replay_ms:>8.2f}ms{replay_ms - direct_ms:>+8.2f}ms"
            f"{replay_ms / direct_ms:>7.2f}x"
        )


if __name__ == "__main__":
    main()
