#!/usr/bin/env python3
"""Benchmark (not a test) of the live view: one vertex edit of the 50 × 50 ripple at steps 3.

    swift build -c release --product meshgeo
    python3 scripts/bench-live-view.py [--meshgeo .build/release/meshgeo] [--edits 40]

Starts `meshgeo serve` on a free loopback port, opens the page in headless Chromium (as the page
test does), loads the ripple of the performance workloads (50 × 50 faces, z = 0.05·sin(2π·4·r),
turned −45° about x with m34 = −1/2 on a unit layer), sets steps 3, then moves one vertex many
times. For each sort it prints the median and 90th percentile of the server's time (tessellating,
sorting and encoding, from the Server-Timing header) and of the page's round trip (from the edit
to the frame drawn: request, transfer, upload, draw and the next animation frame).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DRIVER = os.path.join(ROOT, "Tests", "MeshServeTests", "Browser", "drive_page.py")

RIPPLE = """(() => {
  const n = 50, vertices = [], faces = [];
  for (let i = 0; i <= n; i++) for (let j = 0; j <= n; j++) {
    const x = j / n, y = i / n, r = Math.hypot(x - 0.5, y - 0.5);
    vertices.push({from: [x, y], to: [x, y, 0.05 * Math.sin(2 * Math.PI * 4 * r)]});
  }
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
    const a = r * (n + 1) + c;
    faces.push({indices: [a, a + 1, a + n + 2, a + n + 1]});
  }
  const c = Math.cos(-Math.PI / 4), s = Math.sin(-Math.PI / 4);
  // Turned about x, then the perspective m34 = −1/2 (the product of the two, row vectors).
  const transform = [1, 0, 0, 0, 0, c, s, -0.5 * s, 0, -s, c, -0.5 * c, 0, 0, 0, 1];
  return meshgeo.load({vertices, faces, layer: {size: [1, 1], transform}}).then(() => meshgeo.set({steps: 3, controlMesh: false}));
})()"""

EDITS = """(async () => {
  const out = [];
  for (let k = 0; k < %d; k++) {
    const started = performance.now();
    await meshgeo.setVertex(1300, {to: [0.5, 0.5, 0.02 * (k %% 2 ? 1 : -1)]});
    const s = meshgeo.stats();
    out.push({roundTrip: performance.now() - started, server: s.serverMs, triangles: s.triangles});
  }
  return out;
})()"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--meshgeo", default=os.path.join(ROOT, ".build", "release", "meshgeo"))
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--edits", type=int, default=40)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="meshgeo-bench-")
    server = subprocess.Popen([args.meshgeo, "serve", "skew", "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        url = next(word for word in line.split() if word.startswith("http://"))
        steps = [{"name": "load", "eval": RIPPLE}]
        for sort, opacity in (("none", 1), ("depth", 0.7), ("exact", 0.7)):
            steps.append({"name": f"set {sort}", "eval": f"meshgeo.set({{sort: '{sort}', opacity: {opacity}}})"})
            steps.append({"name": sort, "eval": EDITS % args.edits})
        path = os.path.join(work, "steps.json")
        with open(path, "w") as f:
            json.dump(steps, f)
        result = subprocess.run([sys.executable, DRIVER, "--chromium", args.chromium, "--url", url, "--steps", path, "--out", work],
                                capture_output=True, text=True, timeout=1200)
        report = json.loads(result.stdout)["results"]
        if "driver error" in report:
            sys.exit(f"driver: {report['driver error']}")
        print(f"one vertex edit, 50 x 50 ripple, steps 3 ({args.edits} edits each; first edit of each sort dropped)")
        print(f"{'sort':8} {'triangles':>10} {'server median':>14} {'p90':>8} {'round trip median':>18} {'p90':>8}")
        for sort in ("none", "depth", "exact"):
            runs = report[sort]
            if isinstance(runs, dict):
                print(f"{sort:8} error: {runs.get('error')}")
                continue
            runs = runs[1:]
            server_ms = sorted(r["server"] for r in runs)
            trip_ms = sorted(r["roundTrip"] for r in runs)
            p90 = lambda xs: xs[min(len(xs) - 1, int(0.9 * len(xs)))]
            print(f"{sort:8} {runs[0]['triangles']:>10} {statistics.median(server_ms):>11.1f} ms {p90(server_ms):>5.1f} ms"
                  f" {statistics.median(trip_ms):>15.1f} ms {p90(trip_ms):>5.1f} ms")
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()


if __name__ == "__main__":
    main()
