import SurfaceKit

extension TriangleBVH {
    /// Builds the hierarchy over `triangles`. With a `grid` (a tessellation's layout) the sub-quads of
    /// each control face already form a hierarchy: each face's res × res sub-quads are split by
    /// halving the longer side, the same shape for every face, so that shape is worked out once and
    /// stamped onto every face (in parallel, with only the boxes to compute), and the control faces
    /// are split at the median of their box centres. Without one, triangles are split at the median
    /// centroid along the widest axis. Either way every split is a median, so the tree is balanced,
    /// and ties are broken by index, so the build is deterministic.
    init(positions: [Point3D], triangles: [SIMD3<Int32>], grid: TessellationGrid?) {
        var builder = Builder(positions: positions, triangles: triangles)
        if let grid, grid.triangleCount == triangles.count, grid.controlFaces > 0, grid.resolution > 0,
            grid.trianglesPerQuad > 0
        {
            builder.buildGrid(grid)
        } else {
            builder.buildTriangles()
        }
        builder.nodes.removeLast(builder.nodes.count - builder.used)
        self.init(nodes: builder.nodes, order: builder.order, positions: positions, triangles: triangles)
    }
}

extension TriangleBVH {
    /// Leaves hold at most this many triangles.
    static let leafSize = 4

    struct Builder {
        let positions: [Point3D]
        let triangles: [SIMD3<Int32>]
        /// Node 0 is the root and node 1 is unused, so siblings sit at even indices, side by side.
        var nodes: [BVHNode] = []
        var used = 0
        var order: [Int32] = []

        init(positions: [Point3D], triangles: [SIMD3<Int32>]) {
            self.positions = positions
            self.triangles = triangles
        }

        /// Splits items (control faces or triangles) at median centres until few enough remain.
        struct ItemTask {
            var node: Int
            var range: Range<Int>
        }

        /// A rectangle of one control face's sub-quads: rows r0..<r1, columns c0..<c1.
        struct GridTask {
            var node: Int
            var rows: Range<Int>
            var columns: Range<Int>
        }

        /// The indices of two fresh sibling nodes.
        mutating func allocatePair() -> Int {
            let left = used
            used += 2
            while nodes.count < used { nodes.append(BVHNode()) }
            return left
        }

        mutating func buildTriangles() {
            let (positions, triangles) = (self.positions, self.triangles)
            guard !triangles.isEmpty else { return }
            nodes = [BVHNode(), BVHNode()]
            used = 2
            order.reserveCapacity(triangles.count)
            let centres = triangles.map { t in
                (positions[Int(t.x)] + positions[Int(t.y)] + positions[Int(t.z)]) / 3
            }
            var items = Array(0..<Int32(triangles.count))
            splitItems(&items, centres: centres, leafItems: TriangleBVH.leafSize) { builder, node, slice in
                let start = builder.order.count
                builder.order.append(contentsOf: slice)
                builder.nodes[node].first = Int32(start)
                builder.nodes[node].count = Int32(slice.count)
            }
            let used = self.used
            order.withUnsafeBufferPointer { order in
                nodes.withUnsafeMutableBufferPointer { nodes in
                    Corners.with(positions: positions, triangles: triangles) { corners in
                        for i in stride(from: used - 1, through: 0, by: -1) where i != 1 {
                            if nodes[i].isLeaf {
                                corners.setLeafBox(&nodes[i], order: order)
                            } else {
                                Builder.setInnerBox(&nodes[i], nodes: UnsafeBufferPointer(nodes))
                            }
                        }
                    }
                }
            }
        }

        mutating func buildGrid(_ grid: TessellationGrid) {
            let faces = grid.controlFaces
            let perFace = grid.quadsPerFace * grid.trianglesPerQuad
            let (shape, shapeOrder) = Builder.faceShape(grid)
            // The top tree over faces takes nodes 0..<2F (node 1 unused); face f's own nodes below
            // its root follow at topCount + f · (shape.count − 1).
            let topCount = 2 * faces
            let below = shape.count - 1
            nodes = [BVHNode](repeating: BVHNode(), count: topCount + faces * below)
            order = [Int32](repeating: 0, count: triangles.count)
            var roots = [BVHNode](repeating: BVHNode(), count: faces)
            let (positions, triangles) = (self.positions, self.triangles)
            nodes.withUnsafeMutableBufferPointer { nodes in
                order.withUnsafeMutableBufferPointer { order in
                    roots.withUnsafeMutableBufferPointer { roots in
                        Corners.with(positions: positions, triangles: triangles) { corners in
                            let (nodesOut, orderOut, rootsOut) = (nodes, order, roots)
                            // Each face writes only its own nodes, slots and root.
                            parallelChunks(faces, minimumChunk: 256) { range in
                                for f in range {
                                    corners.stamp(
                                        face: f, shape: shape, shapeOrder: shapeOrder, perFace: perFace,
                                        base: topCount + f * below, nodes: nodesOut, order: orderOut, root: &rootsOut[f])
                                }
                            }
                        }
                    }
                }
            }
            let centres = roots.map { ($0.lower + $0.upper) / 2 }
            var items = Array(0..<Int32(faces))
            used = 2
            splitItems(&items, centres: centres, leafItems: 1) { builder, node, slice in
                builder.nodes[node] = roots[Int(slice[slice.startIndex])]
            }
            used = nodes.count
            // Boxes of the top tree's inner nodes, children before parents; face roots are done.
            nodes.withUnsafeMutableBufferPointer { nodes in
                for i in stride(from: topCount - 1, through: 0, by: -1) where i != 1 {
                    if !nodes[i].isLeaf, Int(nodes[i].first) < topCount {
                        Builder.setInnerBox(&nodes[i], nodes: UnsafeBufferPointer(nodes))
                    }
                }
            }
        }

