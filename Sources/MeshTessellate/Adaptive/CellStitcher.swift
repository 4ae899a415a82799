import SurfaceKit

/// Triangulates one cell of an adaptive tessellation: its interior grid by the diagonal policy,
/// then, side by side, the ring between the grid's outermost points and the samples of its side;
/// and measures how far each triangle strays from the cell's B-spline patch. A corner square at an
/// irregular vertex is a fan from that vertex, within its proven bound.
struct CellStitcher {
    var cell: Int
    let layout: AdaptiveLayout
    /// Points-space positions of every output vertex.
    let points: [Point3D]
    let policy: DiagonalPolicy
    var patch: RationalPatch?
    var fanCorner: Int
    var bound: Double
    let scale: SIMD3<Double>
    let output: SharedMutableBuffer<SIMD3<Int32>>
    /// When kept: each triangle's corners' (u, v) in its face, three a triangle.
    let parameters: SharedMutableBuffer<SIMD2<Double>>?
    /// The cell's square in its face: cell (s, t) is face `origin + size·(s, t)`.
    var origin: SIMD2<Double>
    var size: Double
    var cursor: Int
    /// The largest distance measured between a triangle and the patch (the bound for a fan).
    var deviation = 0.0
    /// Whether to measure the triangles against the patch (off when a cell drawn the same way
    /// was measured in an earlier round).
    var measuring = true
    /// The distance, in points, the cell's triangles are held to: it decides which triangles
    /// are measured at the dense lattices as well as at the ten points
    /// (``measured(_:_:_:on:)``); 0: every triangle.
    var mark = 0.0
    /// Once the cell's deviation is above this, its other triangles are drawn but not measured:
    /// a trial interior only needs to know that it fails.
    var stopAbove = Double.infinity
    /// A trial interior grid drawn in place of the layout's (``InteriorSearch``): its rates and
    /// where its points and centres are in `points`. `nil`: the layout's own drawing.
    var trial: TrialInterior?

    struct TrialInterior {
        var nu: Int
        var nv: Int
        var gridBase: Int
        var centerBase: Int
        /// `.ring`, or `.rows` or `.columns` with their `strips`.
        var kind: AdaptiveLayout.Kind = .ring
        var strips: AdaptiveLayout.Strips?
    }

    /// An output vertex with its parameters in this cell.
    struct Local {
        var id: Int32
        var uv: SIMD2<Double>
    }

    /// The samples along side k, from corner k to corner k + 1.
    func side(_ k: Int) -> [Local] {
        let corners = layout.cornerNodes[cell]
        var chain = [Local(id: corners[k], uv: UnitSquare.corner(k))]
        for piece in layout.pieces[layout.sideStart[4 * cell + k]..<layout.sideStart[4 * cell + k + 1]] {
            let segment = layout.segments[Int(piece.segment)]
            let forward = chain[chain.count - 1].id == segment.a
            let r = segment.rate
            for j in 1..<max(r, 1) {
                let index = segment.base + (forward ? j : r - j) - 1
                let fraction = piece.start + (piece.end - piece.start) * Double(j) / Double(r)
                chain.append(Local(id: Int32(truncatingIfNeeded: index), uv: UnitSquare.side(k, fraction)))
            }
            chain.append(Local(id: forward ? segment.b : segment.a, uv: UnitSquare.side(k, piece.end)))
        }
        return chain
    }

