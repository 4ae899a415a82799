#!/usr/bin/env python3
"""Peer figures measured in the same minutes as `meshgeo bench` (numpy and scipy only).

    python3 scripts/peers.py            # one-thread medians, one line per figure

Docs/performance.md lists peers measured once on a machine of this kind; absolute times drift by up
to ±40% between runs on shared machines, so it compares our figures with these, taken in the same
minutes. The inputs follow the workloads of Docs/performance.md closely enough for timing:
- W1: the ripple's control grid (101 × 101 points, mirrored ends) evaluated as a tensor product of
  cubic B-spline design matrices at (100·2ⁿ + 1)² points, three coordinates (positions only);
- W2: Embree through embreex (`pip install embreex`; skipped when missing) on the steps-3 ripple
  grid (801 × 801 points, two triangles a quad): the scene build, and 1,000,000 rays along −z from
  random points over the unit square at z = 1, answered with distance, triangle and barycentric
  coordinates (embreex's `output=1`), one thread;
- W3: centroid depths of the steps-3 ripple grid (801 × 801 points, two triangles a quad) tilted
  −45° about x with m34 = −1/2; argsort of the ready keys, and a stable argsort;
- W4: scipy.linalg.solve_banded on the (1, 4, 1)/6 curve operator with pinned ends, both directions
  of the 101² and 1001² grids, three coordinates.
"""
import os
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import time
import numpy as np
import scipy.linalg
from scipy.interpolate import BSpline


# PEERS_CPU=1: time the process's CPU time instead of wall time, to compare with the CPU figure
# that `meshgeo bench` prints beside its wall time on a loaded machine (one thread either way).
clock = time.process_time if os.environ.get("PEERS_CPU") == "1" else time.perf_counter


def median_time(body, runs=7):
    body()
    times = []
    for _ in range(runs):
        t = clock()
        body()
        times.append(clock() - t)
    return sorted(times)[len(times) // 2]


def report(name, size, unit, seconds):
    print(f"{name:<26} {size:>9} {unit:<9} {seconds:.5f} s   {size / seconds / 1e6:.2f} M {unit}/s")


def w1():
    faces = 100
    x, y, z, _ = ripple_grid(faces + 1)  # the control points
    # Mirror rows 2·P₀ − P₁ on every side, then a uniform cubic B-spline over the extended grid.
    def extend(a):
        a = np.vstack([2 * a[0] - a[1], a, 2 * a[-1] - a[-2]])
        return np.hstack([2 * a[:, :1] - a[:, 1:2], a, 2 * a[:, -1:] - a[:, -2:-1]])
    control = [extend(c) for c in (x, y, z)]
    m = faces + 3
    knots = np.arange(-3, m + 1, dtype=float)  # uniform; the curve spans [0, m − 3] = [0, faces]
    for steps in (1, 2, 3, 4):
        n = faces * 2**steps + 1
        t = np.linspace(0, faces, n)
        B = BSpline.design_matrix(t, knots, 3).tocsr()
        def evaluate():
            return [B @ (B @ c.T).T for c in control]
        report(f"w1 scipy steps{steps}", n * n, "points", median_time(evaluate, runs=5 if steps < 4 else 3))


def ripple_grid(n=801):
    """The steps-3 ripple as a grid of n × n points over the unit square, two triangles a quad."""
    u = np.linspace(0, 1, n)
    x, y = np.meshgrid(u, u)
    z = 0.05 * np.sin(2 * np.pi * 4 * np.hypot(x - 0.5, y - 0.5))
    q = np.arange(n - 1)
    a = (q[:, None] * n + q[None, :]).ravel()
    tri = np.concatenate([np.stack([a, a + 1, a + n + 1], 1), np.stack([a, a + n + 1, a + n], 1)])
    return x, y, z, tri


def w2():
    try:
        from embreex import rtcore_scene
        from embreex.mesh_construction import TriangleMesh
    except ImportError:
        print("w2 embree                  skipped (pip install embreex)")
        return
    x, y, z, tri = ripple_grid()
    vertices = np.stack([x.ravel(), y.ravel(), z.ravel()], 1).astype(np.float32)
    tri = tri.astype(np.int32)
    count = 1_000_000
    origins = np.zeros((count, 3), np.float32)
    origins[:, :2] = np.random.default_rng(0x5EED).random((count, 2))
    origins[:, 2] = 1
    directions = np.zeros((count, 3), np.float32)
    directions[:, 2] = -1
    scene = None
    def build():
        nonlocal scene
        scene = rtcore_scene.EmbreeScene()
        TriangleMesh(scene, vertices, tri)
    report("w2 embree build", len(tri), "triangles", median_time(build, runs=3))
    report("w2 embree rays", count, "rays", median_time(lambda: scene.run(origins, directions, output=1), runs=3))


def w3():
    x, y, z, tri = ripple_grid()
    # Rotate −45° about x, then perspective m34 = −1/2 (w = 1 − z'/2), screen z = z'/w.
    c, s = np.cos(-np.pi / 4), np.sin(-np.pi / 4)
    y2, z2 = c * (y - 0.5) - s * z, s * (y - 0.5) + c * z
    w = 1 - z2 / 2
    depth = (z2 / w).ravel()
    keys = depth[tri].sum(axis=1) / 3
    report("w3 numpy argsort", len(keys), "triangles", median_time(lambda: np.argsort(keys)))
    report("w3 numpy stable argsort", len(keys), "triangles", median_time(lambda: np.argsort(keys, kind="stable")))


def w4():
    for points in (101, 1001):
        m = points + 1
        ab = np.zeros((3, m))
        ab[0, 1:] = 1 / 6
        ab[1, :] = 4 / 6
        ab[2, :-1] = 1 / 6
        ab[1, 0] = ab[1, -1] = 1
        ab[0, 1] = 0
        ab[2, -2] = 0
        rhs = np.random.default_rng(1).random((m, 3 * m))
        def solve():
            # Along one direction for every column of every coordinate, then the other.
            first = scipy.linalg.solve_banded((1, 1), ab, rhs)
            grid = first.reshape(m, 3, m).transpose(2, 1, 0).reshape(m, 3 * m)
            return scipy.linalg.solve_banded((1, 1), ab, grid)
        report(f"w4 scipy solve_banded n{points}", 3 * m * m, "unknowns", median_time(solve, runs=5 if points > 101 else 21))


if __name__ == "__main__":
    w1()
    w2()
    w3()
    w4()