        /// The sub-tree of one face of `grid`, the same for every face: nodes with the children of
        /// local node i at local `first`, `first + 1` (from 1 on) and leaves' `first` counted in the
        /// face's slots of `order`; and those slots' triangles, counted from the face's first.
        static func faceShape(_ grid: TessellationGrid) -> (nodes: [BVHNode], order: [Int32]) {
            let maxQuadsInLeaf = Swift.max(1, TriangleBVH.leafSize / grid.trianglesPerQuad)
            var nodes = [BVHNode()]
            var order: [Int32] = []
            var stack = [GridTask(node: 0, rows: 0..<grid.resolution, columns: 0..<grid.resolution)]
            while let task = stack.popLast() {
                let quads = task.rows.count * task.columns.count
                if quads <= maxQuadsInLeaf {
                    nodes[task.node].first = Int32(order.count)
                    for r in task.rows {
                        for c in task.columns {
                            let q = r * grid.resolution + c
                            for k in 0..<grid.trianglesPerQuad { order.append(Int32(q * grid.trianglesPerQuad + k)) }
                        }
                    }
                    nodes[task.node].count = Int32(order.count) - nodes[task.node].first
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
            return (nodes, order)
        }

        mutating func splitItems(
            _ items: inout [Int32], centres: [SIMD3<Double>], leafItems: Int,
            leaf: (inout Builder, Int, ArraySlice<Int32>) -> Void
        ) {
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
                let left = allocatePair()
                nodes[task.node].first = Int32(left)
                nodes[task.node].count = 0
                // Right pushed first so the left half is laid out first.
                stack.append(ItemTask(node: left + 1, range: mid..<range.upperBound))
                stack.append(ItemTask(node: left, range: range.lowerBound..<mid))
            }
        }

        /// The mesh's vertices and triangles, read without copies while boxes are computed.
        struct Corners {
            let positions: UnsafeBufferPointer<Point3D>
            let triangles: UnsafeBufferPointer<SIMD3<Int32>>

            static func with(
                positions: [Point3D], triangles: [SIMD3<Int32>], _ body: (Corners) -> Void
            ) {
                positions.withUnsafeBufferPointer { p in
                    triangles.withUnsafeBufferPointer { t in body(Corners(positions: p, triangles: t)) }
                }
            }

            /// A leaf's box: its triangles' corners, rounded outward.
            @inline(__always)
            func setLeafBox(_ node: inout BVHNode, order: UnsafeBufferPointer<Int32>) {
                var lo = SIMD3(repeating: Double.infinity), hi = SIMD3(repeating: -Double.infinity)
                for k in Int(node.first)..<(Int(node.first) + Int(node.count)) {
                    let tri = triangles[Int(order[k])]
                    for c in 0..<3 {
                        let p = positions[Int(tri[c])]
                        lo = pointwiseMin(lo, p)
                        hi = pointwiseMax(hi, p)
                    }
                }
                node.setBox(lo: lo, hi: hi)
            }

            /// One face's sub-tree, copied from `shape` (local node 0 is the face's root, the rest go to
            /// `base + local − 1`) with its boxes, and its triangles' slots of `order`.
            func stamp(
                face f: Int, shape: [BVHNode], shapeOrder: [Int32], perFace: Int, base: Int,
                nodes: UnsafeMutableBufferPointer<BVHNode>, order: UnsafeMutableBufferPointer<Int32>, root: inout BVHNode
            ) {
                let firstTriangle = f * perFace
                for j in 0..<perFace { order[firstTriangle + j] = Int32(truncatingIfNeeded: firstTriangle) + shapeOrder[j] }
                let orderIn = UnsafeBufferPointer(order)
                func place(_ local: Int) -> BVHNode {
                    var node = shape[local]
                    if node.isLeaf {
                        node.first += Int32(truncatingIfNeeded: firstTriangle)
                        setLeafBox(&node, order: orderIn)
                    } else {
                        node.first += Int32(truncatingIfNeeded: base - 1)
                        Builder.setInnerBox(&node, nodes: UnsafeBufferPointer(nodes))
                    }
                    return node
                }
                for local in stride(from: shape.count - 1, through: 1, by: -1) { nodes[base + local - 1] = place(local) }
                root = place(0)
            }
        }

        /// An inner node's box: its children's.
        @inline(__always)
        static func setInnerBox(_ node: inout BVHNode, nodes: UnsafeBufferPointer<BVHNode>) {
            var box = nodes[Int(node.first)]
            box.include(nodes[Int(node.first) + 1])
            box.first = node.first
            box.count = node.count
            node = box
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
