import SurfaceKit

/// A bounding volume hierarchy over a triangle mesh: a flat array of 32-byte nodes with integer
/// children (siblings adjacent), walked nearer child first with a fixed-size stack, built
/// deterministically. Leaves name runs of `order`, the original triangle indices in leaf order;
/// the triangles are read from the mesh's own arrays (shared, not copied).
struct TriangleBVH: Sendable {
    var nodes: [BVHNode]
    /// Original triangle index of each triangle in leaf order.
    var order: [Int32]
    var positions: [Point3D]
    var triangles: [SIMD3<Int32>]

    /// The deepest a balanced build gets (median splits halve the work) with room to spare.
    static let stackCapacity = 128

    /// The nearest hit in `tmin…tmax` (closed), or ``TriangleHit/miss``: the original triangle, t
    /// and the barycentric (u, v) of b and c. Of triangles hit at exactly the same t, the lowest
    /// index wins, so the answer does not depend on the order of the walk.
    func firstHit(origin o: SIMD3<Double>, direction d: SIMD3<Double>, tmin: Double, tmax: Double) -> TriangleHit {
        withTraversal { $0.firstHit(origin: o, direction: d, tmin: tmin, tmax: tmax) }
    }

    /// `body` with a ``Traversal`` of this hierarchy (its arrays' memory and a stack), for any
    /// number of queries on one thread.
    func withTraversal<Result>(_ body: (Traversal) -> Result) -> Result {
        nodes.withUnsafeBufferPointer { nodes in
            order.withUnsafeBufferPointer { order in
                triangles.withUnsafeBufferPointer { triangles in
                    positions.withUnsafeBufferPointer { positions in
                        withUnsafeTemporaryAllocation(of: Int32.self, capacity: TriangleBVH.stackCapacity) { stack in
                            body(Traversal(nodes: nodes, order: order, triangles: triangles, positions: positions, stack: stack))
                        }
                    }
                }
            }
        }
    }

    /// The memory a walk reads, valid inside ``withTraversal(_:)``.
    struct Traversal {
        let nodes: UnsafeBufferPointer<BVHNode>
        let order: UnsafeBufferPointer<Int32>
        let triangles: UnsafeBufferPointer<SIMD3<Int32>>
        let positions: UnsafeBufferPointer<Point3D>
        let stack: UnsafeMutableBufferPointer<Int32>

        @inline(__always)
        func firstHit(origin o: SIMD3<Double>, direction d: SIMD3<Double>, tmin: Double, tmax: Double) -> TriangleHit {
            guard !nodes.isEmpty else { return .miss }
            return TriangleBVH.walk(
                nodes: nodes, order: order, triangles: triangles, positions: positions, stack: stack, origin: o,
                direction: d, inverse: TriangleBVH.inverse(d), tmin: tmin, tmax: tmax)
        }
    }

