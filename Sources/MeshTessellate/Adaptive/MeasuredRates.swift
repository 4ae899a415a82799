import SurfaceKit

/// Lowers a patch cell's estimated rates by measuring candidate grids on the patch itself.
///
/// The estimate from sampled second derivatives (``CellRates/rates(samples:policy:tolerance:)``)
/// carries margins and rounds each direction up on its own, so it often asks for a grid a size
/// or two denser than the surface needs. Here the candidates with fewer squares are drawn as the
/// build draws a cell whose sides carry its own samples (``AdaptiveLayout/Kind/grid``): every
/// square split by the diagonal policy, each triangle measured at its centroid and edge
/// midpoints, the points the verification measures. The first candidate, by number of squares,
/// that measures within the target is taken. This is a choice, not a proof: the verification
/// after building measures every triangle as built (a cell joined by a ring to denser
/// neighbours included) and densifies what misses.
struct MeasuredRates {
    let patch: RationalPatch
    let scale: SIMD3<Double>
    let policy: DiagonalPolicy

    /// Estimates with more squares than this keep the estimate: measuring costs about ten patch
    /// evaluations a square per candidate, and the rounding the search recovers matters most
    /// for small rates.
    static let largestSearch = 64
    /// Candidates measured at most per cell, so a cell costs a bounded number of evaluations.
    static let mostCandidates = 12

    func point(_ u: Double, _ v: Double) -> Point3D { patch.position(u: u, v: v) * scale }

    /// The nu × nv grid's (nu + 1)(nv + 1) points, row by row from v = 0, at the parameters
    /// (i·(1/nu), j·(1/nv)).
    func gridPoints(nu: Int, nv: Int) -> [Point3D] {
        let du = 1 / Double(nu), dv = 1 / Double(nv)
        var grid = [Point3D]()
        grid.reserveCapacity((nu + 1) * (nv + 1))
        for j in 0...nv {
            for i in 0...nu { grid.append(point(Double(i) * du, Double(j) * dv)) }
        }
        return grid
    }

    static func distance(_ a: Point3D, _ b: Point3D) -> Double {
        let d = a - b
        return (d * d).sum().squareRoot()
    }

    /// The largest deviation of the grid's sides' own edges along v = 0 and v = 1 with nu
    /// columns: every grid of nu columns has these edges, so no nv does better.
    func rowsDeviation(nu: Int) -> Double {
        var worst = 0.0
        for v in [0.0, 1.0] {
            var previous = point(0, v)
            for i in 1...nu {
                let next = point(Double(i) / Double(nu), v)
                worst = max(worst, MeasuredRates.distance(point((Double(i) - 0.5) / Double(nu), v), (previous + next) / 2))
                previous = next
            }
        }
        return worst
    }

    /// The same along u = 0 and u = 1 with nv rows.
    func columnsDeviation(nv: Int) -> Double {
        var worst = 0.0
        for u in [0.0, 1.0] {
            var previous = point(u, 0)
            for j in 1...nv {
                let next = point(u, Double(j) / Double(nv))
                worst = max(worst, MeasuredRates.distance(point(u, (Double(j) - 0.5) / Double(nv)), (previous + next) / 2))
                previous = next
            }
        }
        return worst
    }

