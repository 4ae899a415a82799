#!/usr/bin/env bash
# Regenerates Examples/*.json from the examples built into meshgeo.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product meshgeo >/dev/null
for name in $(.build/release/meshgeo example --list | cut -f1); do
  .build/release/meshgeo example "$name" -o "Examples/$name.json"
done
