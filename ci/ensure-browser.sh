#!/usr/bin/env bash
# Make sure a Chromium exists for Playwright: E2E_BROWSER_PATH, a Playwright-managed build,
# or the system packages. On Debian/Ubuntu it installs chromium-headless-shell (what headless
# lanes run: less than half of full Chromium's CPU) and chromium (for E2E_HEADED=1) when either is
# missing; Playwright's own download cannot reach its CDN on locked-down CI machines.
set -euo pipefail
if [[ -n "${E2E_BROWSER_PATH:-}" || -n "${E2E_BROWSER_WS_ENDPOINT:-}" ]]; then exit 0; fi
if command -v apt-get >/dev/null 2>&1; then
  if command -v chromium >/dev/null 2>&1 && command -v chromium-headless-shell >/dev/null 2>&1; then exit 0; fi
  SUDO=""; [[ "$(id -u)" != 0 ]] && SUDO="sudo"
  echo "[setup] installing Debian's chromium and chromium-headless-shell packages" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-headless-shell fonts-liberation >/dev/null
  exit 0
fi
for name in chromium-headless-shell chromium chromium-browser google-chrome google-chrome-stable; do
  if command -v "$name" >/dev/null 2>&1; then exit 0; fi
done
if compgen -G "${PLAYWRIGHT_BROWSERS_PATH:-$HOME/.cache/ms-playwright}/chromium-*/chrome-linux*/chrome" >/dev/null; then exit 0; fi
echo "No Chromium found and no apt-get to install one. Install Chromium, or set E2E_BROWSER_PATH," >&2
echo "or run 'playwright install chromium' where its download is reachable." >&2
exit 1
