import SurfaceKit

/// A BSP tree over screen-space pieces of one overlap cluster, viewed orthographically along −z
/// (the viewer at +z infinity after the perspective divide). Nodes live in a flat array with
/// integer children; building and walking use explicit stacks, so deep trees cannot overflow the
/// call stack. Splitting planes are chosen by list position only, which makes the result
/// deterministic.
///
/// Memory is bounded by the pieces: every node takes at least one piece out of the work (its
/// splitter, or all that are left when none has a plane) and no piece is in two lists, so there
/// are at most as many nodes as pieces, and `budget` bounds the pieces.
struct ScreenBSP: Sendable {
    struct Node: Sendable {
        /// The node's pieces, `nodePieces[first..<first + count]`: those in its plane (or
        /// degenerate ones), drawn between the two sides.
        var first: Int32
        var count: Int32
        /// The child on the far side of the plane from the viewer, drawn first; −1 for none.
        var behind: Int32
        /// The child on the viewer's side, drawn last; −1 for none.
        var inFront: Int32
    }

    private(set) var nodes: [Node] = []
    /// The pieces of all nodes, each node's a contiguous run (one array, not one per node).
    private(set) var nodePieces: [Int32] = []

    /// Builds the tree for `cluster` (piece indices into `pool.triangles`), splitting pieces that
    /// straddle a plane. Split pieces are appended to the pool; `budget` bounds the pool's total
    /// triangle count, past which this throws `.limitExceeded`.
    init(cluster: [Int32], pool: inout SortPool, budget: Int) throws {
        guard !cluster.isEmpty else { return }
        // Tolerances relative to the cluster's size, so the test means the same at any scale.
        var lo = SIMD3<Double>(repeating: .infinity), hi = SIMD3<Double>(repeating: -.infinity)
        for p in cluster {
            let t = pool.triangles[Int(p)]
            for k in 0..<3 {
                lo = pointwiseMin(lo, pool.screen[Int(t[k])])
                hi = pointwiseMax(hi, pool.screen[Int(t[k])])
            }
        }
        let size = max((hi - lo).max(), 1e-300)
        let onPlane = 1e-12 * size
        let minimumNormal = 1e-24 * size * size

        // Each work item is a list of pieces and the child slot of its parent it fills.
        struct Work { var pieces: [Int32]; var parent: Int32; var inFront: Bool }
        var work = [Work(pieces: cluster, parent: -1, inFront: false)]
        while let item = work.popLast() {
            let index = Int32(nodes.count)
            if item.parent >= 0 {
                if item.inFront { nodes[Int(item.parent)].inFront = index } else { nodes[Int(item.parent)].behind = index }
            }
            let splitter =
                item.pieces.count > 1
                ? ScreenBSP.chooseSplitter(item.pieces, pool: pool, minimumNormal: minimumNormal, onPlane: onPlane) : nil
            let first = Int32(nodePieces.count)
            guard let (plane, own) = splitter else {
                nodePieces += item.pieces
                nodes.append(Node(first: first, count: Int32(item.pieces.count), behind: -1, inFront: -1))
                continue
            }
            // The viewer is at +z infinity: on the positive side when the normal points up in z.
            let viewerPositive = plane.normal.z >= 0
            // The splitter is in its own plane whatever rounding says of its corners; taking it here
            // is what guarantees progress (a sliver can have all three corners on one side of its
            // computed plane, and would otherwise go down alone to a child, forever).
            nodePieces.append(own)
            var positive: [Int32] = [], negative: [Int32] = []
            for p in item.pieces where p != own {
                let t = pool.triangles[Int(p)]
                var f = SIMD3<Double>()
                var side = SIMD3<Int32>()
                for k in 0..<3 {
                    f[k] = plane.distance(to: pool.screen[Int(t[k])])
                    side[k] = f[k] > onPlane ? 1 : (f[k] < -onPlane ? -1 : 0)
                }
                let hasPositive = side.x > 0 || side.y > 0 || side.z > 0
                let hasNegative = side.x < 0 || side.y < 0 || side.z < 0
                switch (hasPositive, hasNegative) {
                case (false, false): nodePieces.append(p)
                case (true, false): positive.append(p)
                case (false, true): negative.append(p)
                case (true, true):
                    let (pos, neg) = try split(piece: p, distances: f, sides: side, pool: &pool)
                    positive += pos
                    negative += neg
                    guard pool.triangles.count <= budget else {
                        throw MeshError(
                            .limitExceeded, path: "",
                            "the exact painter's sort needs more than \(pool.triangles.count) triangles, over the budget of \(budget)")
                    }
                }
            }
            let (behind, front) = viewerPositive ? (negative, positive) : (positive, negative)
            nodes.append(Node(first: first, count: Int32(nodePieces.count) - first, behind: -1, inFront: -1))
            // Children are built after this node; order of building does not change the walk.
            if !front.isEmpty { work.append(Work(pieces: front, parent: index, inFront: true)) }
            if !behind.isEmpty { work.append(Work(pieces: behind, parent: index, inFront: false)) }
        }
    }