    mutating func run() {
        let corners = layout.cornerNodes[cell]
        func c(_ k: Int) -> Local { Local(id: corners[k], uv: UnitSquare.corner(k)) }
        switch trial?.kind ?? layout.kind[cell] {
        case .fan:
            let k = fanCorner
            if layout.ringStart[cell + 1] > layout.ringStart[cell] {
                rings()
                deviation = bound
                return
            }
            let chain = side((k + 1) % 4) + side((k + 2) % 4).dropFirst()
            for i in 0..<(chain.count - 1) { triangle(c(k), chain[i], chain[i + 1]) }
            deviation = bound
            return
        case .single:
            let center =
                policy.needsCenters ? Local(id: Int32(truncatingIfNeeded: layout.centerBase[cell]), uv: SIMD2(0.5, 0.5)) : nil
            quad(c(0), c(1), c(2), c(3), center: center)
            return
        case .rowStrip:
            zipper(side(0), side(2).reversed()) { $0.uv.x }
            return
        case .columnStrip:
            zipper(side(3).reversed(), side(1)) { $0.uv.y }
            return
        case .rows, .columns:
            strips()
            return
        case .ring:
            break
        }
        let nu = trial?.nu ?? layout.nu[cell], nv = trial?.nv ?? layout.nv[cell]
        let base = trial?.gridBase ?? layout.gridBase[cell]
        let centerBase = trial?.centerBase ?? layout.centerBase[cell]
        func inner(_ i: Int, _ j: Int) -> Local {
            Local(
                id: Int32(truncatingIfNeeded: base + (j - 1) * (nu - 1) + i - 1), uv: SIMD2(Double(i) / Double(nu), Double(j) / Double(nv)))
        }
        if nu > 2, nv > 2 {
            for j in 1..<(nv - 1) {
                for i in 1..<(nu - 1) {
                    var center: Local?
                    if policy.needsCenters {
                        center = Local(
                            id: Int32(truncatingIfNeeded: centerBase + (j - 1) * (nu - 2) + i - 1),
                            uv: SIMD2((Double(i) + 0.5) / Double(nu), (Double(j) + 0.5) / Double(nv)))
                    }
                    quad(inner(i, j), inner(i + 1, j), inner(i + 1, j + 1), inner(i, j + 1), center: center)
                }
            }
        }
        let sides = (0..<4).map { side($0) }
        let innerCorners = [inner(1, 1), inner(nu - 1, 1), inner(nu - 1, nv - 1), inner(1, nv - 1)]
        let cut = (0..<4).map { cutsCorner($0, sides: sides, inner: innerCorners[$0]) }
        // Each side's samples, less those at a cut corner, zipped to the interior's outer row.
        func outer(_ k: Int) -> ArraySlice<Local> {
            sides[k][(cut[k] ? 1 : 0)..<(sides[k].count - (cut[(k + 1) % 4] ? 1 : 0))]
        }
        zipper(outer(0), (1..<nu).map { inner($0, 1) }) { $0.uv.x }
        zipper(outer(1), (1..<nv).map { inner(nu - 1, $0) }) { $0.uv.y }
        zipper(outer(2), (1..<nu).reversed().map { inner($0, nv - 1) }) { 1 - $0.uv.x }
        zipper(outer(3), (1..<nv).reversed().map { inner(1, $0) }) { 1 - $0.uv.y }
        for k in 0..<4 where cut[k] {
            let next = sides[k][1], previous = sides[(k + 3) % 4][sides[(k + 3) % 4].count - 2]
            triangle(c(k), next, previous)
            triangle(next, innerCorners[k], previous)
        }
    }

