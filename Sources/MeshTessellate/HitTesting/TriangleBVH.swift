import CSwiftRuntimeShims
import SurfaceKit

/// A bounding volume hierarchy over a triangle mesh, walked 4 wide: a flat array of 128-byte
/// ``WideNode``s aligned to cache lines (the binary build's tree with every other level folded
/// in), each testing a ray against its four children's single-precision boxes in one go, nearer
/// children first. Leaves name runs of `order`, the original triangle indices in leaf order, or,
/// where `order` is empty (the grid build), runs of the mesh's own triangles; the triangles are read from the mesh's own arrays (shared, not copied) and tested in double
/// precision, so the boxes only decide what is tested, never the answer.
struct TriangleBVH: Sendable {
    /// The nodes, from byte `nodeStart` of this array's memory (vectors of four floats; the
    /// padding before puts node 0 at a multiple of ``WideNode/alignment``). Node 0 is the root.
    let nodeStorage: [SIMD4<Float>]
    let nodeStart: Int
    let nodeCount: Int
    /// The root's box: the box of every triangle.
    let root: BVHNode?
    /// Original triangle index of each triangle in leaf order; empty when the leaves name runs of
    /// the mesh's triangles themselves.
    let order: [Int32]
    let positions: [Point3D]
    let triangles: [SIMD3<Int32>]
    /// The largest magnitude of the root box's bounds on each axis, for the walk's error bounds.
    let reach: SIMD3<Double>

    /// Room for the pending children of ``walksAtOnce`` walks (`Traversal.firstHits` runs that
    /// many at once, each in its own part of 64 entries; a single query uses one part too). A
    /// walk holds at most three entries a wide level above its node plus the four of the deepest
    /// one: 49 for the 16 wide levels of a median build over 2³¹ triangles, about 50 for the grid
    /// build, whose tree over faces and halving inside them is a few binary levels deeper. A walk
    /// that still finds its part full is answered by testing every triangle (see `Walk`), so the
    /// bound decides only the speed, never an answer.
    static let stackCapacity = stackPart * walksAtOnce
    static let stackPart = 64
    static let walksAtOnce = 4

    init(
        nodeStorage: [SIMD4<Float>], nodeStart: Int, nodeCount: Int, root: BVHNode?, order: [Int32], positions: [Point3D],
        triangles: [SIMD3<Int32>]
    ) {
        self.nodeStorage = nodeStorage
        self.nodeStart = nodeStart
        self.nodeCount = nodeCount
        self.root = root
        self.order = order
        self.positions = positions
        self.triangles = triangles
        reach =
            root.map { r in
                SIMD3(
                    Swift.max(abs(Double(r.minX)), abs(Double(r.maxX))), Swift.max(abs(Double(r.minY)), abs(Double(r.maxY))),
                    Swift.max(abs(Double(r.minZ)), abs(Double(r.maxZ))))
            } ?? .zero
    }

    /// The nearest hit in `tmin…tmax` (closed), or `TriangleHit.noHit`: the original triangle, t
    /// and the barycentric (u, v) of b and c. Of triangles hit at exactly the same t, the lowest
    /// index wins, so the answer does not depend on the order of the walk.
    func firstHit(origin o: SIMD3<Double>, direction d: SIMD3<Double>, tmin: Double, tmax: Double) -> TriangleHit {
        withTraversal { $0.firstHit(origin: o, direction: d, tmin: tmin, tmax: tmax) }
    }

    /// `body` with a ``Traversal`` of this hierarchy (its arrays' memory and a stack), for any
    /// number of queries on one thread.
    func withTraversal<Result>(_ body: (Traversal) -> Result) -> Result {
        nodeStorage.withUnsafeBytes { storage in
            order.withUnsafeBufferPointer { order in
                triangles.withUnsafeBufferPointer { triangles in
                    positions.withUnsafeBufferPointer { positions in
                        withUnsafeTemporaryAllocation(of: StackEntry.self, capacity: TriangleBVH.stackCapacity) { stack in
                            body(
                                Traversal(
                                    nodes: nodeCount > 0 ? storage.baseAddress.map { $0 + nodeStart } : nil, order: order,
                                    triangles: triangles, positions: positions, stack: stack, reach: reach))
                        }
                    }
                }
            }
        }
    }

    /// A child waiting on the walk's stack: a node (`count == 0`) or a leaf, and where the ray
    /// enters its box (a lower bound).
    struct StackEntry {
        var child: Int32
        var count: Int32
        var near: Float
    }
}

