import SurfaceKit

/// The occlusion relation of the exact sort: for every pair of triangles whose screen images share
/// interior points, which one is nearer (larger screen z) over the whole shared region, or that
/// neither is (they cross in 3D inside it).
struct OcclusionPairs: Sendable {
    /// Edges of the occlusion graph: `back[k]` must be drawn before `front[k]`.
    var back: [Int32] = []
    var front: [Int32] = []
    /// Pairs whose screen images share interior points.
    var overlappingPairs = 0
    /// Overlapping pairs whose depth order changes inside the overlap; each gives an edge both
    /// ways, so the two end up in one strongly connected component (which is split).
    var crossingPairs = 0
    /// Clusters of two or more triangles connected by overlap, and the largest.
    var clusters = 0
    var largestCluster = 0
}

/// Finds the pairs of triangles that overlap on screen and orders each pair.
///
/// Candidates come from a uniform grid over the screen boxes; each pair is tested once, in the cell
/// holding the corner where the two boxes start to meet. The overlap test is exact where it matters
/// for a mesh: neighbours sharing an edge overlap only when their third corners lie on the same side
/// of it, neighbours sharing a corner only when their angles at it overlap, and all orientations are
/// measured from shared corners, so a shared corner or edge contributes exact zeros. Other pairs
/// take the separating-axis test over the six edge lines.
///
/// For an overlapping pair (p, q) the overlap polygon is p clipped by q's three edge lines, carrying
/// d = z_p − z_q, the depth difference, which is affine on screen (both triangles stay planar after
/// the perspective divide). If d keeps one sign at all the polygon's corners it keeps it over the
/// whole overlap, and that decides the pair; values within 1e-12 × the pair's size of zero count as
/// zero (shared corners and edges give zero up to rounding).
enum PairOcclusion {
    enum Relation {
        case apart, level, firstInFront, secondInFront, crossing

        /// The edge "back before front" of the occlusion graph for the pair (i, j) that this
        /// relation describes, when it orders them one way (nil for apart, level and crossing).
        @inline(__always)
        func backAndFront(_ i: Int32, _ j: Int32) -> (back: Int32, front: Int32)? {
            switch self {
            case .firstInFront: (j, i)
            case .secondInFront: (i, j)
            case .apart, .level, .crossing: nil
            }
        }
    }

