#!/usr/bin/env bash
# Installs the system libraries the package links, when they are missing:
# LAPACKE (Debian's liblapacke-dev) and libpng (libpng-dev), and the headless browser the live view's
# page test drives (Debian's chromium; the driver needs only python3). Safe to run again; does nothing
# when all is there.
set -euo pipefail

missing=()
[ -f /usr/include/lapacke.h ] || missing+=(liblapacke-dev)
[ -f /usr/include/png.h ] || missing+=(libpng-dev)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v python3 >/dev/null 2>&1 || missing+=(python3)

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
