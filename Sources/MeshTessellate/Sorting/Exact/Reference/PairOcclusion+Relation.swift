import SurfaceKit

extension PairOcclusion {
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
