import SurfaceKit

/// Which triangles can overlap another on screen, found without testing pairs.
///
/// The number of triangles covering a screen point x is the winding number around x of the sum of
/// all triangles' boundaries, each run counterclockwise on screen. Where two triangles share an
/// edge (by vertex indices) and lie on opposite sides of it, the edge is run once each way and
/// cancels; what is left, the residual chain R, is the mesh's border, its folds (edges whose two
/// triangles lie on the same side) and whatever a soup leaves unshared. So the cover count is
/// constant on any region that R does not cross. A triangle that R does not touch has a constant
/// count over its interior, and so does its neighbour across a cancelled edge when R does not touch
/// that one either: the count is the same over each such component, and a component covered once
/// overlaps nothing. Only the triangles R touches and the components covered twice or more can be
/// in an overlapping pair.
///
/// For a tessellated surface R is small (border and fold lines), so this costs a pass over the
/// corners and a few winding numbers; when R is large (a soup) it gives up and keeps everything.
enum ScreenCoverage {
    /// For each triangle, false when it provably overlaps no other on screen; nil when the test
    /// would cost more than it can save. `signs` are the screen-area signs (0 for triangles that
    /// cover no area, which are never candidates).
    static func candidates(screen: [Point3D], triangles: [SIMD3<Int32>], signs: [Double], scale: Double) -> [Bool]? {
        let n = triangles.count
        let vertexCount = screen.count
        // Corner and cell counts are kept in Int32.
        guard 8 * n + 1_024 < Int(Int32.max) else { return nil }
        // Corners counterclockwise on screen.
        let corners = (0..<n).map { t in
            let v = triangles[t]
            return signs[t] > 0 ? v : SIMD3(v.x, v.z, v.y)
        }

        // Triangles at each vertex (compressed rows).
        var first = [Int32](repeating: 0, count: vertexCount + 1)
        for t in 0..<n where signs[t] != 0 {
            let v = triangles[t]
            first[Int(v.x) + 1] += 1
            first[Int(v.y) + 1] += 1
            first[Int(v.z) + 1] += 1
        }
        for v in 0..<vertexCount { first[v + 1] += first[v] }
        var incident = [Int32](repeating: 0, count: Int(first[vertexCount]))
        do {
            var fill = first
            for t in 0..<n where signs[t] != 0 {
                let v = triangles[t]
                for k in 0..<3 {
                    incident[Int(fill[Int(v[k])])] = Int32(t)
                    fill[Int(v[k])] += 1
                }
            }
        }

        // Each edge's net count (runs a → b minus runs b → a); the neighbour across a cancelled
        // edge shared by exactly two triangles; and R, each edge once with its net count. Every
        // edge {v, x} is settled at its smaller end v, from the half-edges of v's triangles.
        var neighbour = [Int32](repeating: -1, count: 3 * n)
        var residual: [(a: Int32, b: Int32, weight: Int32)] = []
        corners.withUnsafeBufferPointer { corners in
            first.withUnsafeBufferPointer { first in
                incident.withUnsafeBufferPointer { incident in
                    neighbour.withUnsafeMutableBufferPointer { neighbour in
                        // Half-edges at v toward a larger x: (x, +1 for v → x or −1 for x → v, slot 3u + edge).
                        var half: [(x: Int32, run: Int32, slot: Int32)] = []
                        for v in 0..<vertexCount {
                            let lower = Int(first[v]), upper = Int(first[v + 1])
                            guard upper > lower else { continue }
                            half.removeAll(keepingCapacity: true)
                            let vv = Int32(v)
                            for p in lower..<upper {
                                let u = Int(incident[p])
                                let c = corners[u]
                                // Edge k runs corner k → corner k + 1.
                                let at = c.x == vv ? 0 : (c.y == vv ? 1 : 2)
                                let next = c[at == 2 ? 0 : at + 1], previous = c[at == 0 ? 2 : at - 1]
                                if next > vv { half.append((next, 1, Int32(3 * u + at))) }
                                if previous > vv { half.append((previous, -1, Int32(3 * u + (at == 0 ? 2 : at - 1)))) }
                            }
                            if half.count > 1 {
                                if half.count <= 16 {
                                    half.insertionSort { $0.x < $1.x }
                                } else {
                                    half.sort { ($0.x, $0.slot) < ($1.x, $1.slot) }
                                }
                            }
                            var i = 0
                            while i < half.count {
                                var j = i + 1, net = half[i].run
                                while j < half.count, half[j].x == half[i].x {
                                    net += half[j].run
                                    j += 1
                                }
                                if net != 0 {
                                    residual.append((vv, half[i].x, net))
                                } else if j - i == 2 {
                                    let (s0, s1) = (Int(half[i].slot), Int(half[i + 1].slot))
                                    neighbour[s0] = Int32(s1 / 3)
                                    neighbour[s1] = Int32(s0 / 3)
                                }
                                i = j
                            }
                        }
                    }
                }
            }
        }
        incident = []
        first = []
        guard residual.count <= n / 4 + 64 else { return nil }

        // R in a uniform grid over its own bounds, cells about its mean segment length.
        var lo = SIMD2<Double>(.infinity, .infinity), hi = SIMD2<Double>(-.infinity, -.infinity)
        var sumLength = 0.0
        for s in residual {
            let p = screen[Int(s.a)], q = screen[Int(s.b)]
            lo = pointwiseMin(lo, pointwiseMin(SIMD2(p.x, p.y), SIMD2(q.x, q.y)))
            hi = pointwiseMax(hi, pointwiseMax(SIMD2(p.x, p.y), SIMD2(q.x, q.y)))
            sumLength += max(abs(q.x - p.x), abs(q.y - p.y))
        }
        var flagged = [Bool](repeating: false, count: n)
        // Orientations within this of zero count as touching: the test only has to be conservative.
        let touch = 1e-12 * scale * scale
        if !residual.isEmpty {
            let grid = ScreenGrid(lo: lo, hi: hi, meanExtent: sumLength / Double(residual.count), count: residual.count, density: 4)
            let nx = grid.columns, ny = grid.rows
            @inline(__always) func cellX(_ x: Double) -> Int { grid.column(x) }
            @inline(__always) func cellY(_ y: Double) -> Int { grid.row(y) }
            var start = [Int32](repeating: 0, count: nx * ny + 1)
            var total = 0
            for s in residual {
                let p = screen[Int(s.a)], q = screen[Int(s.b)]
                let x0 = cellX(min(p.x, q.x)), x1 = cellX(max(p.x, q.x)), y0 = cellY(min(p.y, q.y)), y1 = cellY(max(p.y, q.y))
                total += (x1 - x0 + 1) * (y1 - y0 + 1)
                guard total <= 8 * n + 1_024 else { return nil }
                for y in y0...y1 { for x in x0...x1 { start[y * nx + x + 1] += 1 } }
            }
            for c in 0..<(nx * ny) { start[c + 1] += start[c] }
            var fill = start
            var members = [Int32](repeating: 0, count: total)
            for (index, s) in residual.enumerated() {
                let p = screen[Int(s.a)], q = screen[Int(s.b)]
                for y in cellY(min(p.y, q.y))...cellY(max(p.y, q.y)) {
                    for x in cellX(min(p.x, q.x))...cellX(max(p.x, q.x)) {
                        members[Int(fill[y * nx + x])] = Int32(index)
                        fill[y * nx + x] += 1
                    }
                }
            }
            // A triangle is touched when a segment of R meets it (closed), other than its own edges and
            // segments that leave one of its corners outside its angle there.
            screen.withUnsafeBufferPointer { screen in
                start.withUnsafeBufferPointer { start in
                    members.withUnsafeBufferPointer { members in
                        flagged.withUnsafeMutableBufferPointer { flagged in
                            for t in 0..<n where signs[t] != 0 {
                                let c = corners[t]
                                let a = screen[Int(c.x)], b = screen[Int(c.y)], d = screen[Int(c.z)]
                                let mnx = min(a.x, b.x, d.x), mxx = max(a.x, b.x, d.x)
                                let mny = min(a.y, b.y, d.y), mxy = max(a.y, b.y, d.y)
                                guard mxx >= lo.x, mnx <= hi.x, mxy >= lo.y, mny <= hi.y else { continue }
                                search: for y in cellY(mny)...cellY(mxy) {
                                    for x in cellX(mnx)...cellX(mxx) {
                                        for m in Int(start[y * nx + x])..<Int(start[y * nx + x + 1]) {
                                            let s = residual[Int(members[m])]
                                            if touches(s.a, s.b, c, screen, touch) {
                                                flagged[t] = true
                                                break search
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }

        // Components of untouched triangles joined across cancelled edges; one cover count each.
        var components = UnionFind(count: n)
        var roots = 0
        for t in 0..<n where signs[t] != 0 && !flagged[t] {
            for k in 0..<3 {
                let u = neighbour[3 * t + k]
                guard u > Int32(t), !flagged[Int(u)] else { continue }
                components.union(u, Int32(t))
            }
        }
        for t in 0..<n where signs[t] != 0 && !flagged[t] && components.find(Int32(t)) == Int32(t) { roots += 1 }
        guard roots * residual.count <= 64 * n + 65_536 else { return nil }
        // The cover count of each component: the winding number of R around its root's centroid.
        var covered = [Int32](repeating: 0, count: n)
        for t in 0..<n where signs[t] != 0 && !flagged[t] && components.find(Int32(t)) == Int32(t) {
            let v = triangles[t]
            let centre = (screen[Int(v.x)] + screen[Int(v.y)] + screen[Int(v.z)]) / 3
            var winding: Int32 = 0
            for s in residual {
                let p = screen[Int(s.a)], q = screen[Int(s.b)]
                let side = (q.x - p.x) * (centre.y - p.y) - (q.y - p.y) * (centre.x - p.x)
                if p.y <= centre.y && centre.y < q.y && side > 0 { winding += s.weight }
                if q.y <= centre.y && centre.y < p.y && side < 0 { winding -= s.weight }
            }
            covered[t] = winding
        }
        var result = [Bool](repeating: false, count: n)
        for t in 0..<n where signs[t] != 0 {
            result[t] = flagged[t] || covered[Int(components.find(Int32(t)))] != 1
        }
        return result
    }

    /// Whether segment a → b meets the closed triangle `c` (counterclockwise corners), up to `touch`
    /// in the orientations (so it may say yes when the segment only passes near). The triangle's own
    /// edges never count; a segment from one of its corners counts only if it leaves the corner
    /// into or along the triangle.
    @inline(__always)
    private static func touches(
        _ a: Int32, _ b: Int32, _ c: SIMD3<Int32>, _ screen: UnsafeBufferPointer<Point3D>, _ touch: Double
    ) -> Bool {
        let sharedA = c.x == a || c.y == a || c.z == a, sharedB = c.x == b || c.y == b || c.z == b
        if sharedA && sharedB { return false }
        if sharedA || sharedB {
            let (v, w) = sharedA ? (a, b) : (b, a)
            let at = c.x == v ? 0 : (c.y == v ? 1 : 2)
            let pv = screen[Int(v)], pw = screen[Int(w)]
            let next = screen[Int(c[(at + 1) % 3])], previous = screen[Int(c[(at + 2) % 3])]
            // Inside the angle at v (closed, with the tolerance): left of v → next, right of v → previous.
            return orient(pv, next, pw) >= -touch && orient(pv, previous, pw) <= touch
        }
        let p = screen[Int(a)], q = screen[Int(b)]
        let t0 = screen[Int(c.x)], t1 = screen[Int(c.y)], t2 = screen[Int(c.z)]
        // Separated by one of the triangle's edge lines (the triangle is on their left)…
        if orient(t0, t1, p) < -touch && orient(t0, t1, q) < -touch { return false }
        if orient(t1, t2, p) < -touch && orient(t1, t2, q) < -touch { return false }
        if orient(t2, t0, p) < -touch && orient(t2, t0, q) < -touch { return false }
        // … or by the segment's own line.
        let s0 = orient(p, q, t0), s1 = orient(p, q, t1), s2 = orient(p, q, t2)
        if s0 > touch && s1 > touch && s2 > touch { return false }
        if s0 < -touch && s1 < -touch && s2 < -touch { return false }
        return true
    }

    @inline(__always)
    private static func orient(_ a: Point3D, _ b: Point3D, _ c: Point3D) -> Double {
        (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
    }
}
