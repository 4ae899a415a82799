#!/usr/bin/env bash
# Regenerates Examples/*.json from the examples built into meshgeo.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product meshgeo >/dev/null
for name in $(.build/release/meshgeo example --list | cut -f1); do
  .build/release/meshgeo example "$name" -o "Examples/$name.json"
done
# The wavy label laid flat (each vertex's to is its from, z 0): the same faces, so it
# interpolates with wavy.json (the README's interpolate command).
sed -E 's/\{"from": \[([^],]*), ([^]]*)\], "to": \[[^]]*\]\}/{"from": [\1, \2], "to": [\1, \2, 0]}/' \
  Examples/wavy.json >Examples/wavy-flat.json
# The texture the README's commands use (needs python3 and cjpeg).
scripts/make-textures.py
