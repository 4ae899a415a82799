import SurfaceKit

/// Triangulates one cell of an adaptive tessellation: its interior grid by the diagonal policy,
/// then, side by side, the ring between the grid's outermost points and the samples of its side;
/// and measures how far each triangle strays from the cell's B-spline patch. A corner square at an
/// irregular vertex is a fan from that vertex, within its proven bound.
struct CellStitcher {
    let cell: Int
    let layout: AdaptiveLayout
    /// Points-space positions of every output vertex.
    let points: [Point3D]
    let policy: DiagonalPolicy
    let patch: RationalPatch?
    let fanCorner: Int
    let bound: Double
    let scale: SIMD3<Double>
    let output: SharedMutableBuffer<SIMD3<Int32>>
    /// When kept: each triangle's corners' (u, v) in its face, three a triangle.
    let parameters: SharedMutableBuffer<SIMD2<Double>>?
    /// The cell's square in its face: cell (s, t) is face `origin + size·(s, t)`.
    let origin: SIMD2<Double>
    let size: Double
    var cursor: Int
    /// The largest distance measured between a triangle and the patch (the bound for a fan).
    var deviation = 0.0

    /// An output vertex with its parameters in this cell.
    struct Local {
        var id: Int32
        var uv: SIMD2<Double>
    }

    /// The samples along side k, from corner k to corner k + 1.
    func side(_ k: Int) -> [Local] {
        let corners = layout.cornerNodes[cell]
        var chain = [Local(id: corners[k], uv: FaceSampler.corner(k))]
        for piece in layout.pieces[layout.sideStart[4 * cell + k]..<layout.sideStart[4 * cell + k + 1]] {
            let segment = layout.segments[Int(piece.segment)]
            let forward = chain[chain.count - 1].id == segment.a
            let r = segment.rate
            for j in 1..<max(r, 1) {
                let index = segment.base + (forward ? j : r - j) - 1
                let fraction = piece.start + (piece.end - piece.start) * Double(j) / Double(r)
                chain.append(Local(id: Int32(truncatingIfNeeded: index), uv: FaceSampler.side(k, fraction)))
            }
            chain.append(Local(id: forward ? segment.b : segment.a, uv: FaceSampler.side(k, piece.end)))
        }
        return chain
    }

    mutating func run() {
        let corners = layout.cornerNodes[cell]
        let c = (0..<4).map { Local(id: corners[$0], uv: FaceSampler.corner($0)) }
        switch layout.kind[cell] {
        case .fan:
            let k = fanCorner
            let chain = side((k + 1) % 4) + side((k + 2) % 4).dropFirst()
            for i in 0..<(chain.count - 1) { triangle(c[k], chain[i], chain[i + 1]) }
            deviation = bound
            return
        case .single:
            let center =
                policy.needsCenters ? Local(id: Int32(truncatingIfNeeded: layout.centerBase[cell]), uv: SIMD2(0.5, 0.5)) : nil
            quad(c[0], c[1], c[2], c[3], center: center)
            return
        case .rowStrip:
            zipper(side(0), side(2).reversed()) { $0.uv.x }
            return
        case .columnStrip:
            zipper(side(3).reversed(), side(1)) { $0.uv.y }
            return
        case .ring:
            break
        }
        let nu = layout.nu[cell], nv = layout.nv[cell]
        let base = layout.gridBase[cell]
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
                            id: Int32(truncatingIfNeeded: layout.centerBase[cell] + (j - 1) * (nu - 2) + i - 1),
                            uv: SIMD2((Double(i) + 0.5) / Double(nu), (Double(j) + 0.5) / Double(nv)))
                    }
                    quad(inner(i, j), inner(i + 1, j), inner(i + 1, j + 1), inner(i, j + 1), center: center)
                }
            }
        }
        zipper(side(0), (1..<nu).map { inner($0, 1) }) { $0.uv.x }
        zipper(side(1), (1..<nv).map { inner(nu - 1, $0) }) { $0.uv.y }
        zipper(side(2), (1..<nu).reversed().map { inner($0, nv - 1) }) { 1 - $0.uv.x }
        zipper(side(3), (1..<nv).reversed().map { inner(1, $0) }) { 1 - $0.uv.y }
    }

    /// Joins two chains of samples that run the same way (`position` grows along both), always
    /// advancing along the chain whose next segment's midpoint comes first, so the triangles stay
    /// as narrow as the samples allow.
    mutating func zipper<A: Collection<Local>, B: Collection<Local>>(_ a: A, _ b: B, position: (Local) -> Double) {
        let outer = Array(a), ring = Array(b)
        var i = 0, j = 0
        let p = outer.count - 1, q = ring.count - 1
        while i < p || j < q {
            let advanceOuter: Bool
            if j == q {
                advanceOuter = true
            } else if i == p {
                advanceOuter = false
            } else {
                advanceOuter = position(outer[i]) + position(outer[i + 1]) <= position(ring[j]) + position(ring[j + 1])
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
        guard let patch else { return }
        let pa = points[Int(a.id)], pb = points[Int(b.id)], pc = points[Int(c.id)]
        func gap(_ uv: SIMD2<Double>, _ linear: Point3D) -> Double {
            let d = patch.position(u: uv.x, v: uv.y) * scale - linear
            return (d * d).sum().squareRoot()
        }
        deviation = max(
            deviation,
            gap((a.uv + b.uv + c.uv) / 3, (pa + pb + pc) / 3),
            gap((a.uv + b.uv) / 2, (pa + pb) / 2),
            gap((b.uv + c.uv) / 2, (pb + pc) / 2),
            gap((c.uv + a.uv) / 2, (pc + pa) / 2))
    }
}
