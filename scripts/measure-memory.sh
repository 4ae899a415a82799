#!/usr/bin/env bash
# Peak memory of meshgeo on a 160,000-face mesh (a 400 × 400 grid), against the size of the file.
#
#   scripts/measure-memory.sh [STEPS…]      default steps: 0 1 auto
#   SKIP_BUILD=1 scripts/measure-memory.sh    use the release meshgeo already built
#
# Builds meshgeo in release (scratch .build-harden), writes the grid with `meshgeo identity`, gives
# it a gentle ripple so that it is not flat, tessellates it at each steps value to a file, and
# prints the peak resident memory reported by /usr/bin/time -v with its ratio to the input size.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=${SCRATCH:-.build-harden}
if [ "${SKIP_BUILD:-0}" != 1 ]; then
    swift build -c release --product meshgeo --scratch-path "$scratch" >/dev/null
fi
meshgeo="$scratch/release/meshgeo"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$meshgeo" identity --rows 400 --columns 400 -o "$work/flat.json"
# Depths on a ripple, written with the same one-vertex-a-line layout.
python3 - "$work/flat.json" "$work/grid.json" <<'PY'
import json, math, sys
doc = json.load(open(sys.argv[1]))
for v in doc["vertices"]:
    x, y = v["from"]
    v["to"][2] = 0.02 * math.sin(12 * math.hypot(x - 0.5, y - 0.5))
doc["layer"]["size"] = [1000, 1000]
with open(sys.argv[2], "w") as f:
    f.write("{\n  \"vertices\": [\n")
    f.write(",\n".join("    " + json.dumps(v, separators=(", ", ": ")) for v in doc["vertices"]))
    f.write("\n  ],\n  \"faces\": [\n")
    f.write(",\n".join("    " + json.dumps(v, separators=(", ", ": ")) for v in doc["faces"]))
    f.write("\n  ],\n")
    rest = {k: doc[k] for k in ("depthNormalization", "subdivisionSteps", "layer")}
    f.write(json.dumps(rest)[1:] + "\n")
PY
size=$(wc -c < "$work/grid.json")
faces=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['faces']))" "$work/grid.json")
printf 'input: %d faces, %d bytes (%.1f MiB)\n' "$faces" "$size" "$(echo "$size / 1048576" | bc -l)"
printf '%-6s %12s %10s %12s %14s %8s\n' steps triangles 'wall s' 'peak MiB' 'output MiB' 'peak/in'
for steps in "${@:-0 1 auto}"; do
    for s in $steps; do
        /usr/bin/time -v "$meshgeo" tessellate "$work/grid.json" --steps "$s" -o "$work/out.obj" 2> "$work/time.txt"
        peak_kb=$(awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}' "$work/time.txt")
        wall=$(awk '/Elapsed \(wall clock\)/ {print $NF}' "$work/time.txt")
        triangles=$(grep -c '^f ' "$work/out.obj" || true)
        out=$(wc -c < "$work/out.obj")
        printf '%-6s %12d %10s %12.1f %14.1f %8.1f\n' "$s" "$triangles" "$wall" \
            "$(echo "$peak_kb / 1024" | bc -l)" "$(echo "$out / 1048576" | bc -l)" "$(echo "$peak_kb * 1024 / $size" | bc -l)"
    done
done
