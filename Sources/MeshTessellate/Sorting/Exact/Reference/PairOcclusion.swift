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
        let (lo, hi) = coveredBounds(screen: screen, triangles: triangles, signs: sign)
        guard lo.x <= hi.x else { return result }
        // Triangles that provably overlap nothing take part in no pair either. The touch
        // tolerance's scale: the larger side of the bounds of the triangles with area.
        if screened { leaveOutLoneTriangles(&sign, screen: screen, triangles: triangles, scale: max(hi.x - lo.x, hi.y - lo.y)) }

        let boxed = CandidateBoxes(screen: screen, triangles: triangles, signs: sign)
        let (list, boxes, diagonals, activeCount) = (boxed.list, boxed.boxes, boxed.diagonals, boxed.list.count)
        guard activeCount > 1 else { return result }

        let grid = ScreenGrid(lo: boxed.lo, hi: boxed.hi, meanExtent: boxed.sumExtent / Double(activeCount), count: activeCount)
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
        sortByLeftSide(&members, boxes: &cellBoxes, start: start)
        let found = screen.withUnsafeBufferPointer { s in
            triangles.withUnsafeBufferPointer { tris in
                PairSearch(
                    screen: s, triangles: tris, signs: sign, list: list, boxes: cellBoxes, diagonals: diagonals, ranges: ranges,
                    members: members, start: start, columns: nx, rows: ny
                ).pairs(limit: limit)
            }
        }
        return found
    }
}

extension PairOcclusion {
    /// The candidates' screen boxes, by slot (the candidates in index order), in Float rounded
    /// outward: a box test only filters, so it may pass more but never fewer pairs.
    struct CandidateBoxes {
        /// The triangles with a sign, in index order.
        var list: [Int32] = []
        /// minX, minY, maxX, maxY.
        var boxes: [SIMD4<Float>] = []
        /// The same along the diagonals (x + y, x − y): thin slanted triangles have loose boxes.
        var diagonals: [SIMD4<Float>] = []
        /// The bounds of the boxes (exact), and the sum of their larger sides.
        var lo = SIMD2<Double>(.infinity, .infinity)
        var hi = SIMD2<Double>(-.infinity, -.infinity)
        var sumExtent = 0.0

        /// The boxes of the triangles whose sign is not 0.
        init(screen: [Point3D], triangles: [SIMD3<Int32>], signs sign: [Int8]) {
            screen.withUnsafeBufferPointer { s in
                for t in 0..<triangles.count where sign[t] != 0 {
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
                }
            }
        }
    }
}

private extension PairOcclusion {
    /// The bounds of the screen corners of the triangles whose sign is not 0 (lo above hi when
    /// there are none).
    static func coveredBounds(
        screen: [Point3D], triangles: [SIMD3<Int32>], signs sign: [Int8]
    ) -> (lo: SIMD2<Double>, hi: SIMD2<Double>) {
        var lo = SIMD2<Double>(.infinity, .infinity), hi = SIMD2<Double>(-.infinity, -.infinity)
        screen.withUnsafeBufferPointer { s in
            for t in 0..<triangles.count where sign[t] != 0 {
                let tri = triangles[t]
                let a = s[Int(tri.x)], b = s[Int(tri.y)], c = s[Int(tri.z)]
                lo = SIMD2(min(lo.x, a.x, b.x, c.x), min(lo.y, a.y, b.y, c.y))
                hi = SIMD2(max(hi.x, a.x, b.x, c.x), max(hi.y, a.y, b.y, c.y))
            }
        }
        return (lo, hi)
    }

    /// Sets the sign of every triangle that `OverlapCandidates` finds overlaps nothing to 0, so it
    /// takes part in no pair (nothing changes when the screening declines).
    static func leaveOutLoneTriangles(_ sign: inout [Int8], screen: [Point3D], triangles: [SIMD3<Int32>], scale: Double) {
        let candidates = screen.withUnsafeBufferPointer { s in
            triangles.withUnsafeBufferPointer { tris in
                sign.withUnsafeBufferPointer { sign in
                    OverlapCandidates.candidateList(screen: s, triangles: tris, signs: sign, scale: scale)
                }
            }
        }
        if let candidates {
            var kept = [Int8](repeating: 0, count: triangles.count)
            for t in candidates { kept[Int(t)] = sign[Int(t)] }
            sign = kept
        }
    }
}