    /// The occlusions of `triangles`, or nil when more than `limit` pairs overlap (the caller then
    /// falls back to a sort whose memory does not grow with the pairs).
    /// Unless `screened` is false, triangles that `OverlapCandidates` finds overlap nothing are left out
    /// of the pair search first (the result is the same; tests compare both).
    static func occlusions(screen: [Point3D], triangles: [SIMD3<Int32>], limit: Int, screened: Bool = true) -> OcclusionPairs? {
        let result = OcclusionPairs()
        let n = triangles.count
        guard n > 1 else { return result }
        // Triangles are numbered in Int32 below; beyond that the caller's fallback decides.
        guard n < Int(Int32.max) else { return nil }

        // The sign of each triangle's screen area; 0 for those that cover none (edge-on, or not
        // finite), which take part in no pair.
        var sign = ScreenOrientation.signs(screen: screen, triangles: triangles)
        var lo = SIMD2<Double>(.infinity, .infinity), hi = SIMD2<Double>(-.infinity, -.infinity)
        screen.withUnsafeBufferPointer { s in
            for t in 0..<n where sign[t] != 0 {
                let tri = triangles[t]
                let a = s[Int(tri.x)], b = s[Int(tri.y)], c = s[Int(tri.z)]
                lo = SIMD2(min(lo.x, a.x, b.x, c.x), min(lo.y, a.y, b.y, c.y))
                hi = SIMD2(max(hi.x, a.x, b.x, c.x), max(hi.y, a.y, b.y, c.y))
            }
        }
        guard lo.x <= hi.x else { return result }
        // Triangles that provably overlap nothing take part in no pair either. The touch
        // tolerance's scale: the larger side of the bounds of the triangles with area.
        if screened {
            let candidates = screen.withUnsafeBufferPointer { s in
                triangles.withUnsafeBufferPointer { tris in
                    sign.withUnsafeBufferPointer { sign in
                        OverlapCandidates.candidateList(screen: s, triangles: tris, signs: sign, scale: max(hi.x - lo.x, hi.y - lo.y))
                    }
                }
            }
            if let candidates {
                var kept = [Int8](repeating: 0, count: n)
                for t in candidates { kept[Int(t)] = sign[Int(t)] }
                sign = kept
            }
        }

        // Screen boxes of the candidates, in Float rounded outward: a box test only filters, so it
        // may pass more but never fewer pairs.
        // Arrays by slot: the candidates in index order.
        var list: [Int32] = []
        var boxes: [SIMD4<Float>] = [] // minX, minY, maxX, maxY
        // The same along the diagonals (x + y, x − y): thin slanted triangles have loose boxes.
        var diagonals: [SIMD4<Float>] = []
        lo = SIMD2<Double>(.infinity, .infinity)
        hi = SIMD2<Double>(-.infinity, -.infinity)
        var sumExtent = 0.0, activeCount = 0
        screen.withUnsafeBufferPointer { s in
            for t in 0..<n where sign[t] != 0 {
                let tri = triangles[t]
                let a = s[Int(tri.x)], b = s[Int(tri.y)], c = s[Int(tri.z)]
                let mnx = min(a.x, b.x, c.x), mny = min(a.y, b.y, c.y)
                let mxx = max(a.x, b.x, c.x), mxy = max(a.y, b.y, c.y)
                list.append(Int32(t))
                boxes.append(SIMD4(Float.roundedDown(mnx), Float.roundedDown(mny), Float.roundedUp(mxx), Float.roundedUp(mxy)))
                let (sa, sb, sc) = (a.x + a.y, b.x + b.y, c.x + c.y), (da, db, dc) = (a.x - a.y, b.x - b.y, c.x - c.y)
                diagonals.append(
                    SIMD4(
                        Float.roundedDown(min(sa, sb, sc)), Float.roundedDown(min(da, db, dc)), Float.roundedUp(max(sa, sb, sc)),
                        Float.roundedUp(max(da, db, dc))))
                lo = SIMD2(min(lo.x, mnx), min(lo.y, mny))
                hi = SIMD2(max(hi.x, mxx), max(hi.y, mxy))
                sumExtent += max(mxx - mnx, mxy - mny)
                activeCount += 1
            }
        }
        guard activeCount > 1 else { return result }

        let grid = ScreenGrid(lo: lo, hi: hi, meanExtent: sumExtent / Double(activeCount), count: activeCount)
        let nx = grid.columns, ny = grid.rows
        @inline(__always) func cellX(_ x: Float) -> Int { grid.column(Double(x)) }
        @inline(__always) func cellY(_ y: Float) -> Int { grid.row(Double(y)) }

        // Compressed rows: cell → triangles whose box meets it.
        // A few screen-sized triangles among many small ones would put themselves in every cell,
        // so past a few entries a triangle (and the pair limit) the search gives up before
        // allocating or visiting them.
        let entryLimit = min(Int(Int32.max) - 1, 8 * activeCount + min(limit, Int(Int32.max)))
        let ranges = boxes.map { box in
            SIMD4(Int32(cellX(box.x)), Int32(cellY(box.y)), Int32(cellX(box.z)), Int32(cellY(box.w)))
        }
        guard let bins = grid.bin(cells: ranges, entryLimit: entryLimit) else { return nil }
        let start = bins.start
        var members = bins.members
        let total = members.count
        // The boxes again in cell order, so that the box tests read memory in sequence.
        var cellBoxes = [SIMD4<Float>](unsafeUninitializedCapacity: total) { cellBoxes, initialized in
            members.withUnsafeBufferPointer { members in
                boxes.withUnsafeBufferPointer { boxes in
                    for e in 0..<total { cellBoxes[e] = boxes[Int(members[e])] }
                }
            }
            initialized = total
        }
        // Each cell's members by the left side of their boxes, so a sweep stops at the first box
        // that starts right of the current one's end (insertion sort: cells are small).
        members.withUnsafeMutableBufferPointer { members in
            cellBoxes.withUnsafeMutableBufferPointer { boxes in
                for cell in 0..<(nx * ny) {
                    let lower = Int(start[cell]), upper = Int(start[cell + 1])
                    guard upper - lower > 1 else { continue }
                    for i in (lower + 1)..<upper {
                        let (m, b) = (members[i], boxes[i])
                        var j = i
                        while j > lower, boxes[j - 1].x > b.x {
                            members[j] = members[j - 1]
                            boxes[j] = boxes[j - 1]
                            j -= 1
                        }
                        members[j] = m
                        boxes[j] = b
                    }
                }
            }
        }
        let found: OcclusionPairs? = screen.withUnsafeBufferPointer { s in
            triangles.withUnsafeBufferPointer { tris in
                cellBoxes.withUnsafeBufferPointer { boxes in
                    diagonals.withUnsafeBufferPointer { diagonals in
                        list.withUnsafeBufferPointer { list in
                            ranges.withUnsafeBufferPointer { ranges in
                                members.withUnsafeBufferPointer { members in
                                    start.withUnsafeBufferPointer { start in
                                        var found = OcclusionPairs()
                                        // Overlap clusters, for the statistics (roots are cluster minima).
                                        var clusters = UnionFind(count: list.count)
                                        for cy in 0..<ny {
                                            for cx in 0..<nx {
                                                let cell = cy * nx + cx
                                                let range = Int(start[cell])..<Int(start[cell + 1])
                                                for p in range {
                                                    let si = Int(members[p])
                                                    let i = Int(list[si])
                                                    let bi = boxes[p]
                                                    let ri = ranges[si]
                                                    for q in (p + 1)..<range.upperBound {
                                                        let sj = Int(members[q])
                                                        let bj = boxes[q]
                                                        // Sorted by left side: bj.x ≥ bi.x, and no later box can reach bi.
                                                        if bj.x >= bi.z { break }
                                                        guard bi.w > bj.y, bj.w > bi.y else { continue }
                                                        // Each pair once: in the cell holding the corner where the boxes start to meet.
                                                        // Cells grow with the coordinates, so that corner's cell is the larger of
                                                        // the two boxes' first cells, computed once per box for the binning.
                                                        let rj = ranges[sj]
                                                        guard max(ri.x, rj.x) == Int32(cx), max(ri.y, rj.y) == Int32(cy) else { continue }
                                                        let di = diagonals[si], dj = diagonals[sj]
                                                        guard di.z >= dj.x, dj.z >= di.x, di.w >= dj.y, dj.w >= di.y else { continue }
                                                        let j = Int(list[sj])
                                                        let relation = relation(
                                                            tris[i], tris[j], s, signs: (Double(sign[i]), Double(sign[j])))
                                                        if relation == .apart { continue }
                                                        found.overlappingPairs += 1
                                                        let (a, b) = (Int32(i), Int32(j))
                                                        if let (back, front) = relation.backAndFront(a, b) {
                                                            found.back.append(back)
                                                            found.front.append(front)
                                                        } else if relation == .crossing {
                                                            // Tied both ways: no order of the whole triangles draws them right.
                                                            found.crossingPairs += 1
                                                            found.back += [a, b]
                                                            found.front += [b, a]
                                                        }
                                                        clusters.union(Int32(si), Int32(sj))
                                                        if found.overlappingPairs > limit { return nil }
                                                    }
                                                }
                                            }
                                        }
                                        (found.clusters, found.largestCluster) = clusters.groups()
                                        return found
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return found
    }

    @inline(__always)
    static func orient(_ a: Point3D, _ b: Point3D, _ c: Point3D) -> Double {
        (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
    }

    /// How triangles `ti` and `tj` (active, with screen-area signs `signs`) relate on screen.
    @inline(__always)
    static func relation(
        _ ti: SIMD3<Int32>, _ tj: SIMD3<Int32>, _ s: UnsafeBufferPointer<Point3D>, signs: (Double, Double)
    ) -> Relation {
        // Shared corners, by index: bit k of `inI` / `inJ` when corner k is shared.
        // Written out (nine comparisons, no loops): most pairs tested are mesh neighbours.
        let xx = ti.x == tj.x, xy = ti.x == tj.y, xz = ti.x == tj.z
        let yx = ti.y == tj.x, yy = ti.y == tj.y, yz = ti.y == tj.z
        let zx = ti.z == tj.x, zy = ti.z == tj.y, zz = ti.z == tj.z
        let i0 = xx || xy || xz, i1 = yx || yy || yz, i2 = zx || zy || zz
        let inI = (i0 ? 1 : 0) | (i1 ? 2 : 0) | (i2 ? 4 : 0)
        let inJ = (xx || yx || zx ? 1 : 0) | (xy || yy || zy ? 2 : 0) | (xz || yz || zz ? 4 : 0)
        let shared = (i0 ? 1 : 0) + (i1 ? 1 : 0) + (i2 ? 1 : 0)
        let p = (s[Int(ti.x)], s[Int(ti.y)], s[Int(ti.z)])
        let q = (s[Int(tj.x)], s[Int(tj.y)], s[Int(tj.z)])
        switch shared {
        case 3:
            return .level // the same triangle twice: either order draws the same
        case 2:
            // Neighbours across an edge: they overlap only when the third corners are on one side.
            // (Not decided from the signs and the way the edge is run: a sign the rounding got
            // wrong would hide a fold; the ranked order's sweep does so only for signs it knows.)
            let k = (~inI & 7).trailingZeroBitCount
            let m = (~inJ & 7).trailingZeroBitCount
            let a = corner(p, (k + 1) % 3), b = corner(p, (k + 2) % 3)
            let oi = orient(a, b, corner(p, k)), oj = orient(a, b, corner(q, m))
            guard (oi > 0 && oj > 0) || (oi < 0 && oj < 0) else { return .apart }
            // Both planes hold the shared edge, so d = z_p − z_q is zero along its line and keeps
            // one sign on the side where the overlap lies: the sign at p's third corner.
            return decide(min: height(corner(p, k), over: q), max: height(corner(p, k), over: q), p, q)
        case 1:
            // Neighbours at a corner v: they overlap only when their angles at v overlap, and two
            // angles below π are apart exactly when a line along one of their four sides separates them.
            let k = inI.trailingZeroBitCount, m = inJ.trailingZeroBitCount
            let v = corner(p, k), a = corner(p, (k + 1) % 3), b = corner(p, (k + 2) % 3)
            let c = corner(q, (m + 1) % 3), e = corner(q, (m + 2) % 3)
            let si = orient(v, a, b), sj = orient(v, c, e)
            guard si != 0, sj != 0 else { return .apart }
            if apartAtCorner(v, a, b, si, c, e) || apartAtCorner(v, c, e, sj, a, b) { return .apart }
            // d = z_p − z_q is zero at v and linear along each ray from v. The overlap is a
            // polygon with a corner at v inside the angle where the two angles overlap, which is
            // bounded by the sides of either triangle that lie within the other's angle: the sign
            // of d on those two sides (at their far corners) is its sign over the whole overlap.
            var minD = Double.infinity, maxD = -Double.infinity, sides = 0
            if sj * orient(v, c, a) >= 0 && sj * orient(v, e, a) <= 0 {
                let d = height(a, over: q)
                (minD, maxD, sides) = (min(minD, d), max(maxD, d), sides + 1)
            }
            if sj * orient(v, c, b) >= 0 && sj * orient(v, e, b) <= 0 {
                let d = height(b, over: q)
                (minD, maxD, sides) = (min(minD, d), max(maxD, d), sides + 1)
            }
            if si * orient(v, a, c) >= 0 && si * orient(v, b, c) <= 0 {
                let d = -height(c, over: p)
                (minD, maxD, sides) = (min(minD, d), max(maxD, d), sides + 1)
            }
            if si * orient(v, a, e) >= 0 && si * orient(v, b, e) <= 0 {
                let d = -height(e, over: p)
                (minD, maxD, sides) = (min(minD, d), max(maxD, d), sides + 1)
            }
            if sides >= 2 { return decide(min: minD, max: maxD, p, q) }
        default:
            if separated(p, q, signs.0) || separated(q, p, signs.1) { return .apart }
        }
        return order(p, q, signJ: signs.1)
    }

    /// Whether triangles `ti` and `tj` share an edge that `ti` runs from u to w and `tj` from w to u.
    @inline(__always)
    static func runOppositeAlongAnEdge(_ ti: SIMD3<Int32>, _ tj: SIMD3<Int32>) -> Bool {
        let next = SIMD3(ti.y, ti.z, ti.x)
        let j1 = SIMD3(tj.y, tj.z, tj.x), j2 = SIMD3(tj.z, tj.x, tj.y)
        // ti's edge u → u + 1 against tj's edge v + 1 → v, for v = u, u + 1, u + 2.
        let matched = (ti .== j1 .& next .== tj) .| (ti .== j2 .& next .== j1) .| (ti .== tj .& next .== j2)
        return any(matched)
    }

    /// z_x minus the depth of `t`'s plane at x's screen position.
    @inline(__always)
    private static func height(_ x: Point3D, over t: (Point3D, Point3D, Point3D)) -> Double {
        let u = t.1 - t.0, w = t.2 - t.0
        let area = u.x * w.y - u.y * w.x
        let gx = (u.z * w.y - w.z * u.y) / area, gy = (w.z * u.x - u.z * w.x) / area
        return (x.z - t.0.z) - gx * (x.x - t.0.x) - gy * (x.y - t.0.y)
    }

    /// The relation from the range of d = z_p − z_q over the overlap, zero within 1e-12 × the
    /// pair's size (its largest extent in x, y or z).
    @inline(__always)
    private static func decide(min minD: Double, max maxD: Double, _ p: (Point3D, Point3D, Point3D), _ q: (Point3D, Point3D, Point3D))
        -> Relation
    {
        let size = max(
            max(p.0.x, p.1.x, p.2.x, q.0.x, q.1.x, q.2.x) - min(p.0.x, p.1.x, p.2.x, q.0.x, q.1.x, q.2.x),
            max(p.0.y, p.1.y, p.2.y, q.0.y, q.1.y, q.2.y) - min(p.0.y, p.1.y, p.2.y, q.0.y, q.1.y, q.2.y),
            max(p.0.z, p.1.z, p.2.z, q.0.z, q.1.z, q.2.z) - min(p.0.z, p.1.z, p.2.z, q.0.z, q.1.z, q.2.z))
        let tolerance = 1e-12 * size
        switch (maxD > tolerance, minD < -tolerance) {
        case (true, true): return .crossing
        case (true, false): return .firstInFront
        case (false, true): return .secondInFront
        case (false, false): return .level
        }
    }

    @inline(__always)
    private static func corner(_ t: (Point3D, Point3D, Point3D), _ k: Int) -> Point3D {
        k == 0 ? t.0 : (k == 1 ? t.1 : t.2)
    }

    /// Whether the angle c v e lies outside the angle a v b (orientation `s` = orient(v, a, b)) across
    /// one of the latter's sides.
    @inline(__always)
    private static func apartAtCorner(
        _ v: Point3D, _ a: Point3D, _ b: Point3D, _ s: Double, _ c: Point3D, _ e: Point3D
    ) -> Bool {
        // Inside: s·orient(v, a, x) > 0 and s·orient(v, b, x) < 0.
        if s * orient(v, a, c) <= 0, s * orient(v, a, e) <= 0 { return true }
        if s * orient(v, b, c) >= 0, s * orient(v, b, e) >= 0 { return true }
        return false
    }

    /// Whether a line along one of `p`'s edges (screen-area sign `sp`) separates `q` from `p`, at
    /// either end of `p`'s extent across it. Orientations are measured from the edge's start, so
    /// corners on the edge give exactly zero.
    @inline(__always)
    private static func separated(_ p: (Point3D, Point3D, Point3D), _ q: (Point3D, Point3D, Point3D), _ sp: Double) -> Bool {
        for k in 0..<3 {
            let e0 = corner(p, k), e1 = corner(p, (k + 1) % 3), opposite = corner(p, (k + 2) % 3)
            let own = sp * orient(e0, e1, opposite)
            let o0 = sp * orient(e0, e1, q.0), o1 = sp * orient(e0, e1, q.1), o2 = sp * orient(e0, e1, q.2)
            let minO = min(o0, o1, o2), maxO = max(o0, o1, o2)
            // p's own extent along this axis is [0, own] (own > 0 for a well-oriented triangle).
            if maxO <= min(0, own) || max(0, own) <= minO { return true }
        }
        return false
    }

    /// Which of two overlapping triangles is in front over their overlap: `p` clipped by `q`'s
    /// edge lines, with d = z_p − z_q carried along (affine, so interpolated exactly up to rounding).
    @inline(__always)
    private static func order(_ p: (Point3D, Point3D, Point3D), _ q: (Point3D, Point3D, Point3D), signJ: Double) -> Relation {
        // q's plane: z = q0.z + gx (x − q0.x) + gy (y − q0.y).
        let u = q.1 - q.0, w = q.2 - q.0
        let area = u.x * w.y - u.y * w.x
        let gx = (u.z * w.y - w.z * u.y) / area, gy = (w.z * u.x - u.z * w.x) / area
        @inline(__always) func depth(_ x: Point3D) -> Point3D {
            SIMD3(x.x, x.y, (x.z - q.0.z) - gx * (x.x - q.0.x) - gy * (x.y - q.0.y))
        }
        // p clipped by q's three edge lines, in two buffers on the stack (at most 6 corners each).
        let range: (min: Double, max: Double)? = withUnsafeTemporaryAllocation(of: Point3D.self, capacity: 16) { buffer in
            guard let base = buffer.baseAddress else { return nil }
            var polygon = base, clipped = base + 8
            polygon[0] = depth(p.0)
            polygon[1] = depth(p.1)
            polygon[2] = depth(p.2)
            var count = 3
            for k in 0..<3 {
                let e0 = corner(q, k), e1 = corner(q, k == 2 ? 0 : k + 1)
                var out = 0
                var previous = polygon[count - 1]
                var previousSide = signJ * orient(e0, e1, previous)
                for index in 0..<count {
                    let current = polygon[index]
                    let side = signJ * orient(e0, e1, current)
                    if (side > 0 && previousSide < 0) || (side < 0 && previousSide > 0), out < 8 {
                        let t = previousSide / (previousSide - side)
                        clipped[out] = previous + t * (current - previous)
                        out += 1
                    }
                    if side >= 0, out < 8 {
                        clipped[out] = current
                        out += 1
                    }
                    previous = current
                    previousSide = side
                }
                swap(&polygon, &clipped)
                count = out
                if count < 3 { return nil }
            }
            var minD = Double.infinity, maxD = -Double.infinity
            for index in 0..<count {
                minD = min(minD, polygon[index].z)
                maxD = max(maxD, polygon[index].z)
            }
            return (minD, maxD)
        }
        guard let (minD, maxD) = range else { return .apart }
        return decide(min: minD, max: maxD, p, q)
    }
}

/// A union-find over `count` items whose roots are the smallest members (path halving).
struct UnionFind {
    private var parent: [Int32]

    init(count: Int) { parent = [Int32](repeating: -1, count: count) }

    @inline(__always)
    mutating func find(_ x: Int32) -> Int32 {
        var x = x
        while true {
            let p = parent[Int(x)]
            if p < 0 { return x }
            let grand = parent[Int(p)]
            if grand < 0 { return p }
            parent[Int(x)] = grand
            x = grand
        }
    }

    @inline(__always)
    mutating func union(_ a: Int32, _ b: Int32) {
        let ra = find(a), rb = find(b)
        if ra < rb { parent[Int(rb)] = ra } else if rb < ra { parent[Int(ra)] = rb }
    }

    /// The groups of two or more items, and the size of the largest.
    mutating func groups() -> (count: Int, largest: Int) {
        var size = [Int32](repeating: 0, count: parent.count)
        for t in parent.indices where parent[t] >= 0 { size[Int(find(Int32(t)))] += 1 }
        var count = 0, largest = 0
        for t in parent.indices where size[t] > 0 {
            count += 1
            largest = max(largest, Int(size[t]) + 1)
        }
        return (count, largest)
    }
}