extension TriangleBVH {
    /// The memory a walk reads, valid inside ``TriangleBVH/withTraversal(_:)``.
    struct Traversal {
        let nodes: UnsafeRawPointer?
        let order: UnsafeBufferPointer<Int32>
        let triangles: UnsafeBufferPointer<SIMD3<Int32>>
        let positions: UnsafeBufferPointer<Point3D>
        let stack: UnsafeMutableBufferPointer<StackEntry>
        let reach: SIMD3<Double>

        /// Barycentric slack so a ray through a shared edge hits one of its triangles despite rounding.
        static let slack = 1e-12

        /// The ray in single precision for the box tests, with room for their rounding, or `nil`
        /// when it cannot be put so (a NaN or infinite origin, direction or interval, an origin
        /// beyond single precision's range, or a direction so long or a scene so near 0 that
        /// the entry distances would be subnormal floats): such rays test every triangle.
        ///
        /// A box bound b is entered at t = (b − o)/d. The walk computes (b − o′)·i′ in single
        /// precision, i′ = Float(1/d), with o′ the origin moved ahead along the axis for the near
        /// bound (so t comes out smaller) and back for the far one, by δ = (B + |o|)·2⁻²¹ (B the
        /// largest |b| on that axis) and rounded outward. The roundings of 1/d, of the difference
        /// and of the product change the result by at most |1/d|·(|b| + |o′|)·3.01·2⁻²⁴, less
        /// than the move's δ/|d|; so the near value is at most the true t and the far value at
        /// least. An axis the ray does not move along (d = 0) gets i′ = ±∞ and the origin
        /// unmoved: (b − o′)·i′ is then ±∞ on the right side of the slab, or NaN where o′ = b,
        /// which the tests skip (the ray lies in the closed slab); o′ lies in the box's bounds
        /// whenever o lies in the triangles' (rounding is monotonic and the bounds are widened).
        /// The interval is rounded outward. So a box is never skipped that the ray enters within
        /// its interval.
        @inline(__always)
        func setup(origin o: SIMD3<Double>, direction d: SIMD3<Double>, tmin: Double, tmax: Double) -> RaySetup? {
            guard !tmin.isNaN, !tmax.isNaN else { return nil }
            // One axis: the origin for the near and the far bound, and the inverse direction.
            @inline(__always) func axis(_ o: Double, _ d: Double, _ reach: Double) -> (near: Float, far: Float, inverse: Float)? {
                let origin = Float(o)
                guard origin.isFinite, d.isFinite else { return nil }
                guard d != 0 else { return (origin, origin, d.sign == .minus ? -.infinity : .infinity) }
                let inv = 1 / d
                let scale = reach + abs(o)
                let inverse = Float(inv)
                guard inverse.isFinite, inverse != 0, scale >= 0x1p-100, scale * abs(inv) >= 0x1p-100 else { return nil }
                let delta = scale * 0x1p-21
                // Ahead is +δ along a positive direction.
                let (ahead, behind) = d > 0 ? (o + delta, o - delta) : (o - delta, o + delta)
                let near = d > 0 ? Float(ahead).nextUp : Float(ahead).nextDown
                let far = d > 0 ? Float(behind).nextDown : Float(behind).nextUp
                guard near.isFinite, far.isFinite else { return nil }
                return (near, far, inverse)
            }
            guard let x = axis(o.x, d.x, reach.x), let y = axis(o.y, d.y, reach.y), let z = axis(o.z, d.z, reach.z) else {
                return nil
            }
            let lower = Float.roundedDown(tmin), upper = Float.roundedUp(tmax)
            return RaySetup(
                near: SIMD3(x.near, y.near, z.near), far: SIMD3(x.far, y.far, z.far), inverse: SIMD3(x.inverse, y.inverse, z.inverse),
                tmin: lower, tmax: upper)
        }

        /// The ray's single-precision form for the box tests: the origin moved for the near and
        /// for the far bounds, and the inverse direction.
        struct RaySetup {
            var near: SIMD3<Float>
            var far: SIMD3<Float>
            var inverse: SIMD3<Float>
            var tmin: Float
            var tmax: Float
        }

        /// The nearest hit in `tmin…tmax`; of equal t, the lowest triangle index.
        @inline(__always)
        func firstHit(origin o: SIMD3<Double>, direction d: SIMD3<Double>, tmin: Double, tmax: Double) -> TriangleHit {
            guard let nodes else { return .noHit }
            switch prepare(origin: o, direction: d, tmin: tmin, tmax: tmax) {
            case .answered(let hit):
                return hit
            case .walk(let ray):
                var walk = Walk(origin: o, direction: d, tmin: tmin, tmax: tmax, ray: ray, stack: 0..<TriangleBVH.stackPart)
                while walk.step(nodes: nodes, traversal: self) {}
                return walk.answer(traversal: self)
            }
        }

