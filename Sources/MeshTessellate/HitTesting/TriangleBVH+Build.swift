import SurfaceKit

extension TriangleBVH {
    /// Builds the hierarchy over `triangles`. With a `grid` (a tessellation's layout) the sub-quads of
    /// each control face already form a hierarchy: the control faces are split at the median of
    /// their box centres, and each face's res × res sub-quads by halving the longer side, which needs
    /// no sorting below the faces. Without one, triangles are split at the median centroid along the
    /// widest axis. Either way every split is a median, so the tree is balanced, and ties are broken
    /// by index, so the build is deterministic.
    init(positions: [Point3D], triangles: [SIMD3<Int32>], grid: TessellationGrid?) {
        var builder = Builder(positions: positions, triangles: triangles)
        if let grid, grid.triangleCount == triangles.count, grid.controlFaces > 0 {
            builder.buildGrid(grid)
        } else {
            builder.buildTriangles()
        }
        self = builder.finish()
    }
}

extension TriangleBVH {
    /// Leaves hold at most this many triangles.
    static let leafSize = 4

    struct Builder {
        let positions: [Point3D]
        let triangles: [SIMD3<Int32>]
        var nodes: [BVHNode] = []
        var order: [Int32] = []

        init(positions: [Point3D], triangles: [SIMD3<Int32>]) {
            self.positions = positions
            self.triangles = triangles
            order.reserveCapacity(triangles.count)
        }

        /// Splits items (control faces or triangles) at median centres until few enough remain.
        struct ItemTask {
            var node: Int
            var range: Range<Int>
        }

        /// A rectangle of one control face's sub-quads: rows r0..<r1, columns c0..<c1.
        struct GridTask {
            var node: Int
            var face: Int
            var rows: Range<Int>
            var columns: Range<Int>
        }

        mutating func buildTriangles() {
            guard !triangles.isEmpty else { return }
            let centres = triangles.map { t in
                (positions[Int(t.x)] + positions[Int(t.y)] + positions[Int(t.z)]) / 3
            }
            var items = Array(0..<Int32(triangles.count))
            splitItems(&items, centres: centres, leafItems: TriangleBVH.leafSize) { builder, node, slice in
                builder.makeLeaf(node, triangles: slice.lazy.map { Int($0) })
            }
        }

        mutating func buildGrid(_ grid: TessellationGrid) {
            let perFace = grid.quadsPerFace * grid.trianglesPerQuad
            let centres = (0..<grid.controlFaces).map { f -> SIMD3<Double> in
                var box = BVHNode()
                for t in (f * perFace)..<((f + 1) * perFace) {
                    for k in 0..<3 { box.include(positions[Int(triangles[t][k])]) }
                }
                return SIMD3(box.minX + box.maxX, box.minY + box.maxY, box.minZ + box.maxZ) / 2
            }
            var items = Array(0..<Int32(grid.controlFaces))
            var faceTasks: [GridTask] = []
            splitItems(&items, centres: centres, leafItems: 1) { _, node, slice in
                let face = Int(slice[slice.startIndex])
                faceTasks.append(GridTask(node: node, face: face, rows: 0..<grid.resolution, columns: 0..<grid.resolution))
            }
            // Faces' sub-trees, in a fixed order.
            for task in faceTasks { splitGrid(task, grid) }
        }

        mutating func splitItems(
            _ items: inout [Int32], centres: [SIMD3<Double>], leafItems: Int,
            leaf: (inout Builder, Int, ArraySlice<Int32>) -> Void
        ) {
            nodes.append(BVHNode())
            var stack = [ItemTask(node: 0, range: 0..<items.count)]
            while let task = stack.popLast() {
                let range = task.range
                if range.count <= leafItems {
                    leaf(&self, task.node, items[range])
                    continue
                }
                var lo = SIMD3(repeating: Double.infinity), hi = SIMD3(repeating: -Double.infinity)
                for i in range {
                    let c = centres[Int(items[i])]
                    lo = pointwiseMin(lo, c)
                    hi = pointwiseMax(hi, c)
                }
                let extent = hi - lo
                let axis = extent.x >= extent.y && extent.x >= extent.z ? 0 : (extent.y >= extent.z ? 1 : 2)
                let mid = range.lowerBound + range.count / 2
                Builder.select(&items, range: range, nth: mid) { a, b in
                    let ka = centres[Int(a)][axis], kb = centres[Int(b)][axis]
                    return ka < kb || (ka == kb && a < b)
                }
                let left = nodes.count
                nodes.append(BVHNode())
                nodes.append(BVHNode())
                nodes[task.node].first = Int32(left)
                // Right pushed first so the left half is laid out first.
                stack.append(ItemTask(node: left + 1, range: mid..<range.upperBound))
                stack.append(ItemTask(node: left, range: range.lowerBound..<mid))
            }
        }