    /// Whether every triangle of the nu × nv grid, split by the policy, is within `target` at its
    /// centroid and edge midpoints. Stops at the first point over.
    func fits(nu: Int, nv: Int, target: Double) -> Bool {
        let du = 1 / Double(nu), dv = 1 / Double(nv)
        let grid = gridPoints(nu: nu, nv: nv)
        func at(_ i: Int, _ j: Int) -> Int32 { Int32(truncatingIfNeeded: j * (nu + 1) + i) }
        func within(_ u: Double, _ v: Double, _ linear: Point3D) -> Bool {
            MeasuredRates.distance(point(u, v), linear) <= target
        }
        // Edges along u, then along v: shared by the triangles on either side.
        for j in 0...nv {
            for i in 0..<nu where !within((Double(i) + 0.5) * du, Double(j) * dv, (grid[Int(at(i, j))] + grid[Int(at(i + 1, j))]) / 2) {
                return false
            }
        }
        for j in 0..<nv {
            for i in 0...nu where !within(Double(i) * du, (Double(j) + 0.5) * dv, (grid[Int(at(i, j))] + grid[Int(at(i, j + 1))]) / 2) {
                return false
            }
        }
        for j in 0..<nv {
            for i in 0..<nu {
                let u0 = Double(i) * du, v0 = Double(j) * dv
                let corners = SIMD4(at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1))
                let p = (0..<4).map { grid[Int(corners[$0])] }
                if policy.needsCenters {
                    let m = point(u0 + du / 2, v0 + dv / 2)
                    if policy == .center {
                        // Four triangles to the centre: their centroids and the half-diagonals.
                        let uv = [SIMD2(u0, v0), SIMD2(u0 + du, v0), SIMD2(u0 + du, v0 + dv), SIMD2(u0, v0 + dv)]
                        let mid = SIMD2(u0 + du / 2, v0 + dv / 2)
                        for k in 0..<4 {
                            let h = (uv[k] + mid) / 2
                            guard within(h.x, h.y, (p[k] + m) / 2) else { return false }
                            let g = (uv[k] + uv[(k + 1) % 4] + mid) / 3
                            guard within(g.x, g.y, (p[k] + p[(k + 1) % 4] + m) / 3) else { return false }
                        }
                        continue
                    }
                    let first = Tessellator.useFirstDiagonal(policy: policy, corners: corners, points: grid, center: m)
                    guard quadFits(u0, v0, du, dv, p, first: first, target: target) else { return false }
                } else {
                    let first = Tessellator.useFirstDiagonal(policy: policy, corners: corners, points: grid, center: nil)
                    guard quadFits(u0, v0, du, dv, p, first: first, target: target) else { return false }
                }
            }
        }
        return true
    }

    /// Whether every triangle of the nu × nv grid, split by the policy, is within `target` at the
    /// ten points the verification after building measures (``CellStitcher/measuredPoints``).
    /// ``fits(nu:nv:target:)`` rejects most candidates at four points a triangle; this confirms
    /// the one taken, so a cell drawn as this grid is not found over τ after building (which
    /// would densify it and, through its sides, its neighbours).
    func fitsEverywhere(nu: Int, nv: Int, target: Double) -> Bool {
        let du = 1 / Double(nu), dv = 1 / Double(nv)
        func at(_ i: Int, _ j: Int) -> Point3D { point(Double(i) * du, Double(j) * dv) }
        func triangleFits(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ c: SIMD2<Double>, _ pa: Point3D, _ pb: Point3D, _ pc: Point3D) -> Bool {
            for w in CellStitcher.measuredPoints {
                let uv = w.x * a + w.y * b + w.z * c
                guard MeasuredRates.distance(point(uv.x, uv.y), w.x * pa + w.y * pb + w.z * pc) <= target else { return false }
            }
            return true
        }
        var below = (0...nu).map { at($0, 0) }
        for j in 0..<nv {
            let above = (0...nu).map { at($0, j + 1) }
            for i in 0..<nu {
                let uv = [
                    SIMD2(Double(i) * du, Double(j) * dv), SIMD2(Double(i + 1) * du, Double(j) * dv),
                    SIMD2(Double(i + 1) * du, Double(j + 1) * dv), SIMD2(Double(i) * du, Double(j + 1) * dv),
                ]
                let p = [below[i], below[i + 1], above[i + 1], above[i]]
                if policy == .center {
                    let mid = (uv[0] + uv[2]) / 2
                    let m = point(mid.x, mid.y)
                    for k in 0..<4 where !triangleFits(uv[k], uv[(k + 1) % 4], mid, p[k], p[(k + 1) % 4], m) { return false }
                    continue
                }
                let first = Tessellator.useFirstDiagonal(
                    policy: policy, corners: SIMD4(0, 1, 2, 3), points: p,
                    center: policy.needsCenters ? point((uv[0].x + uv[2].x) / 2, (uv[0].y + uv[2].y) / 2) : nil)
                if first {
                    guard triangleFits(uv[0], uv[1], uv[2], p[0], p[1], p[2]), triangleFits(uv[0], uv[2], uv[3], p[0], p[2], p[3]) else {
                        return false
                    }
                } else {
                    guard triangleFits(uv[0], uv[1], uv[3], p[0], p[1], p[3]), triangleFits(uv[1], uv[2], uv[3], p[1], p[2], p[3]) else {
                        return false
                    }
                }
            }
            below = above
        }
        return true
    }

    /// A square's diagonal midpoint and its two triangles' centroids.
    func quadFits(_ u0: Double, _ v0: Double, _ du: Double, _ dv: Double, _ p: [Point3D], first: Bool, target: Double) -> Bool {
        func within(_ u: Double, _ v: Double, _ linear: Point3D) -> Bool {
            MeasuredRates.distance(point(u, v), linear) <= target
        }
        if first {
            return within(u0 + du / 2, v0 + dv / 2, (p[0] + p[2]) / 2)
                && within(u0 + 2 * du / 3, v0 + dv / 3, (p[0] + p[1] + p[2]) / 3)
                && within(u0 + du / 3, v0 + 2 * dv / 3, (p[0] + p[2] + p[3]) / 3)
        }
        return within(u0 + du / 2, v0 + dv / 2, (p[1] + p[3]) / 2)
            && within(u0 + du / 3, v0 + dv / 3, (p[0] + p[1] + p[3]) / 3)
            && within(u0 + 2 * du / 3, v0 + 2 * dv / 3, (p[1] + p[2] + p[3]) / 3)
    }

    /// The fewest squares, from candidates with fewer squares than `estimate`, whose grid
    /// measures within `target`; the estimate when none does (or it is too large to search).
    func lowered(_ estimate: SIMD2<Int>, target: Double) -> SIMD2<Int> {
        let product = estimate.x * estimate.y
        guard product > 1, product <= MeasuredRates.largestSearch else { return estimate }
        // Each direction at most one more than the estimate's: a longer, thinner grid than that
        // rarely has fewer squares that fit.
        var candidates: [SIMD2<Int>] = []
        for nu in 1...(estimate.x + 1) {
            for nv in 1...(estimate.y + 1) where nu * nv < product { candidates.append(SIMD2(nu, nv)) }
        }
        candidates.sort { ($0.x * $0.y, abs($0.x - $0.y)) < ($1.x * $1.y, abs($1.x - $1.y)) }
        var rows = [Double?](repeating: nil, count: estimate.x + 2)
        var columns = [Double?](repeating: nil, count: estimate.y + 2)
        var measured = 0
        for candidate in candidates {
            // The sides' own edges bound every grid with these columns (rows) from below.
            let r = rows[candidate.x] ?? rowsDeviation(nu: candidate.x)
            rows[candidate.x] = r
            guard r <= target else { continue }
            let c = columns[candidate.y] ?? columnsDeviation(nv: candidate.y)
            columns[candidate.y] = c
            guard c <= target else { continue }
            if fits(nu: candidate.x, nv: candidate.y, target: target),
                fitsEverywhere(nu: candidate.x, nv: candidate.y, target: target)
            {
                return candidate
            }
            measured += 1
            if measured >= MeasuredRates.mostCandidates { break }
        }
        return estimate
    }

    /// The largest distance of the nu × nv grid's triangles, split by the policy, measured as
    /// the build measures them (``CellStitcher/measured(uv:points:on:scale:mark:)``); once
    /// over `mark`, some distance over it.
    func measuredAsBuilt(nu: Int, nv: Int, mark: Double) -> Double {
        let du = 1 / Double(nu), dv = 1 / Double(nv)
        let grid = gridPoints(nu: nu, nv: nv)
        var worst = 0.0
        for j in 0..<nv {
            for i in 0..<nu {
                let uv = [
                    SIMD2(Double(i) * du, Double(j) * dv), SIMD2(Double(i + 1) * du, Double(j) * dv),
                    SIMD2(Double(i + 1) * du, Double(j + 1) * dv), SIMD2(Double(i) * du, Double(j + 1) * dv),
                ]
                let corners = SIMD4(
                    Int32(j * (nu + 1) + i), Int32(j * (nu + 1) + i + 1), Int32((j + 1) * (nu + 1) + i + 1), Int32((j + 1) * (nu + 1) + i))
                let p = (0..<4).map { grid[Int(corners[$0])] }
                func triangle(_ a: Int, _ b: Int, _ c: Int) {
                    worst = max(
                        worst,
                        CellStitcher.measured(uv: (uv[a], uv[b], uv[c]), points: (p[a], p[b], p[c]), on: patch, scale: scale, mark: mark))
                }
                let mid = SIMD2((Double(i) + 0.5) * du, (Double(j) + 0.5) * dv)
                let m: Point3D? = policy.needsCenters ? point(mid.x, mid.y) : nil
                if policy == .center, let m {
                    for k in 0..<4 {
                        worst = max(
                            worst,
                            CellStitcher.measured(
                                uv: (uv[k], uv[(k + 1) % 4], mid), points: (p[k], p[(k + 1) % 4], m), on: patch, scale: scale, mark: mark))
                    }
                } else if Tessellator.useFirstDiagonal(policy: policy, corners: corners, points: grid, center: m) {
                    triangle(0, 1, 2)
                    triangle(0, 2, 3)
                } else {
                    triangle(0, 1, 3)
                    triangle(1, 2, 3)
                }
                if !(worst <= mark) { return worst }
            }
        }
        return worst
    }
}
