import SurfaceKit

/// A BSP tree over screen-space pieces of one overlap cluster, viewed orthographically along −z
/// (the viewer at +z infinity after the perspective divide). Nodes live in a flat array with
/// integer children; building and walking use explicit stacks, so deep trees cannot overflow the
/// call stack. Splitting planes are chosen by list position only, which makes the result
/// deterministic.
struct ScreenBSP: Sendable {
    struct Node: Sendable {
        /// Pieces in the node's plane (or degenerate ones), drawn between the two sides.
        var pieces: [Int32]
        /// The child on the far side of the plane from the viewer, drawn first; −1 for none.
        var behind: Int32
        /// The child on the viewer's side, drawn last; −1 for none.
        var inFront: Int32
    }

    private(set) var nodes: [Node] = []

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
            let plane = ScreenBSP.chooseSplitter(item.pieces, pool: pool, minimumNormal: minimumNormal, onPlane: onPlane)
            guard let plane else {
                nodes.append(Node(pieces: item.pieces, behind: -1, inFront: -1))
                continue
            }
            // The viewer is at +z infinity: on the positive side when the normal points up in z.
            let viewerPositive = plane.normal.z >= 0
            var here: [Int32] = [], positive: [Int32] = [], negative: [Int32] = []
            for p in item.pieces {
                let t = pool.triangles[Int(p)]
                var f = SIMD3<Double>()
                var side = SIMD3<Int32>()
                for k in 0..<3 {
                    f[k] = (plane.normal * pool.screen[Int(t[k])]).sum() + plane.offset
                    side[k] = f[k] > onPlane ? 1 : (f[k] < -onPlane ? -1 : 0)
                }
                let hasPositive = side.x > 0 || side.y > 0 || side.z > 0
                let hasNegative = side.x < 0 || side.y < 0 || side.z < 0
                switch (hasPositive, hasNegative) {
                case (false, false): here.append(p)
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
            nodes.append(Node(pieces: here, behind: -1, inFront: -1))
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
            order += nodes[Int(top)].pieces
            current = nodes[Int(top)].inFront
        }
        return order
    }
}

private extension ScreenBSP {
    /// The splitting plane for a list of pieces: among up to 12 candidates spread evenly over the
    /// list, the plane that cuts the fewest of up to 96 evenly spread pieces (ties: the earlier
    /// candidate). Taking the first piece instead cuts a folded surface over and over along its
    /// rows. Slivers without a well-defined plane are never candidates: they cover no area and may
    /// be drawn anywhere. Deterministic: only list positions choose.
    static func chooseSplitter(
        _ pieces: [Int32], pool: SortPool, minimumNormal: Double, onPlane: Double
    ) -> (normal: SIMD3<Double>, offset: Double)? {
        func plane(of p: Int32) -> (normal: SIMD3<Double>, offset: Double)? {
            let t = pool.triangles[Int(p)]
            let a = pool.screen[Int(t.x)], b = pool.screen[Int(t.y)], c = pool.screen[Int(t.z)]
            let n = (b - a).cross(c - a)
            let len = (n * n).sum().squareRoot()
            guard len > minimumNormal else { return nil }
            let unit = n / len
            return (unit, -(unit * a).sum())
        }
        let count = pieces.count
        let candidateCount = min(count, 12), sampleCount = min(count, 96)
        var best: (normal: SIMD3<Double>, offset: Double)?
        var bestCuts = Int.max
        for k in 0..<candidateCount {
            guard let candidate = plane(of: pieces[k * count / candidateCount]) else { continue }
            var cuts = 0
            for m in 0..<sampleCount {
                let t = pool.triangles[Int(pieces[m * count / sampleCount])]
                var positive = false, negative = false
                for k in 0..<3 {
                    let f = (candidate.normal * pool.screen[Int(t[k])]).sum() + candidate.offset
                    if f > onPlane { positive = true } else if f < -onPlane { negative = true }
                }
                if positive && negative { cuts += 1 }
            }
            if cuts < bestCuts {
                best = candidate
                bestCuts = cuts
            }
            if cuts == 0 { break }
        }
        if best != nil { return best }
        for p in pieces {
            if let found = plane(of: p) { return found }
        }
        return nil
    }

    /// Cuts a piece along the plane into pieces on its positive and negative sides (corners on the
    /// plane go to both). The new corners are placed in points space: with f the screen distance
    /// to the plane, w·f is affine in points space (the plane equation times w is linear in the
    /// homogeneous point), so the crossing of a → b is at points parameter
    /// t = w_a f_a / (w_a f_a − w_b f_b), the screen parameter s = f_a / (f_a − f_b) taken back
    /// through the divide: t = s·w_a / ((1 − s)·w_b + s·w_a).
    func split(piece p: Int32, distances f: SIMD3<Double>, sides: SIMD3<Int32>, pool: inout SortPool) throws -> ([Int32], [Int32]) {
        let t = pool.triangles[Int(p)]
        let face = pool.sourceFaces[Int(p)]
        var positive: [Int32] = [], negative: [Int32] = []
        for k in 0..<3 {
            let a = t[k], b = t[(k + 1) % 3]
            let sa = sides[k], sb = sides[(k + 1) % 3]
            if sa >= 0 { positive.append(a) }
            if sa <= 0 { negative.append(a) }
            if sa * sb < 0 {
                let ga = pool.w[Int(a)] * f[k], gb = pool.w[Int(b)] * f[(k + 1) % 3]
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
