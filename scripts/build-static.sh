#!/usr/bin/env bash
# Builds meshgeo as one stripped binary with the Swift runtime and Foundation linked in
# (--static-swift-stdlib), so it runs on a machine without the Swift toolchain, then names the
# shared C libraries it still loads: install those there (Debian/Ubuntu package names below).
#
#   scripts/build-static.sh            # writes .build/static/meshgeo
#   cp .build/static/meshgeo ~/.local/bin/
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build/static-build
swift build -c release --product meshgeo --static-swift-stdlib --scratch-path "$scratch"
mkdir -p .build/static
cp "$scratch/release/meshgeo" .build/static/meshgeo
strip .build/static/meshgeo
echo "built .build/static/meshgeo ($(du -h .build/static/meshgeo | cut -f1), $(.build/static/meshgeo --version))"

# Shared libraries beyond the C runtime, and the package that provides each on Debian/Ubuntu.
echo "it loads these shared libraries besides the C library:"
ldd .build/static/meshgeo | awk '{print $1}' |
  grep -Ev '^(linux-vdso|/lib64/ld-linux|libc\.so|libm\.so|libpthread\.so|libdl\.so|librt\.so)' |
  while read -r lib; do
    package=$(dpkg -S "$lib" 2>/dev/null | head -1 | cut -d: -f1 || true)
    echo "  $lib${package:+ (package $package)}"
  done
