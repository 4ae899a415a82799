import SurfaceKit

/// A bounding volume hierarchy over a triangle mesh: a flat array of nodes with integer children,
/// walked with an explicit stack, built deterministically. Triangles are copied in leaf order as
/// (a, b − a, c − a) so a query reads them sequentially.
struct TriangleBVH: Sendable {
    var nodes: [BVHNode]
    /// Original triangle index of each triangle in leaf order.
    var order: [Int32]
    /// Nine numbers per triangle in leaf order: a, b − a, c − a.
    var edges: [Double]

    /// The deepest a balanced build gets (median splits halve the work) with room to spare.
    static let stackCapacity = 128

    /// The nearest hit in `tmin…tmax` (closed), or `nil`: the original triangle, t and the
    /// barycentric (u, v) of b and c.
    func intersect(origin o: SIMD3<Double>, direction d: SIMD3<Double>, tmin: Double, tmax: Double)
        -> (triangle: Int, t: Double, u: Double, v: Double)?
    {
        guard !nodes.isEmpty else { return nil }
        // A zero component would make 0 · ∞ = NaN in the slab test; a huge finite inverse keeps it
        // a plain miss-or-hit.
        func inverse(_ x: Double) -> Double {
            x != 0 ? 1 / x : (x.sign == .minus ? -Double.greatestFiniteMagnitude : .greatestFiniteMagnitude)
        }
        let inv = SIMD3(inverse(d.x), inverse(d.y), inverse(d.z))
        // Barycentric slack so a ray through a shared edge hits one of its triangles despite rounding.
        let slack = 1e-12
        return nodes.withUnsafeBufferPointer { nodes in
            edges.withUnsafeBufferPointer { e in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: TriangleBVH.stackCapacity) { stack in
                    // Declared inside the closures so they stay on the stack (a captured, mutated
                    // variable would be boxed on the heap, one allocation per query).
                    var best: (triangle: Int, t: Double, u: Double, v: Double)?
                    var far = tmax
                    var top = 0
                    var index = 0
                    guard nodes[0].entry(origin: o, inverse: inv, tmin: tmin, tmax: far) < .infinity else { return nil }
                    while true {
                        let node = nodes[index]
                        if node.isLeaf {
                            let end = Int(node.first) + Int(node.count)
                            for k in Int(node.first)..<end {
                                let b = 9 * k
                                let p0 = SIMD3(e[b], e[b + 1], e[b + 2])
                                let e1 = SIMD3(e[b + 3], e[b + 4], e[b + 5])
                                let e2 = SIMD3(e[b + 6], e[b + 7], e[b + 8])
                                // Möller–Trumbore, double-sided.
                                let p = d.cross(e2)
                                let det = e1.dot(p)
                                guard det != 0 else { continue }
                                let invDet = 1 / det
                                let s = o - p0
                                let u = s.dot(p) * invDet
                                guard u >= -slack, u <= 1 + slack else { continue }
                                let q = s.cross(e1)
                                let v = d.dot(q) * invDet
                                guard v >= -slack, u + v <= 1 + slack else { continue }
                                let t = e2.dot(q) * invDet
                                guard t >= tmin, t <= far, t.isFinite else { continue }
                                if let current = best, t >= current.t { continue }
                                best = (k, t, u, v)
                                far = t
                            }
                        } else {
                            let left = Int(node.first), right = left + 1
                            let tl = nodes[left].entry(origin: o, inverse: inv, tmin: tmin, tmax: far)
                            let tr = nodes[right].entry(origin: o, inverse: inv, tmin: tmin, tmax: far)
                            if tl < .infinity, tr < .infinity {
                                // Nearer child first; the other waits on the stack.
                                let (near, other) = tl <= tr ? (left, right) : (right, left)
                                if top < stack.count {
                                    stack[top] = Int32(other)
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
                            if nodes[candidate].entry(origin: o, inverse: inv, tmin: tmin, tmax: far) < .infinity {
                                next = candidate
                                break
                            }
                        }
                        if next < 0 { break }
                        index = next
                    }
                    return best.map { (Int(order[$0.triangle]), $0.t, $0.u, $0.v) }
                }
            }
        }
    }
}
