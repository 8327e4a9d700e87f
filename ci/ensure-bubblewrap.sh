#!/usr/bin/env bash
# Make sure bubblewrap (`bwrap`) exists and may create user namespaces: shellctl runs every
# sandbox command inside it and refuses to start without it. Installs Debian's bubblewrap package
# when it is missing, and e2fsprogs when `mkfs.ext4` is (each workspace is a size-capped ext4
# image: the disk quota, docs/runtime.md).
set -euo pipefail
SUDO=""; [[ "$(id -u)" != 0 ]] && SUDO="sudo"
if ! command -v bwrap >/dev/null 2>&1; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "No bwrap found and no apt-get to install it. Install bubblewrap (the package providing" >&2
    echo "'bwrap'), or run shellctl with --no-isolation on a development machine only." >&2
    exit 1
  fi
  echo "[setup] no bwrap found; installing Debian's bubblewrap package (shellctl's sandbox)" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq bubblewrap >/dev/null
fi
if ! command -v mkfs.ext4 >/dev/null 2>&1 && ! [[ -x /sbin/mkfs.ext4 ]]; then
  echo "[setup] no mkfs.ext4 found; installing Debian's e2fsprogs package (shellctl's workspace quota)" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq e2fsprogs >/dev/null
fi
# Ubuntu 23.10+ (GitHub's ubuntu-24.04 runners included) lets AppArmor refuse unprivileged user
# namespaces, which bwrap needs ("setting up uid map: Permission denied"). Ubuntu's recommended
# fix is a profile that allows them to bwrap alone; the restriction stays for everything else.
PROFILE=/etc/apparmor.d/bwrap
if [[ "$(cat /proc/sys/kernel/apparmor_restrict_unprivileged_userns 2>/dev/null)" == 1 && ! -e $PROFILE ]]; then
  echo "[setup] AppArmor restricts user namespaces: adding Ubuntu's profile for $(command -v bwrap)" >&2
  $SUDO tee "$PROFILE" >/dev/null <<EOF
abi <abi/4.0>,
include <tunables/global>

profile bwrap $(command -v bwrap) flags=(unconfined) {
  userns,
  include if exists <local/bwrap>
}
EOF
  $SUDO apparmor_parser -r "$PROFILE"
fi