    /// Whether a ring's corner square at corner k — the cell's corner, the next sample on side k,
    /// the interior's corner point and the previous sample on side k − 1 — is split by the
    /// diagonal between the two side samples (cutting the corner off) instead of the one from
    /// the cell's corner to the interior's. The zippers on either side share the diagonal, so
    /// without this every ring draws the corner-to-interior diagonal at all four corners, which
    /// at two of them is the diagonal across which a surface bent along the other one bends
    /// most. Decided as a square of the grid is: by the policy, the quad's corners in the face's
    /// order. Either way the corner square takes two triangles and the zippers one segment less
    /// on each side, so the count is the same. Needs two or more segments on both sides (the
    /// next sample is not the next corner); `center` keeps the corner-to-interior diagonal.
    func cutsCorner(_ k: Int, sides: [[Local]], inner: Local) -> Bool {
        let here = sides[k], before = sides[(k + 3) % 4]
        guard policy != .center, here.count >= 3, before.count >= 3 else { return false }
        let corner = layout.cornerNodes[cell][k]
        let next = here[1].id, previous = before[before.count - 2].id
        // The quad in the face's order from its (0, 0) corner; the first diagonal joins its
        // corners 0 and 2.
        let quad: SIMD4<Int32>
        switch k {
        case 0: quad = SIMD4(corner, next, inner.id, previous)
        case 1: quad = SIMD4(previous, corner, next, inner.id)
        case 2: quad = SIMD4(inner.id, previous, corner, next)
        default: quad = SIMD4(next, inner.id, previous, corner)
        }
        let first = Tessellator.useFirstDiagonal(policy: policy, corners: quad, points: points, center: nil)
        // At corners 0 and 2 the first diagonal runs from the cell's corner to the interior's.
        return k % 2 == 0 ? !first : first
    }

    /// A `rows` or `columns` cell: lines across it, then each strip between two lines as
    /// squares split by the policy where both are sampled alike, else zipped.
    mutating func strips() {
        let nu = trial?.nu ?? layout.nu[cell], nv = trial?.nv ?? layout.nv[cell]
        let base = trial?.gridBase ?? layout.gridBase[cell]
        let centerBase = trial?.centerBase ?? layout.centerBase[cell]
        let rows = (trial?.kind ?? layout.kind[cell]) == .rows
        let strips = trial?.strips ?? layout.strips(cell)
        func inner(_ i: Int, _ j: Int) -> Local {
            Local(
                id: Int32(truncatingIfNeeded: base + (j - 1) * (nu - 1) + i - 1), uv: SIMD2(Double(i) / Double(nu), Double(j) / Double(nv)))
        }
        // Line l, in the direction of growing u (rows) or v (columns).
        let bottom = side(0), right = side(1), top = side(2), left = side(3)
        func line(_ l: Int) -> [Local] {
            if rows {
                if l == 0 { return bottom }
                if l == nv { return top.reversed() }
                return [left[nv - l]] + (1..<max(nu, 1)).map { inner($0, l) } + [right[l]]
            }
            if l == 0 { return left.reversed() }
            if l == nu { return right }
            return [bottom[l]] + (1..<max(nv, 1)).map { inner(l, $0) } + [top[nu - l]]
        }
        var lower = line(0)
        for s in 0..<strips.count {
            let upper = line(s + 1)
            if strips.isSquares(s) {
                for k in 0..<strips.along {
                    var center: Local?
                    if policy.needsCenters {
                        let square = rows ? SIMD2(Double(k), Double(s)) : SIMD2(Double(s), Double(k))
                        center = Local(
                            id: Int32(truncatingIfNeeded: centerBase + strips.squaresBefore(s) + k),
                            uv: (square + 0.5) / SIMD2(Double(nu), Double(nv)))
                    }
                    // Corners in the face's order: (0, 0), (1, 0), (1, 1), (0, 1) of the square.
                    if rows {
                        quad(lower[k], lower[k + 1], upper[k + 1], upper[k], center: center)
                    } else {
                        quad(lower[k], upper[k], upper[k + 1], lower[k + 1], center: center)
                    }
                }
            } else if rows {
                zipper(lower, upper) { $0.uv.x }
            } else {
                zipper(lower, upper) { $0.uv.y }
            }
            lower = upper
        }
    }

