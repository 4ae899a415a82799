import SurfaceKit

/// Triangulates one face of an adaptive tessellation: its interior grid by the diagonal policy,
/// then, side by side, the ring between the grid's outermost points and the samples of its edge;
/// and measures how far each triangle strays from the face's B-spline patch.
struct FaceStitcher {
    let face: Int
    let surfaces: FaceSurfaces
    let layout: AdaptiveLayout
    /// Points-space positions of every output vertex.
    let points: [Point3D]
    let policy: DiagonalPolicy
    let patch: RationalPatch?
    let scale: SIMD3<Double>
    let output: SharedMutableBuffer<SIMD3<Int32>>
    var cursor: Int
    /// The largest distance measured between a triangle and the patch (0 without a patch).
    var deviation = 0.0

    /// An output vertex with its parameters in this face.
    struct Local {
        var id: Int32
        var uv: SIMD2<Double>
    }

    mutating func run() {
        let corners = surfaces.corners(ofFace: face)
        let c = (0..<4).map { Local(id: layout.cornerIndex[Int(corners[$0])], uv: FaceSampler.corner($0)) }
        let edges = surfaces.edges(ofFace: face)
        /// The samples along side k, from corner k to corner k + 1.
        func side(_ k: Int) -> [Local] {
            let e = Int(edges[k]), n = layout.edgeRate[e]
            let forward = corners[k] == surfaces.vertices(ofEdge: e).x
            var chain = [c[k]]
            chain.reserveCapacity(n + 1)
            for t in 1..<max(n, 1) {
                let index = layout.edgeBase[e] + (forward ? t : n - t) - 1
                chain.append(Local(id: Int32(truncatingIfNeeded: index), uv: FaceSampler.side(k, Double(t) / Double(n))))
            }
            chain.append(c[(k + 1) % 4])
            return chain
        }
        switch layout.kind[face] {
        case .single:
            let center = policy.needsCenters ? Local(id: Int32(truncatingIfNeeded: layout.centerBase[face]), uv: SIMD2(0.5, 0.5)) : nil
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
        let nu = layout.nu[face], nv = layout.nv[face]
        let base = layout.faceBase[face]
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
                            id: Int32(truncatingIfNeeded: layout.centerBase[face] + (j - 1) * (nu - 2) + i - 1),
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
