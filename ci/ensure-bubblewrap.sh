#!/usr/bin/env bash
# Make sure bubblewrap (`bwrap`) exists: shellctl runs every sandbox command inside it and
# refuses to start without it. Installs Debian's bubblewrap package when it is missing.
set -euo pipefail
if command -v bwrap >/dev/null 2>&1; then exit 0; fi
if command -v apt-get >/dev/null 2>&1; then
  SUDO=""; [[ "$(id -u)" != 0 ]] && SUDO="sudo"
  echo "[setup] no bwrap found; installing Debian's bubblewrap package (shellctl's sandbox)" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq bubblewrap >/dev/null
  exit 0
fi
echo "No bwrap found and no apt-get to install it. Install bubblewrap (the package providing" >&2
echo "'bwrap'), or run shellctl with --no-isolation on a development machine only." >&2
exit 1