    /// The pieces back to front: an in-order walk (behind, node, in front) with an explicit stack.
    func drawOrder() -> [Int32] {
        var order: [Int32] = []
        var stack: [Int32] = []
        var current: Int32 = nodes.isEmpty ? -1 : 0
        while current >= 0 || !stack.isEmpty {
            while current >= 0 {
                stack.append(current)
                current = nodes[Int(current)].behind
            }
            guard let top = stack.popLast() else { break }
            let node = nodes[Int(top)]
            order += nodePieces[Int(node.first)..<Int(node.first + node.count)]
            current = nodes[Int(top)].inFront
        }
        return order
    }
}

extension ScreenBSP {
    /// A splitting plane through a corner of the piece it was made from. Distances are measured
    /// from that corner, not from the origin: the products then have the size of the cluster, not
    /// of the screen coordinates, so a scene moved far from the origin (10¹⁵ points, where an
    /// absolute offset keeps no digit of the cluster's size) is split where it was at the origin.
    struct Plane: Sendable {
        var normal: SIMD3<Double>
        var origin: Point3D

        /// The signed distance of `p` from the plane (the normal is a unit vector).
        @inline(__always)
        func distance(to p: Point3D) -> Double { (normal * (p - origin)).sum() }
    }

    /// The splitting plane for a list of pieces, with the piece it is the plane of: among up to
    /// 12 candidates spread evenly over the list, the plane that cuts the fewest of up to 96 evenly
    /// spread pieces (ties: the earlier candidate). Taking the first piece instead cuts a folded
    /// surface over and over along its rows. Slivers without a well-defined plane are never
    /// candidates: they cover no area and may be drawn anywhere. Deterministic: only list
    /// positions choose.
    private static func chooseSplitter(
        _ pieces: [Int32], pool: SortPool, minimumNormal: Double, onPlane: Double
    ) -> (plane: Plane, piece: Int32)? {
        let count = pieces.count
        let candidateCount = min(count, 12), sampleCount = min(count, 96)
        var best: (plane: Plane, piece: Int32)?
        var bestCuts = Int.max
        for k in 0..<candidateCount {
            let p = pieces[k * count / candidateCount]
            guard let candidate = plane(of: p, pool: pool, minimumNormal: minimumNormal) else { continue }
            var cuts = 0
            for m in 0..<sampleCount {
                let t = pool.triangles[Int(pieces[m * count / sampleCount])]
                var positive = false, negative = false
                for k in 0..<3 {
                    let f = candidate.distance(to: pool.screen[Int(t[k])])
                    if f > onPlane { positive = true } else if f < -onPlane { negative = true }
                }
                if positive && negative { cuts += 1 }
            }
            if cuts < bestCuts {
                best = (candidate, p)
                bestCuts = cuts
            }
            if cuts == 0 { break }
        }
        if best != nil { return best }
        for p in pieces {
            if let found = plane(of: p, pool: pool, minimumNormal: minimumNormal) { return (found, p) }
        }
        return nil
    }

