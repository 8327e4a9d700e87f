"""One Playwright browser per process; a fresh, signed-in, pinned context per scenario.

@microphone scenarios get a second browser, launched the first time one runs: its fake
microphone plays the seeded voice clip (fake devices are launch flags, so they cannot be a
context's). Playwright grants the microphone permission per context; Chromium's
`--use-fake-ui-for-media-stream` is left out on purpose, since it would grant it to every page
and no scenario could then see the permission denied."""

from __future__ import annotations

import base64
import hashlib
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography import x509
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, ViewportSize, sync_playwright

from support.seeded.specs import voice_clip
from support.settings import Settings

VIEWPORT: ViewportSize = {"width": 1280, "height": 800}
LOCALE = "en-US"
TIMEZONE = "UTC"
# Without the background-networking flags Chromium keeps dialing Google on a closed network.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # Third-party cookies blocked, as Safari, Firefox and private windows do: an embedded web app
    # then keeps its visitor only through a partitioned (CHIPS) cookie, which is what it must set.
    "--test-third-party-cookie-phaseout",
]
SYSTEM_CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
# Chromium's headless shell (Debian: chromium-headless-shell; Playwright's own pick for headless)
# renders the same pages with less than half of full Chromium's CPU (benchmarks/browser_cost.py): on
# two cores, the difference between a second worker that helps and one that waits for CPU. It has
# no media capture (getUserMedia says "Not supported"), so the microphone browser is full Chromium.
SYSTEM_HEADLESS_SHELL_NAMES = ("chromium-headless-shell",)
PERMISSIONS = ["clipboard-read", "clipboard-write"]
MICROPHONE_PERMISSIONS = [*PERMISSIONS, "microphone"]


def microphone_args() -> list[str]:
    """The fake microphone's launch flags: it plays the voice clip once (`%noloop`), then silence."""
    return [
        "--use-fake-device-for-media-stream",
        f"--use-file-for-fake-audio-capture={voice_clip().path}%noloop",
    ]


class BrowserNotFound(RuntimeError):
    pass


def find_chromium(settings: Settings, playwright: Playwright, *, media: bool = False) -> Path:
    """E2E_BROWSER_PATH, then the system headless shell (headless, without `media` capture), then
    a Playwright-managed install, then the system package."""
    if settings.browser_path is not None:
        return settings.browser_path
    shell_fits = not settings.headed and not media
    shell = next(filter(None, map(shutil.which, SYSTEM_HEADLESS_SHELL_NAMES)), None) if shell_fits else None
    if shell:
        return Path(shell)
    managed = Path(playwright.chromium.executable_path)
    if managed.exists():
        return managed
    for name in SYSTEM_CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return Path(found)
    raise BrowserNotFound(
        "No Chromium found. Install one with `make setup` (Debian/Ubuntu: `apt-get install chromium`), "
        "or `playwright install chromium`, or set E2E_BROWSER_PATH to a Chromium binary, "
        "or E2E_BROWSER_WS_ENDPOINT to a remote Playwright server."
    )


def _throttle(context: BrowserContext, page: Page, rate: float) -> None:
    # Chromium-only DevTools call; the rate applies to the page's renderer until it closes.
    context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})


@dataclass
class BrowserSession:
    playwright: Playwright
    browser: Browser
    settings: Settings
    microphone_browser: Browser | None = None

    @property
    def description(self) -> str:
        """For the start-up line: which browser the scenarios really use."""
        remote = self.settings.browser_ws_endpoint
        return f"remote {remote}" if remote else f"{self.browser.browser_type.name} {self.browser.version}"

    @classmethod
    def start(cls, settings: Settings) -> BrowserSession:
        playwright = sync_playwright().start()
        try:
            if settings.browser_ws_endpoint:
                browser = playwright.chromium.connect(settings.browser_ws_endpoint)
            else:
                browser = _launch(playwright, settings, CHROMIUM_ARGS)
        except BaseException:
            playwright.stop()
            raise
        return cls(playwright, browser, settings)

    def _microphone_browser(self) -> Browser:
        if self.settings.browser_ws_endpoint:
            raise BrowserNotFound(
                "@microphone scenarios need a fake microphone, which is a launch flag of a local Chromium: "
                "they cannot run on the remote browser of E2E_BROWSER_WS_ENDPOINT. Unset it for them."
            )
        if self.microphone_browser is None:
            self.microphone_browser = _launch(
                self.playwright, self.settings, [*CHROMIUM_ARGS, *microphone_args()], media=True
            )
        return self.microphone_browser

    def new_context(
        self, storage_state: dict[str, Any] | None, *, microphone: bool = False
    ) -> BrowserContext:
        """A pinned context; with `microphone`, of the fake-microphone browser and allowed to use it."""
        browser = self._microphone_browser() if microphone else self.browser
        context = browser.new_context(
            viewport=VIEWPORT,
            locale=LOCALE,
            timezone_id=TIMEZONE,
            storage_state=storage_state,  # type: ignore[arg-type]  # a plain dict: support/api has no playwright types
            permissions=MICROPHONE_PERMISSIONS if microphone else PERMISSIONS,
        )
        context.set_default_timeout(self.settings.timeout_ms)
        if self.settings.cpu_throttle > 1:  # every page of the context: new_page() and popups alike
            rate = self.settings.cpu_throttle
            context.on("page", lambda page: _throttle(context, page, rate))
        return context

    def close(self) -> None:
        try:
            if self.microphone_browser is not None:
                self.microphone_browser.close()
            self.browser.close()
        finally:
            self.playwright.stop()


def network_args(settings: Settings) -> list[str]:
    """E2E_HOST_RESOLVER_RULES as they are, and E2E_CA_FILE as SPKI pins: Chromium then accepts a
    chain that any of those certificates signed, without touching the machine's trust store
    (the flag takes effect only with a user data dir, which Playwright always gives it).

    Mapping a public name to a lab address moves the deployment into the local address space,
    where Chromium's Local Network Access checks would stop a public site from embedding it; a
    real deployment at a public address meets no such check, so the rules come without it.
    Chromium reads the last `--disable-features` only, so this one replaces Playwright's list:
    the browser keeps Chromium's defaults there, third-party storage partitioning included, as
    a visitor's browser does (Playwright turns that partitioning off)."""
    args = []
    if settings.host_resolver_rules:
        args += [
            f"--host-resolver-rules={settings.host_resolver_rules}",
            "--disable-features=LocalNetworkAccessChecks",
        ]
    if settings.ca_file is not None:
        pins = ",".join(spki_pins(settings.ca_file.read_bytes()))
        args.append(f"--ignore-certificate-errors-spki-list={pins}")
    return args


def spki_pins(pem: bytes) -> list[str]:
    """base64(SHA-256(SubjectPublicKeyInfo)) of each certificate in a PEM file."""
    return [
        base64.b64encode(
            hashlib.sha256(
                certificate.public_key().public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo)
            ).digest()
        ).decode()
        for certificate in x509.load_pem_x509_certificates(pem)
    ]


def _launch(playwright: Playwright, settings: Settings, args: list[str], *, media: bool = False) -> Browser:
    return playwright.chromium.launch(
        executable_path=str(find_chromium(settings, playwright, media=media)),
        headless=not settings.headed,
        slow_mo=settings.slow_mo_ms,
        args=[*args, *network_args(settings)],
    )
