#!/bin/bash
# Ours against the peers in the same minutes: ROUNDS rounds (default 5), each running every peer
# of scripts/peers.py right before the matching `meshgeo bench` figures, then one line a round
# with the times and ratios (Docs/performance.md, Results). Needs numpy, scipy and embreex (and
# open3d for its W2 line).
#   scripts/alternate.sh .build/release/meshgeo [ROUNDS]
set -euo pipefail
meshgeo=${1:?usage: scripts/alternate.sh path/to/meshgeo [rounds]}
rounds=${2:-5}
here=$(cd "$(dirname "$0")" && pwd)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
peer() { PYTHONDONTWRITEBYTECODE=1 python3 -c "import sys; sys.path.insert(0, '$here'); import peers; peers.$1()"; }
for i in $(seq "$rounds"); do
    echo "== round $i $(date -u +%H:%M:%S)" >>"$log"
    peer w1 | grep steps3 >>"$log"
    "$meshgeo" bench --workload w1 --threads 1 --runs 11 --variant steps3-points >>"$log"
    peer w1_full >>"$log"
    "$meshgeo" bench --workload w1 --threads 1 --runs 11 --variant steps3 --variant frame >>"$log"
    peer w2 >>"$log"
    peer w2_open3d >>"$log"
    "$meshgeo" bench --workload w2 --threads 1 --runs 5 --variant build --variant rays-compact >>"$log"
    peer w3 | grep -v stable >>"$log"
    "$meshgeo" bench --workload w3 --threads 1 --runs 9 --variant depth --variant bsp3 --variant bsp3-frames --variant bsp3-order --variant bsp3-frames-order >>"$log"
    peer w4 | grep n1001 >>"$log"
    "$meshgeo" bench --workload w4 --threads 1 --runs 9 --variant n1001 --variant n1001-frames >>"$log"
    "$meshgeo" bench --workload w4 --threads 2 --runs 9 --variant n1001 --variant n1001-frames >>"$log"
done
python3 - "$log" <<'PY'
import re, sys
rounds = []
for line in open(sys.argv[1]):
    if line.startswith("=="):
        rounds.append({"at": line.split()[-1]})
        continue
    m = re.search(r"([0-9.]+) s ", line)
    if not m:
        continue
    s, t, r = float(m.group(1)), line.split(), rounds[-1]
    if line.startswith("w1 scipy full"): r["scipy-full"] = s
    elif line.startswith("w1 scipy"): r["scipy"] = s
    elif "embree rays" in line: r["embree"] = s
    elif "embree build" in line: pass
    elif "open3d rays" in line: r["open3d"] = s
    elif "open3d build" in line: r["open3d-build"] = s
    elif "numpy argsort" in line: r["numpy"] = s
    elif "solve_banded n1001" in line: r["banded"] = s
    else: r[f"{t[1]}@{t[2]}"] = s
for r in rounds:
    ms = lambda k: r[k] * 1e3
    print(f"{r['at']}  W1 {ms('steps3-points@1'):.2f}/{ms('scipy'):.2f} ms {r['scipy'] / r['steps3-points@1']:.2f}x"
          f" | W2 {r['rays-compact@1']:.3f}/{r['embree']:.3f} s {r['embree'] / r['rays-compact@1']:.2f}x build {r['build@1']:.3f} s"
          f" | W3 depth {ms('depth@1'):.1f} numpy {ms('numpy'):.1f} ms, bsp3 {r['bsp3@1'] / r['depth@1']:.2f}x,"
          f" bsp3-frames {r['bsp3-frames@1'] / r['depth@1']:.2f}x, order {r['bsp3-order@1'] / r['depth@1']:.2f}x,"
          f" frames order {r['bsp3-frames-order@1'] / r['depth@1']:.2f}x"
          f" | W4 {ms('n1001@1'):.1f}/{ms('banded'):.1f} ms {r['banded'] / r['n1001@1']:.2f}x,"
          f" frames {r['banded'] / r['n1001-frames@1']:.2f}x, 2 threads {r['banded'] / r['n1001@2']:.2f}x")
    print(f"{r['at']}  W1 full {ms('steps3@1'):.2f}/{ms('scipy-full'):.2f} ms {r['scipy-full'] / r['steps3@1']:.2f}x"
          f" | W1 frame {ms('frame@1'):.2f} ms")
for r in rounds:
    if "open3d" in r:
        print(f"{r['at']}  W2 Open3D rays {r['open3d']:.3f} s {r['open3d'] / r['rays-compact@1']:.2f}x,"
              f" build {r['open3d-build']:.3f} s, ours {r['build@1'] / r['open3d-build']:.3f}x its time")
PY
