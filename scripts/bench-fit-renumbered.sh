#!/usr/bin/env bash
# Times `meshgeo fit` on an N × N grid (default 300) in row-major order and with its vertices
# renumbered and its faces shuffled at random: both take the tensor-product path, so both should
# take well under a second in a release build. A benchmark, not a test (the tests check that
# the two fits agree); needs python3 to shuffle the mesh.
#
#   scripts/bench-fit-renumbered.sh [N] [path/to/meshgeo]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-300}
meshgeo=${2:-}
if [ -z "$meshgeo" ]; then
  swift build -c release --product meshgeo >/dev/null
  meshgeo=.build/release/meshgeo
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$meshgeo" identity --rows "$n" --columns "$n" -o "$work/grid.json"
python3 - "$work/grid.json" "$work/shuffled.json" <<'PY'
import json, random, sys
mesh = json.load(open(sys.argv[1]))
rng = random.Random(23)
count = len(mesh["vertices"])
new = list(range(count))
rng.shuffle(new)
vertices = [None] * count
for old, index in enumerate(new):
    vertices[index] = mesh["vertices"][old]
faces = [dict(face, indices=[new[i] for i in face["indices"]]) for face in mesh["faces"]]
rng.shuffle(faces)
mesh["vertices"], mesh["faces"] = vertices, faces
json.dump(mesh, open(sys.argv[2], "w"))
PY

TIMEFORMAT='%R s wall, %U s user, %S s system'
# Reading and validating alone, for comparison: the rest of a fit's time is the fit and writing.
for name in grid shuffled; do
  printf '%-8s %d x %d, validate: ' "$name" "$n" "$n"
  { time "$meshgeo" validate "$work/$name.json" >/dev/null; } 2>&1
  printf '%-8s %d x %d, fit:      ' "$name" "$n" "$n"
  { time "$meshgeo" fit "$work/$name.json" -o "$work/$name-fitted.json"; } 2>&1
done
