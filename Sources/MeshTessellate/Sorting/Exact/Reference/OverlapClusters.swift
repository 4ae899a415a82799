import SurfaceKit

/// Groups the triangles whose screen images overlap (share interior points) into clusters. Only
/// a cluster needs a BSP tree: triangles of different clusters cover disjoint parts of the screen,
/// so their relative order does not matter. Neighbours in a mesh only touch along an edge, which
/// the separating-axis test below sees exactly (both ends of the edge project to exactly 0), so an
/// unfolded surface falls apart into single triangles and costs no splitting.
enum OverlapClusters {
    /// For each triangle, the smallest triangle index of its cluster (itself when alone).
    static func clusterRoots(screen: [Point3D], triangles: [SIMD3<Int32>]) -> [Int32] {
        let n = triangles.count
        var roots = (0..<Int32(n)).map { $0 }
        guard n > 1 else { return roots }

        // 2D boxes of the triangles that cover area; zero-area (edge-on) ones cover no interior.
        var boxes = [SIMD4<Double>](repeating: .zero, count: n) // minX, minY, maxX, maxY
        var active = [Bool](repeating: false, count: n)
        var lo = SIMD2<Double>(.infinity, .infinity), hi = SIMD2<Double>(-.infinity, -.infinity)
        var sumExtent = 0.0, activeCount = 0
        for t in 0..<n {
            let (a, b, c) = corners(screen, triangles[t])
            let area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
            guard area != 0, area.isFinite else { continue }
            let mn = pointwiseMin(pointwiseMin(a, b), c), mx = pointwiseMax(pointwiseMax(a, b), c)
            boxes[t] = SIMD4(mn.x, mn.y, mx.x, mx.y)
            active[t] = true
            lo = pointwiseMin(lo, mn)
            hi = pointwiseMax(hi, mx)
            sumExtent += max(mx.x - mn.x, mx.y - mn.y)
            activeCount += 1
        }
        guard activeCount > 1 else { return roots }

        let grid = ScreenGrid(lo: lo, hi: hi, meanExtent: sumExtent / Double(activeCount), count: activeCount)
        let nx = grid.columns, ny = grid.rows
        func cellX(_ x: Double) -> Int { grid.column(x) }
        func cellY(_ y: Double) -> Int { grid.row(y) }

        // Compressed rows: cell → triangles whose box meets it; triangles without area go into
        // no cell (an empty range).
        let ranges = (0..<n).map { t in
            guard active[t] else { return SIMD4<Int32>(0, 0, -1, -1) }
            let box = boxes[t]
            return SIMD4(Int32(cellX(box.x)), Int32(cellY(box.y)), Int32(cellX(box.z)), Int32(cellY(box.w)))
        }
        // A few screen-sized triangles among many small ones would put themselves in every cell.
        // Past a few entries a triangle, every active triangle goes into one cluster instead: a
        // larger cluster than needed is still drawn exactly by its tree (whose pieces the budget
        // bounds), only with more work.
        guard let bins = grid.bin(cells: ranges, entryLimit: 8 * activeCount + (1 << 20)) else {
            guard let first = active.firstIndex(of: true) else { return roots }
            for t in 0..<n where active[t] { roots[t] = Int32(first) }
            return roots
        }
        let start = bins.start, members = bins.members

        // Roots are cluster minima (`UnionFind` links the larger root below the smaller).
        var clusters = UnionFind(count: n)
        for cy in 0..<ny {
            for cx in 0..<nx {
                let cell = cy * nx + cx
                let range = Int(start[cell])..<Int(start[cell + 1])
                for p in range {
                    let i = Int(members[p])
                    let bi = boxes[i]
                    for q in (p + 1)..<range.upperBound {
                        let j = Int(members[q])
                        let bj = boxes[j]
                        guard bi.z > bj.x, bj.z > bi.x, bi.w > bj.y, bj.w > bi.y else { continue }
                        // Test each pair once: in the cell holding the corner where the boxes start to meet,
                        // which is the larger of their first cells (cells grow with the coordinates).
                        let ci = ranges[i], cj = ranges[j]
                        guard max(ci.x, cj.x) == Int32(cx), max(ci.y, cj.y) == Int32(cy) else { continue }
                        // Already one cluster: the exact test could add nothing.
                        let ri = clusters.find(Int32(i)), rj = clusters.find(Int32(j))
                        if ri == rj { continue }
                        if interiorsOverlap(corners(screen, triangles[i]), corners(screen, triangles[j])) {
                            clusters.union(ri, rj)
                        }
                    }
                }
            }
        }
        return (0..<Int32(n)).map { clusters.find($0) }
    }

    @inline(__always)
    static func corners(_ screen: [Point3D], _ t: SIMD3<Int32>) -> (SIMD2<Double>, SIMD2<Double>, SIMD2<Double>) {
        let a = screen[Int(t.x)], b = screen[Int(t.y)], c = screen[Int(t.z)]
        return (SIMD2(a.x, a.y), SIMD2(b.x, b.y), SIMD2(c.x, c.y))
    }

    /// Whether two 2D triangles share interior points (separating axes: the six edge normals).
    /// Touching along an edge or at a corner is not overlap.
    static func interiorsOverlap(
        _ p: (SIMD2<Double>, SIMD2<Double>, SIMD2<Double>), _ q: (SIMD2<Double>, SIMD2<Double>, SIMD2<Double>)
    ) -> Bool {
        let pa = [p.0, p.1, p.2], qa = [q.0, q.1, q.2]
        for (tri, other) in [(pa, qa), (qa, pa)] {
            for k in 0..<3 {
                let e0 = tri[k], e1 = tri[(k + 1) % 3]
                let axis = SIMD2(e0.y - e1.y, e1.x - e0.x)
                // Measured from e0: both ends of the edge then project to exactly 0 (the two
                // products cancel exactly), so a neighbour across the edge is separated exactly.
                func along(_ v: SIMD2<Double>) -> Double { (axis * (v - e0)).sum() }
                let s0 = along(tri[0]), s1 = along(tri[1]), s2 = along(tri[2])
                let o0 = along(other[0]), o1 = along(other[1]), o2 = along(other[2])
                let minS = min(s0, s1, s2), maxS = max(s0, s1, s2)
                let minO = min(o0, o1, o2), maxO = max(o0, o1, o2)
                if maxS <= minO || maxO <= minS { return false }
            }
        }
        return true
    }
}
