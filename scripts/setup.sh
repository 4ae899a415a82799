#!/usr/bin/env bash
# Installs the system libraries the package links, when they are missing:
# LAPACKE (Debian's liblapacke-dev), libpng (libpng-dev) and libjpeg (libjpeg-dev), the headless browser
# the live view's page test drives (Debian's chromium; the driver needs only python3), and the Python
# readers some tests use (pygltflib, gmsh). Safe to run again; does nothing when all is there.
set -euo pipefail

missing=()
[ -f /usr/include/lapacke.h ] || missing+=(liblapacke-dev)
[ -f /usr/include/png.h ] || missing+=(libpng-dev)
[ -f /usr/include/jpeglib.h ] || missing+=(libjpeg-dev)
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

# pygltflib: the glb lights test reads meshgeo's files with an independent glTF reader
# (scripts/glb-lights.py). Installed for the current user from PyPI when missing.
if ! python3 -c "import pygltflib" >/dev/null 2>&1; then
  if ! command -v python3 >/dev/null 2>&1 || ! python3 -m pip --version >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3 python3-pip >/dev/null
  fi
  echo "setup: installing pygltflib" >&2
  # Debian's Python refuses user installs without --break-system-packages (PEP 668); older pips lack the flag.
  python3 -m pip install --quiet --user pygltflib 2>/dev/null \
    || python3 -m pip install --quiet --user --break-system-packages pygltflib
fi

# OpenCASCADE for the NURBS export's reader test (Tests/SurfaceKitTests/NURBSReaderTests.swift):
# PyPI's gmsh wheel embeds it, with the X and OpenGL client libraries as its only system needs.
if ! python3 -c "import gmsh" >/dev/null 2>&1; then
  echo "setup: installing gmsh (OpenCASCADE reader for the tests)" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  if ! python3 -m pip --version >/dev/null 2>&1; then
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3 python3-pip >/dev/null
  fi
  pip_install=(python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore "gmsh==4.15.2")
  # A Debian-managed Python refuses installs outside a virtual environment unless told otherwise.
  "${pip_install[@]}" 2>/dev/null || "${pip_install[@]}" --break-system-packages
  if ! python3 -c "import gmsh" >/dev/null 2>&1; then
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq libglu1-mesa libgl1 libxrender1 libxcursor1 \
      libxft2 libxinerama1 libgomp1 libfontconfig1 >/dev/null
    python3 -c "import gmsh"
  fi
fi