    @inline(__always)
    static func walk(
        nodes: UnsafeBufferPointer<BVHNode>, order: UnsafeBufferPointer<Int32>,
        triangles: UnsafeBufferPointer<SIMD3<Int32>>, positions: UnsafeBufferPointer<Point3D>,
        stack: UnsafeMutableBufferPointer<Int32>, origin o: SIMD3<Double>, direction d: SIMD3<Double>,
        inverse inv: SIMD3<Double>, tmin: Double, tmax: Double
    ) -> TriangleHit {
        // Barycentric slack so a ray through a shared edge hits one of its triangles despite rounding.
        let slack = 1e-12
        var bestTriangle = -1
        var bestU = 0.0, bestV = 0.0
        var far = tmax
        var top = 0
        var index = 0
        guard let base = UnsafeRawPointer(nodes.baseAddress) else { return .miss }
        // Byte offsets of the near and far bound of each axis (minimum first along a positive
        // direction), so the slab test needs no minimum and maximum per axis: the same entry as
        // ``BVHNode/entry(origin:inverse:tmin:tmax:)``.
        let stride = MemoryLayout<BVHNode>.stride
        let offsets = BVHNode.boundOffsets
        let (minX, minY, minZ) = (offsets[0], offsets[1], offsets[2])
        let (maxX, maxY, maxZ) = (offsets[3], offsets[4], offsets[5])
        let (nearX, farX) = inv.x < 0 ? (maxX, minX) : (minX, maxX)
        let (nearY, farY) = inv.y < 0 ? (maxY, minY) : (minY, maxY)
        let (nearZ, farZ) = inv.z < 0 ? (maxZ, minZ) : (minZ, maxZ)
        @inline(__always) func entry(_ i: Int, _ tmax: Double) -> Double {
            let node = base + i * stride
            let x0 = (Double(node.load(fromByteOffset: nearX, as: Float.self)) - o.x) * inv.x
            let x1 = (Double(node.load(fromByteOffset: farX, as: Float.self)) - o.x) * inv.x
            let y0 = (Double(node.load(fromByteOffset: nearY, as: Float.self)) - o.y) * inv.y
            let y1 = (Double(node.load(fromByteOffset: farY, as: Float.self)) - o.y) * inv.y
            let z0 = (Double(node.load(fromByteOffset: nearZ, as: Float.self)) - o.z) * inv.z
            let z1 = (Double(node.load(fromByteOffset: farZ, as: Float.self)) - o.z) * inv.z
            let near = larger(larger(x0, y0), larger(z0, tmin))
            let far = smaller(smaller(x1, y1), smaller(z1, tmax))
            return near <= far ? near : .infinity
        }
        guard entry(0, far) < .infinity else { return .miss }
        while true {
            let node = nodes[index]
            if node.isLeaf {
                let end = Int(node.first) + Int(node.count)
                for k in Int(node.first)..<end {
                    let triangle = Int(order[k])
                    let tri = triangles[triangle]
                    let p0 = positions[Int(tri.x)]
                    let e1 = positions[Int(tri.y)] - p0
                    let e2 = positions[Int(tri.z)] - p0
                    // Möller–Trumbore, double-sided.
                    let p = cross(d, e2)
                    let det = dot(e1, p)
                    guard det != 0 else { continue }
                    let invDet = 1 / det
                    let s = o - p0
                    let u = dot(s, p) * invDet
                    guard u >= -slack, u <= 1 + slack else { continue }
                    let q = cross(s, e1)
                    let v = dot(d, q) * invDet
                    guard v >= -slack, u + v <= 1 + slack else { continue }
                    let t = dot(e2, q) * invDet
                    guard t >= tmin, t <= far, t.isFinite else { continue }
                    // Of equal t, the lowest index wins.
                    if bestTriangle >= 0, t == far, triangle > bestTriangle { continue }
                    bestTriangle = triangle
                    bestU = u
                    bestV = v
                    far = t
                }
            } else {
                let left = Int(node.first), right = left + 1
                let tl = entry(left, far)
                let tr = entry(right, far)
                if tl < .infinity, tr < .infinity {
                    // Nearer child first; the other waits on the stack.
                    let (near, other) = tl <= tr ? (left, right) : (right, left)
                    if top < stack.count {
                        stack[top] = Int32(truncatingIfNeeded: other)
                        top += 1
                    }
                    index = near
                    continue
                } else if tl < .infinity {
                    index = left
                    continue
                } else if tr < .infinity {
                    index = right
                    continue
                }
            }
            // Pop, skipping nodes that now lie beyond the nearest hit.
            var next = -1
            while top > 0 {
                top -= 1
                let candidate = Int(stack[top])
                if entry(candidate, far) < .infinity {
                    next = candidate
                    break
                }
            }
            if next < 0 { break }
            index = next
        }
        guard bestTriangle >= 0 else { return .miss }
        return TriangleHit(t: far, u: bestU, v: bestV, triangle: Int32(truncatingIfNeeded: bestTriangle))
    }
}

// Written out here so they inline into the walk (plain comparisons compile to single min/max
// instructions; the generic ones check for NaN).
@inline(__always) private func larger(_ a: Double, _ b: Double) -> Double { a > b ? a : b }
@inline(__always) private func smaller(_ a: Double, _ b: Double) -> Double { a < b ? a : b }
@inline(__always) private func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
    a.x * b.x + a.y * b.y + a.z * b.z
}
@inline(__always) private func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}

extension TriangleBVH {
    /// The ray direction's componentwise inverse for the slab test. A zero component would make
    /// 0 · ∞ = NaN there; a huge finite inverse keeps it a plain miss-or-hit.
    @inline(__always)
    static func inverse(_ d: SIMD3<Double>) -> SIMD3<Double> {
        func inverse(_ x: Double) -> Double {
            x != 0 ? 1 / x : (x.sign == .minus ? -Double.greatestFiniteMagnitude : .greatestFiniteMagnitude)
        }
        return SIMD3(inverse(d.x), inverse(d.y), inverse(d.z))
    }
}
