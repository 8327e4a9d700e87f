"""Print how fast the console answers while visitors' recordings wait on a slow speech-to-text
provider: issue 25 saw `/healthz`, sign-in, the web app and the service API take 14.7 s (0.14 s
before) while 45 uploads waited on a provider that took 15 s.

    .venv/bin/python -m benchmarks.transcription_stall [--uploads 45] [--stall 15] [--probes 5]

A console process (full-cost sign-in, as deployed) with the tests' fake provider (tests/fakes/,
in this process) as its speech-to-text model, answering each recording after --stall seconds,
and a published agent. Each probe (GET /healthz, sign-in, the web app page, the service API's
GET /v1/info) is sent --probes times, all at once, with nothing in flight, then again while
--uploads concurrent anonymous 2 KB web app uploads are in (each waiting on the provider, or
answered without it). Then how the uploads ended. Figures only: nothing asserts a time (the
issue's floor for the probes during the stall: under 0.5 s).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx

from support.stack import console_command, start_service
from tests.console_api_setup import activate_model, api_key, publish_agent, signed_in, site_token
from tests.fakes.upstream import MODEL, FakeUpstream, UpstreamServer

EMAIL = "bench@example.com"
PASSWORD = "bench-password-transcription"
KEY = "sk-benchmark-transcription"
RECORDING = b"RIFF\x00\x00\x00\x00WAVEfmt " + bytes(2048 - 16)  # 2 KB


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--uploads", type=int, default=45, help="concurrent anonymous uploads")
    parser.add_argument("--stall", type=float, default=15.0, help="seconds the provider takes per recording")
    parser.add_argument("--probes", type=int, default=5, help="samples of each probe, before and during")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, UpstreamServer() as upstream:
        argv, env = console_command(Path(folder) / "console.db", EMAIL, PASSWORD)
        log = Path(folder) / "console.log"
        console = start_service("console", argv, ready_prefix="AGENT_BUILDER_READY", log_path=log, env=env)
        try:
            provider = upstream.fresh()
            with signed_in(console.url, EMAIL, PASSWORD) as admin:
                model = activate_model(admin, "Slow provider", provider.base_url, MODEL, KEY)
                speech = {"speech_to_text_model": {"provider_id": model["provider_id"], "name": "whisper-1"}}
                admin.put("/console/api/system-models", json=speech).raise_for_status()
                agent = publish_agent(admin, model, name="Voice agent")
                service_headers = api_key(admin, agent)
            provider.transcription_delay_s = args.stall
            asyncio.run(measure(console.url, site_token(agent), service_headers, provider, args))
        finally:
            console.stop()


async def measure(
    url: str, token: str, service_headers: dict[str, str], provider: FakeUpstream, args: argparse.Namespace
) -> None:
    async with httpx.AsyncClient(base_url=url, headers={"Origin": url}, timeout=args.stall * 4) as client:
        probes: dict[str, Callable[[], Awaitable[httpx.Response]]] = {
            "GET /healthz": lambda: client.get("/healthz"),
            "sign-in": lambda: client.post("/console/api/login", json={"email": EMAIL, "password": PASSWORD}),
            "web app page": lambda: client.get(f"/chat/{token}"),
            "service API /v1/info": lambda: client.get("/v1/info", headers=service_headers),
        }
        before = await _probe(probes, args.probes)

        async def upload() -> tuple[int, float]:
            started = time.perf_counter()
            files = {"file": ("voice.wav", RECORDING, "audio/wav")}
            response = await client.post(f"/chat/{token}/api/audio/transcriptions", files=files)
            return response.status_code, time.perf_counter() - started

        started = time.perf_counter()
        uploads = [asyncio.create_task(upload()) for _ in range(args.uploads)]
        while len(provider.calls("/v1/audio")) + sum(task.done() for task in uploads) < min(args.uploads, 40):
            await asyncio.sleep(0.02)
        waited = time.perf_counter() - started
        print(f"{args.uploads} uploads in after {waited:.2f}s; the provider answers after {args.stall:g}s")
        during = await _probe(probes, args.probes)
        ended = await asyncio.gather(*uploads)

    print(f"\nlatency, median (max) of {args.probes} requests each, all sent at once:")
    print(f"  {'probe':<22} {'idle':>16} {'during the stall':>20}")
    for name in probes:
        print(f"  {name:<22} {_figure(before[name]):>16} {_figure(during[name]):>20}")
    print(f"\nthe {args.uploads} uploads ended:")
    for status, count in sorted(Counter(status for status, _ in ended).items()):
        times = [seconds for code, seconds in ended if code == status]
        print(f"  HTTP {status}: {count:>3}, answered after {_figure(times)}")
    print(f"  transcriptions the provider was asked for: {len(provider.calls('/v1/audio'))}")


async def _probe(
    probes: dict[str, Callable[[], Awaitable[httpx.Response]]], samples: int
) -> dict[str, list[float]]:
    """Every sample of every probe at once: each one is timed while the uploads still wait (one
    after another, the first one to wait out the stall would leave the others a console with
    free threads again)."""

    async def timed(probe: Callable[[], Awaitable[httpx.Response]]) -> float:
        started = time.perf_counter()
        (await probe()).raise_for_status()
        return time.perf_counter() - started

    names = [name for name in probes for _ in range(samples)]
    seconds = await asyncio.gather(*(timed(probes[name]) for name in names))
    timings: dict[str, list[float]] = {name: [] for name in probes}
    for name, taken in zip(names, seconds, strict=True):
        timings[name].append(taken)
    return timings


def _figure(seconds: list[float]) -> str:
    return f"{statistics.median(seconds):.3f}s ({max(seconds):.3f}s)"


if __name__ == "__main__":
    main()