        /// What a ray needs before its walk: its single-precision form, or, for a ray that needs
        /// no walk, its answer (a miss for an empty interval, the nearest over every triangle for
        /// a ray the box tests cannot take).
        enum Preparation {
            case walk(RaySetup)
            case answered(TriangleHit)
        }

        @inline(__always)
        func prepare(origin o: SIMD3<Double>, direction d: SIMD3<Double>, tmin: Double, tmax: Double) -> Preparation {
            guard !(tmin > tmax) else { return .answered(.noHit) }
            guard let ray = setup(origin: o, direction: d, tmin: tmin, tmax: tmax) else {
                return .answered(everyTriangle(origin: o, direction: d, tmin: tmin, tmax: tmax))
            }
            return .walk(ray)
        }

        /// The nearest hit so far.
        struct Best {
            var far: Double
            var farFloat: Float
            var triangle: Int32 = -1
            var u = 0.0, v = 0.0

            init(far: Double) {
                self.far = far
                farFloat = Float.roundedUp(far)
            }

            var hit: TriangleHit {
                triangle >= 0 ? TriangleHit(t: far, u: u, v: v, triangle: triangle) : .noHit
            }
        }

        /// Tests the triangles `order[first..<first + count]`, or with no `order` the triangles
        /// `first..<first + count` (double-sided Möller–Trumbore in double precision), keeping the
        /// nearest; of equal t, the lowest index.
        @inline(__always)
        func testLeaf(
            first: Int, count: Int, origin o: SIMD3<Double>, direction d: SIMD3<Double>, tmin: Double, best: inout Best
        ) {
            if order.isEmpty {
                for triangle in first..<(first + count) { test(triangle, origin: o, direction: d, tmin: tmin, best: &best) }
            } else {
                for k in first..<(first + count) { test(Int(order[k]), origin: o, direction: d, tmin: tmin, best: &best) }
            }
        }

        @inline(__always)
        func test(_ triangle: Int, origin o: SIMD3<Double>, direction d: SIMD3<Double>, tmin: Double, best: inout Best) {
            let slack = Traversal.slack
            let tri = triangles[triangle]
            let p0 = positions[Int(tri.x)]
            let e1 = positions[Int(tri.y)] - p0
            let e2 = positions[Int(tri.z)] - p0
            let p = cross(d, e2)
            let det = dot(e1, p)
            guard det != 0 else { return }
            let invDet = 1 / det
            let s = o - p0
            let u = dot(s, p) * invDet
            guard u >= -slack, u <= 1 + slack else { return }
            let q = cross(s, e1)
            let v = dot(d, q) * invDet
            guard v >= -slack, u + v <= 1 + slack else { return }
            let t = dot(e2, q) * invDet
            guard t >= tmin, t <= best.far, t.isFinite else { return }
            if best.triangle >= 0, t == best.far, triangle > Int(best.triangle) { return }
            best.triangle = Int32(truncatingIfNeeded: triangle)
            best.u = u
            best.v = v
            if t != best.far {
                best.far = t
                best.farFloat = Float.roundedUp(t)
            }
        }

        /// The nearest hit over every triangle, for rays the box tests cannot take.
        func everyTriangle(origin o: SIMD3<Double>, direction d: SIMD3<Double>, tmin: Double, tmax: Double) -> TriangleHit {
            var best = Best(far: tmax)
            for triangle in 0..<triangles.count { test(triangle, origin: o, direction: d, tmin: tmin, best: &best) }
            return best.hit
        }
    }
}

@inline(__always) private func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
    a.x * b.x + a.y * b.y + a.z * b.z
}
@inline(__always) private func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}

extension TriangleBVH {
    /// The ray direction's componentwise inverse for a double-precision slab test. A zero
    /// component would make 0 · ∞ = NaN there; a huge finite inverse keeps it a plain miss-or-hit.
    @inline(__always)
    static func inverse(_ d: SIMD3<Double>) -> SIMD3<Double> {
        func inverse(_ x: Double) -> Double {
            x != 0 ? 1 / x : (x.sign == .minus ? -Double.greatestFiniteMagnitude : .greatestFiniteMagnitude)
        }
        return SIMD3(inverse(d.x), inverse(d.y), inverse(d.z))
    }
}
