#!/usr/bin/env python3
"""Benchmark (not a test) of the live view: one vertex edit of the 50 × 50 ripple at steps 3.

    swift build -c release --product meshgeo
    python3 scripts/bench-live-view.py [--meshgeo .build/release/meshgeo] [--edits 40]
    python3 scripts/bench-live-view.py --server-only [--meshgeo A --meshgeo B] [--edits 60]

The ripple is that of the performance workloads (50 × 50 faces, z = 0.05·sin(2π·4·r), turned −45°
about x with m34 = −1/2 on a unit layer), at steps 3: 160,801 points, 320,000 triangles.

Page mode (the default) starts `meshgeo serve` on a free loopback port, opens the page in headless
Chromium (as the page test does), loads the ripple, then moves one vertex many times. For each
sort (none for an opaque layer; depth and exact at opacity 0.7) it prints the median and 90th
percentile of the server's time (from the Server-Timing header) and of the page's round trip (from
the edit to the frame drawn), then the median of each stage on the server and each phase in the
page.

Server-only mode sends the page's request (binary answer, points space, and like the page the
`since` tag of the answer it holds, unless --full-answers, and only the moved vertex against the
mesh the server keeps under its `Mesh-Tag`, unless --full-mesh or the server gives no tag) from this script, without a browser
competing for the cores, and prints the median of each server stage and of the whole request as
this client sees it (with the answer's transfer). Given several `--meshgeo` binaries
it starts one server for each and alternates their requests (A B A B …), so that a baseline and
a change are measured side by side under the same load.
"""
import argparse
import http.client
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DRIVER = os.path.join(ROOT, "Tests", "MeshServeTests", "Browser", "drive_page.py")
EDITED_VERTEX = 1300

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
    await meshgeo.setVertex(%d, {to: [0.5, 0.5, 0.02 * (k %% 2 ? 1 : -1)]});
    const s = meshgeo.stats();
    out.push({roundTrip: performance.now() - started, server: s.serverMs, triangles: s.triangles,
              stages: s.serverStages, phases: s.phases, sentAs: s.sentAs});
  }
  return out;
})()"""

SORTS = (("none", 1), ("depth", 0.7), ("exact", 0.7))


def ripple_mesh():
    """The same mesh as RIPPLE, as a Python object."""
    n, vertices, faces = 50, [], []
    for i in range(n + 1):
        for j in range(n + 1):
            x, y = j / n, i / n
            r = math.hypot(x - 0.5, y - 0.5)
            vertices.append({"from": [x, y], "to": [x, y, 0.05 * math.sin(2 * math.pi * 4 * r)]})
    for r in range(n):
        for c in range(n):
            a = r * (n + 1) + c
            faces.append({"indices": [a, a + 1, a + n + 2, a + n + 1]})
    c, s = math.cos(-math.pi / 4), math.sin(-math.pi / 4)
    transform = [1, 0, 0, 0, 0, c, s, -0.5 * s, 0, -s, c, -0.5 * c, 0, 0, 0, 1]
    return {"vertices": vertices, "faces": faces, "layer": {"size": [1, 1], "transform": transform}}


def server_timing(header):
    stages = {}
    for part in (header or "").split(","):
        name, _, rest = part.strip().partition(";dur=")
        if rest:
            stages[name] = float(rest)
    return stages


def p90(values):
    values = sorted(values)
    return values[min(len(values) - 1, int(0.9 * len(values)))]


def start_server(meshgeo):
    server = subprocess.Popen([meshgeo, "serve", "skew", "--port", "0"], stdout=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    url = next(word for word in line.split() if word.startswith("http://"))
    return server, url


def stop_server(server):
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()


def stage_line(label, runs, key):
    names = []
    for run in runs:
        for name in run[key]:
            if name not in names:
                names.append(name)
    parts = [f"{name} {statistics.median(run[key].get(name, 0) for run in runs):.1f}" for name in names]
    print(f"  {label}: " + ", ".join(parts) + " (ms, medians)")


def server_only(args):
    binaries = args.meshgeo or [os.path.join(ROOT, ".build", "release", "meshgeo")]
    mesh = ripple_mesh()
    servers = []
    try:
        for binary in binaries:
            server, url = start_server(binary)
            host, port = url[len("http://"):].rstrip("/").rsplit(":", 1)
            servers.append((binary, server, http.client.HTTPConnection(host, int(port), timeout=120)))
        print(f"one vertex edit, 50 x 50 ripple, steps 3, from this script ({args.edits} edits a sort and binary, alternating;"
              " the first two dropped)")
        for sort, _ in SORTS:
            runs = {binary: [] for binary in binaries}
            tags = {binary: None for binary in binaries}
            mesh_tags = {binary: None for binary in binaries}
            for k in range(args.edits + 2):
                to = [0.5, 0.5, 0.02 * (1 if k % 2 else -1)]
                mesh["vertices"][EDITED_VERTEX]["to"] = to
                for binary, _, connection in servers:
                    request = {"steps": 3, "diagonal": "shortest", "space": "points", "sort": sort, "format": "binary"}
                    # As the page does: only the moved vertex, against the mesh the server keeps.
                    if mesh_tags[binary] and not args.full_mesh:
                        request.update({"base": mesh_tags[binary], "edits": [{"vertex": EDITED_VERTEX, "to": to}]})
                    else:
                        request["mesh"] = mesh
                    # As the page does: name the answer held, so a server that keeps it sends the changes.
                    if tags[binary] and not args.full_answers:
                        request["since"] = tags[binary]
                    else:
                        request.pop("since", None)
                    body = json.dumps(request).encode()
                    started = time.perf_counter()
                    connection.request("POST", "/api/tessellate", body, {"Content-Type": "application/json"})
                    response = connection.getresponse()
                    answer = response.read()
                    wall = (time.perf_counter() - started) * 1000
                    if response.status != 200:
                        sys.exit(f"{binary}: HTTP {response.status}: {answer[:200]!r}")
                    tags[binary] = response.getheader("Mesh-Version")
                    mesh_tags[binary] = response.getheader("Mesh-Tag")
                    if k >= 2:
                        runs[binary].append({"wall": wall, "stages": server_timing(response.getheader("Server-Timing")),
                                             "bytes": len(answer), "sent": len(body),
                                             "delta": response.getheader("Mesh-Answer") == "delta"})
            for binary in binaries:
                rs = runs[binary]
                compute = [r["stages"].get("compute", 0) for r in rs]
                wall = [r["wall"] for r in rs]
                print(f"{sort:6} {os.path.relpath(binary, ROOT) if binary.startswith(ROOT) else binary}:"
                      f" server {statistics.median(compute):.1f} ms (p90 {p90(compute):.1f}),"
                      f" request with transfer {statistics.median(wall):.1f} ms (p90 {p90(wall):.1f}),"
                      f" sent {statistics.median(r['sent'] for r in rs) / 1e3:.1f} KB,"
                      f" answer {statistics.median(r['bytes'] for r in rs) / 1e6:.3f} MB (median),"
                      f" {sum(r['delta'] for r in rs)} of {len(rs)} as changes")
                stage_line("server stages", rs, "stages")
    finally:
        for _, server, connection in servers:
            connection.close()
            stop_server(server)


def page(args):
    binary = (args.meshgeo or [os.path.join(ROOT, ".build", "release", "meshgeo")])[0]
    work = tempfile.mkdtemp(prefix="meshgeo-bench-")
    server, url = start_server(binary)
    try:
        steps = [{"name": "load", "eval": RIPPLE}]
        for sort, opacity in SORTS:
            steps.append({"name": f"set {sort}", "eval": f"meshgeo.set({{sort: '{sort}', opacity: {opacity}}})"})
            steps.append({"name": sort, "eval": EDITS % (args.edits, EDITED_VERTEX)})
        path = os.path.join(work, "steps.json")
        with open(path, "w") as f:
            json.dump(steps, f)
        command = [sys.executable, DRIVER, "--chromium", args.chromium, "--url", url, "--steps", path, "--out", work]
        if args.width:
            command += ["--width", str(args.width), "--height", str(args.height)]
        result = subprocess.run(command, capture_output=True, text=True, timeout=1200)
        report = json.loads(result.stdout)["results"]
        if "driver error" in report:
            sys.exit(f"driver: {report['driver error']}")
        print(f"one vertex edit, 50 x 50 ripple, steps 3 ({args.edits} edits each; first edit of each sort dropped)")
        print(f"{'sort':8} {'triangles':>10} {'server median':>14} {'p90':>8} {'round trip median':>18} {'p90':>8}")
        for sort, _ in SORTS:
            runs = report[sort]
            if isinstance(runs, dict):
                print(f"{sort:8} error: {runs.get('error')}")
                continue
            runs = runs[1:]
            server_ms = [r["server"] for r in runs]
            trip_ms = [r["roundTrip"] for r in runs]
            edits = sum(r.get("sentAs") == "edits" for r in runs)
            print(f"{sort:8} {runs[0]['triangles']:>10} {statistics.median(server_ms):>11.1f} ms {p90(server_ms):>5.1f} ms"
                  f" {statistics.median(trip_ms):>15.1f} ms {p90(trip_ms):>5.1f} ms  ({edits} of {len(runs)} sent as edits)")
            if all("phases" in r and r["phases"] for r in runs):
                stage_line("server stages", runs, "stages")
                stage_line("page phases", runs, "phases")
    finally:
        stop_server(server)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--meshgeo", action="append", help="a meshgeo binary (repeat to alternate several: --server-only)")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--edits", type=int, default=40)
    parser.add_argument("--server-only", action="store_true", help="send the requests from this script, no browser")
    parser.add_argument("--full-answers", action="store_true",
                        help="server-only: never name the answer held (`since`), so every answer is the full one")
    parser.add_argument("--full-mesh", action="store_true",
                        help="server-only: always send the whole mesh, never only the edit against the kept one (`base`)")
    parser.add_argument("--width", type=int, help="the browser window's width (the page test's 1100 by default)")
    parser.add_argument("--height", type=int, default=720)
    args = parser.parse_args()
    if args.server_only:
        server_only(args)
    else:
        page(args)


if __name__ == "__main__":
    main()