    /// The plane of a piece in screen space, or nil for a sliver without a well-defined one. The
    /// normal is the cross product of the two shorter edges, from the corner between them: for a
    /// sliver whose long edges are nearly parallel, their cross product loses most of its digits
    /// to cancellation and tilts the plane away from the piece's own corners (by 8e-10 in a
    /// cluster 0.18 across on the tilted ripple, nearly 5,000 times the on-plane tolerance), while
    /// the short edges' is accurate to rounding.
    static func plane(of p: Int32, pool: SortPool, minimumNormal: Double) -> Plane? {
        let t = pool.triangles[Int(p)]
        let v = (pool.screen[Int(t.x)], pool.screen[Int(t.y)], pool.screen[Int(t.z)])
        func lengthSquared(_ d: SIMD3<Double>) -> Double { (d * d).sum() }
        // Edge k is opposite corner k; the corner opposite the longest edge joins the shorter two.
        let opposite = (lengthSquared(v.2 - v.1), lengthSquared(v.0 - v.2), lengthSquared(v.1 - v.0))
        let (a, b, c) =
            opposite.0 >= opposite.1 && opposite.0 >= opposite.2
            ? (v.0, v.1, v.2) : (opposite.1 >= opposite.2 ? (v.1, v.2, v.0) : (v.2, v.0, v.1))
        let n = (b - a).cross(c - a)
        let len = (n * n).sum().squareRoot()
        guard len > minimumNormal else { return nil }
        return Plane(normal: n / len, origin: a)
    }

    /// Cuts a piece along the plane into pieces on its positive and negative sides (corners on the
    /// plane go to both). The new corners are placed in points space: with f the screen distance
    /// to the plane, w·f is affine in points space (the plane equation times w is linear in the
    /// homogeneous point), so the crossing of a → b is at points parameter
    /// t = w_a f_a / (w_a f_a − w_b f_b), the screen parameter s = f_a / (f_a − f_b) taken back
    /// through the divide: t = s·w_a / ((1 − s)·w_b + s·w_a).
    private func split(piece p: Int32, distances f: SIMD3<Double>, sides: SIMD3<Int32>, pool: inout SortPool) throws -> ([Int32], [Int32]) {
        // A split adds at most two triangles, which must stay addressable by Int32.
        guard pool.triangles.count < Int(Int32.max) - 2 else {
            throw MeshError(.limitExceeded, path: "", "the painter's sort needs more than \(Int32.max) triangles")
        }
        let t = pool.triangles[Int(p)]
        let face = pool.sourceFaces[Int(p)]
        var positive: [Int32] = [], negative: [Int32] = []
        for k in 0..<3 {
            let a = t[k], b = t[(k + 1) % 3]
            let sa = sides[k], sb = sides[(k + 1) % 3]
            if sa >= 0 { positive.append(a) }
            if sa <= 0 { negative.append(a) }
            if sa * sb < 0 {
                let ga = pool.homogeneousW(ofVertex: Int(a)) * f[k], gb = pool.homogeneousW(ofVertex: Int(b)) * f[(k + 1) % 3]
                let v = try pool.interpolatedVertex(a, b, t: ga / (ga - gb))
                positive.append(v)
                negative.append(v)
            }
        }
        // The first fan triangle reuses the piece's slot so that indices of other pieces stay put.
        var made: ([Int32], [Int32]) = ([], [])
        var reused = false
        for (polygon, isPositive) in [(positive, true), (negative, false)] where polygon.count >= 3 {
            for k in 1..<(polygon.count - 1) {
                let tri = SIMD3(polygon[0], polygon[k], polygon[k + 1])
                let slot: Int32
                if !reused {
                    pool.triangles[Int(p)] = tri
                    slot = p
                    reused = true
                } else {
                    pool.triangles.append(tri)
                    pool.sourceFaces.append(face)
                    slot = Int32(pool.triangles.count - 1)
                }
                if isPositive { made.0.append(slot) } else { made.1.append(slot) }
            }
        }
        return made
    }
}
