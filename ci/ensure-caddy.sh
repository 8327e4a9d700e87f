#!/usr/bin/env bash
# Make sure Caddy exists: the deployed lane (and `make deploy-up`) put it in front of the console as
# the TLS-terminating reverse proxy (docs/deploy.md). Installs Debian's caddy package when missing;
# its internal CA (`tls internal`) needs no network.
set -euo pipefail
if command -v caddy >/dev/null 2>&1; then exit 0; fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "No caddy found and no apt-get to install it. Install Caddy 2 (https://caddyserver.com/docs/install)." >&2
  exit 1
fi
SUDO=""; [[ "$(id -u)" != 0 ]] && SUDO="sudo"
echo "[setup] no caddy found; installing Debian's caddy package (the deployed lane's reverse proxy)" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq caddy >/dev/null
# The package starts a system-wide caddy on ports 80/443; the deployments start their own.
if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet caddy 2>/dev/null; then
  $SUDO systemctl disable --now caddy >/dev/null 2>&1 || true
fi