        mutating func splitGrid(_ root: GridTask, _ grid: TessellationGrid) {
            let maxQuadsInLeaf = Swift.max(1, TriangleBVH.leafSize / grid.trianglesPerQuad)
            var stack = [root]
            while let task = stack.popLast() {
                let quads = task.rows.count * task.columns.count
                if quads <= maxQuadsInLeaf {
                    let base = task.face * grid.quadsPerFace
                    var list: [Int] = []
                    for r in task.rows {
                        for c in task.columns {
                            let q = base + r * grid.resolution + c
                            for k in 0..<grid.trianglesPerQuad { list.append(q * grid.trianglesPerQuad + k) }
                        }
                    }
                    makeLeaf(task.node, triangles: list)
                    continue
                }
                var a = task, b = task
                if task.columns.count >= task.rows.count {
                    let mid = task.columns.lowerBound + task.columns.count / 2
                    a.columns = task.columns.lowerBound..<mid
                    b.columns = mid..<task.columns.upperBound
                } else {
                    let mid = task.rows.lowerBound + task.rows.count / 2
                    a.rows = task.rows.lowerBound..<mid
                    b.rows = mid..<task.rows.upperBound
                }
                let left = nodes.count
                nodes.append(BVHNode())
                nodes.append(BVHNode())
                nodes[task.node].first = Int32(left)
                a.node = left
                b.node = left + 1
                stack.append(b)
                stack.append(a)
            }
        }

        mutating func makeLeaf<S: Sequence>(_ node: Int, triangles list: S) where S.Element == Int {
            let start = order.count
            for t in list { order.append(Int32(t)) }
            nodes[node].first = Int32(start)
            nodes[node].count = Int32(order.count - start)
        }

        /// Boxes bottom-up (children always follow their parent in the array) and the triangles
        /// copied in leaf order.
        func finish() -> TriangleBVH {
            var nodes = self.nodes
            var edges = [Double](repeating: 0, count: 9 * order.count)
            for (k, t) in order.enumerated() {
                let tri = triangles[Int(t)]
                let a = positions[Int(tri.x)], b = positions[Int(tri.y)], c = positions[Int(tri.z)]
                let e1 = b - a, e2 = c - a
                let b9 = 9 * k
                edges[b9] = a.x; edges[b9 + 1] = a.y; edges[b9 + 2] = a.z
                edges[b9 + 3] = e1.x; edges[b9 + 4] = e1.y; edges[b9 + 5] = e1.z
                edges[b9 + 6] = e2.x; edges[b9 + 7] = e2.y; edges[b9 + 8] = e2.z
            }
            for i in stride(from: nodes.count - 1, through: 0, by: -1) {
                var box = BVHNode()
                if nodes[i].isLeaf {
                    for k in Int(nodes[i].first)..<Int(nodes[i].first + nodes[i].count) {
                        let tri = triangles[Int(order[k])]
                        box.include(positions[Int(tri.x)])
                        box.include(positions[Int(tri.y)])
                        box.include(positions[Int(tri.z)])
                    }
                } else {
                    box.include(nodes[Int(nodes[i].first)])
                    box.include(nodes[Int(nodes[i].first) + 1])
                }
                box.first = nodes[i].first
                box.count = nodes[i].count
                nodes[i] = box
            }
            return TriangleBVH(nodes: nodes, order: order, edges: edges)
        }

        /// Rearranges `items[range]` so that the element at `nth` is the one a full sort would put
        /// there, smaller ones before it and larger ones after (quickselect, median-of-three pivot).
        static func select(_ items: inout [Int32], range: Range<Int>, nth: Int, _ less: (Int32, Int32) -> Bool) {
            var lo = range.lowerBound, hi = range.upperBound - 1
            while lo < hi {
                let mid = lo + (hi - lo) / 2
                if less(items[mid], items[lo]) { items.swapAt(mid, lo) }
                if less(items[hi], items[lo]) { items.swapAt(hi, lo) }
                if less(items[hi], items[mid]) { items.swapAt(hi, mid) }
                let pivot = items[mid]
                var i = lo, j = hi
                while i <= j {
                    while less(items[i], pivot) { i += 1 }
                    while less(pivot, items[j]) { j -= 1 }
                    if i <= j {
                        items.swapAt(i, j)
                        i += 1
                        j -= 1
                    }
                }
                if nth <= j { hi = j } else if nth >= i { lo = i } else { return }
            }
        }
    }
}