    /// Joins two chains of samples that run the same way (`position` grows along both), always
    /// advancing along the chain whose next segment's midpoint comes first, so the triangles stay
    /// as narrow as the samples allow.
    mutating func zipper<A: Collection<Local>, B: Collection<Local>>(_ a: A, _ b: B, position: (Local) -> Double) {
        let outer = Array(a), ring = Array(b)
        var i = 0, j = 0
        let p = outer.count - 1, q = ring.count - 1
        while i < p || j < q {
            var advanceOuter: Bool
            if j == q {
                advanceOuter = true
            } else if i == p {
                advanceOuter = false
            } else {
                let o = position(outer[i]) + position(outer[i + 1]), r = position(ring[j]) + position(ring[j + 1])
                advanceOuter = o <= r
                if policy == .shortest || policy == .surface,
                    abs(o - r) <= min(position(outer[i + 1]) - position(outer[i]), position(ring[j + 1]) - position(ring[j]))
                {
                    // The two segments' midpoints are within half the shorter one of each other,
                    // so either triangle is about as narrow: as the policy does in a square, draw
                    // the shorter of the two new edges. Any order of advancing along two chains
                    // that run the same way tiles the strip between them.
                    let toRing = CellStitcher.length(points[Int(outer[i + 1].id)] - points[Int(ring[j].id)])
                    let toOuter = CellStitcher.length(points[Int(outer[i].id)] - points[Int(ring[j + 1].id)])
                    if toRing != toOuter { advanceOuter = toRing < toOuter }
                }
            }
            if advanceOuter {
                triangle(outer[i], outer[i + 1], ring[j])
                i += 1
            } else {
                triangle(outer[i], ring[j + 1], ring[j])
                j += 1
            }
        }
    }

    static func length(_ d: Point3D) -> Double { (d * d).sum().squareRoot() }

    /// A quad (corners in the face's order) split by the policy.
    mutating func quad(_ a: Local, _ b: Local, _ c: Local, _ d: Local, center: Local?) {
        if policy == .center, let m = center {
            triangle(a, b, m)
            triangle(b, c, m)
            triangle(c, d, m)
            triangle(d, a, m)
            return
        }
        let first = Tessellator.useFirstDiagonal(
            policy: policy, corners: SIMD4(a.id, b.id, c.id, d.id), points: points,
            center: center.map { points[Int($0.id)] })
        if first {
            triangle(a, b, c)
            triangle(a, c, d)
        } else {
            triangle(a, b, d)
            triangle(b, c, d)
        }
    }

    /// Writes a triangle wound counter-clockwise in the face's (u, v) frame (as the uniform
    /// tessellation's are), and measures it against the patch.
    mutating func triangle(_ a: Local, _ b0: Local, _ c0: Local) {
        var b = b0, c = c0
        let e1 = b.uv - a.uv, e2 = c.uv - a.uv
        if e1.x * e2.y - e1.y * e2.x < 0 { swap(&b, &c) }
        output.base[cursor] = SIMD3(a.id, b.id, c.id)
        if let parameters {
            parameters.base[3 * cursor] = origin + size * a.uv
            parameters.base[3 * cursor + 1] = origin + size * b.uv
            parameters.base[3 * cursor + 2] = origin + size * c.uv
        }
        cursor += 1
        guard measuring, deviation <= stopAbove, let patch else { return }
        deviation = max(deviation, measured(a, b, c, on: patch))
    }

    /// Where a patch triangle is measured, in barycentric weights: its centroid, edge midpoints,
    /// the midpoints between the centroid and each corner, and a quarter along each edge. The
    /// distance of a grid triangle is nearly quadratic over it, largest at the centroid or an edge
    /// midpoint; the other points catch the long, thin triangles of joining rings, where the
    /// cubic part moves the largest distance off those points (by over 1% on a held-out ripple).
    static let measuredPoints: [SIMD3<Double>] = [
        SIMD3(1, 1, 1) / 3, SIMD3(0.5, 0.5, 0), SIMD3(0, 0.5, 0.5), SIMD3(0.5, 0, 0.5),
        SIMD3(2, 1, 1) / 4, SIMD3(1, 2, 1) / 4, SIMD3(1, 1, 2) / 4,
        SIMD3(0.25, 0.75, 0), SIMD3(0, 0.25, 0.75), SIMD3(0.75, 0, 0.25),
    ]
}
