import SurfaceKit

extension TriangleBVH {
    /// Builds the hierarchy over `triangles`. With a `grid` (a tessellation's layout, at least two
    /// control faces) the sub-quads of each control face already form a hierarchy: each face's
    /// res × res sub-quads are split in halves down to parts of a row, the same shape for every face, so
    /// that shape is worked out once and stamped onto every face in parallel, straight into wide
    /// nodes, and the control faces are split at the median of their centres (see `GridBuild`).
    /// Without one, triangles are split at the median
    /// centroid along the widest axis. Either way every split is a median, so the tree is balanced,
    /// and ties are broken by index, so the build is deterministic.
    init(positions: [Point3D], triangles: [SIMD3<Int32>], grid: TessellationGrid?) {
        if let grid, grid.triangleCount == triangles.count, grid.controlFaces > 1, grid.resolution > 0,
            grid.trianglesPerQuad > 0
        {
            let built = GridBuild.build(positions: positions, triangles: triangles, grid: grid)
            self.init(
                nodeStorage: built.storage, nodeStart: built.start, nodeCount: built.count, root: built.root,
                order: [], positions: positions, triangles: triangles)
            return
        }
        var builder = Builder(positions: positions, triangles: triangles)
        builder.buildTriangles()
        builder.nodes.removeLast(builder.nodes.count - builder.used)
        let wide = TriangleBVH.collapse(builder.nodes)
        self.init(
            nodeStorage: wide.storage, nodeStart: wide.start, nodeCount: wide.count, root: builder.nodes.first,
            order: builder.order, positions: positions, triangles: triangles)
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

        /// The sub-tree of one face of `grid`, the same for every face: nodes with the children of
        /// local node i at local `first`, `first + 1` (from 1 on), and leaves naming a run of the
        /// face's own triangles, `first` counted from the face's first triangle. A leaf is part of
        /// one row of sub-quads (at most `leafTriangles`, or one sub-quad), whose triangles are
        /// consecutive in the tessellation's order, so the leaves need no index array: a rectangle of several rows
        /// is split across its rows when they are at least as many as its columns, else across
        /// its columns, each at the middle.
        static func faceShape(_ grid: TessellationGrid, leafTriangles: Int = TriangleBVH.leafSize) -> [BVHNode] {
            let maxQuadsInLeaf = Swift.max(1, leafTriangles / grid.trianglesPerQuad)
            var nodes = [BVHNode()]
            var stack = [GridTask(node: 0, rows: 0..<grid.resolution, columns: 0..<grid.resolution)]
            while let task = stack.popLast() {
                if task.rows.count == 1, task.columns.count <= maxQuadsInLeaf {
                    let first = task.rows.lowerBound * grid.resolution + task.columns.lowerBound
                    nodes[task.node].first = Int32(first * grid.trianglesPerQuad)
                    nodes[task.node].count = Int32(task.columns.count * grid.trianglesPerQuad)
                    continue
                }
                var a = task, b = task
                if task.rows.count > 1, task.rows.count >= task.columns.count {
                    let mid = task.rows.lowerBound + task.rows.count / 2
                    a.rows = task.rows.lowerBound..<mid
                    b.rows = mid..<task.rows.upperBound
                } else {
                    let mid = task.columns.lowerBound + task.columns.count / 2
                    a.columns = task.columns.lowerBound..<mid
                    b.columns = mid..<task.columns.upperBound
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
            return nodes
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

            /// A leaf's box: its triangles' corners, rounded outward; the triangles are
            /// `order[first..<first + count]`, or with no `order` the run `first..<first + count`
            /// itself.
            @inline(__always)
            func setLeafBox(_ node: inout BVHNode, order: UnsafeBufferPointer<Int32>?) {
                // Coordinate by coordinate with `Swift.min` and `Swift.max`, which compile to
                // single instructions where `pointwiseMin` of a 3-vector branched; the same
                // values (a NaN coordinate is skipped by both).
                var loX = Double.infinity, loY = Double.infinity, loZ = Double.infinity
                var hiX = -Double.infinity, hiY = -Double.infinity, hiZ = -Double.infinity
                for k in Int(node.first)..<(Int(node.first) + Int(node.count)) {
                    let tri = triangles[order.map { Int($0[k]) } ?? k]
                    for c in 0..<3 {
                        let p = positions[Int(tri[c])]
                        loX = Swift.min(loX, p.x)
                        loY = Swift.min(loY, p.y)
                        loZ = Swift.min(loZ, p.z)
                        hiX = Swift.max(hiX, p.x)
                        hiY = Swift.max(hiY, p.y)
                        hiZ = Swift.max(hiZ, p.z)
                    }
                }
                node.setBox(lo: SIMD3(loX, loY, loZ), hi: SIMD3(hiX, hiY, hiZ))
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

extension TriangleBVH {
    /// The binary tree `binary` (root 0, children of an inner node at `first` and `first + 1`,
    /// always after their parent; nodes not reached from the root ignored) as a 4-wide one, in
    /// the walk's aligned node memory: each inner node at an even depth becomes a wide node
    /// whose lanes are its children, or in place of an inner child that child's own two, so it
    /// has up to four lanes and the tree half the levels. Boxes are copied unchanged; wide nodes
    /// keep the binary order (parents before children). Two passes in index order: depths and
    /// wide indices, then the lanes.
    static func collapse(_ binary: [BVHNode]) -> (storage: [SIMD4<Float>], start: Int, count: Int) {
        let n = binary.count
        guard n > 0 else { return ([], 0, 0) }
        // −1: not a wide node; −2: an inner node at an odd depth; ≥ 0: its wide node.
        var wide = [Int32](repeating: -1, count: n)
        var count = 0
        binary.withUnsafeBufferPointer { binary in
            wide.withUnsafeMutableBufferPointer { wide in
                wide[0] = 0
                count = 1
                for b in 0..<n where wide[b] != -1 && !binary[b].isLeaf {
                    let first = Int(binary[b].first)
                    if wide[b] == -2 {
                        for c in first...(first + 1) where !binary[c].isLeaf {
                            wide[c] = Int32(truncatingIfNeeded: count)
                            count += 1
                        }
                    } else {
                        for c in first...(first + 1) where !binary[c].isLeaf { wide[c] = -2 }
                    }
                }
            }
        }
        let vectorsPerNode = WideNode.size / MemoryLayout<SIMD4<Float>>.stride
        let padding = WideNode.alignment / MemoryLayout<SIMD4<Float>>.stride
        var start = 0
        let storage = [SIMD4<Float>](unsafeUninitializedCapacity: count * vectorsPerNode + padding) { buffer, initialized in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            guard let base = raw.baseAddress else { return }
            let address = UInt(bitPattern: base)
            let alignment = UInt(WideNode.alignment)
            start = Int(((address + alignment - 1) & ~(alignment - 1)) - address)
            // The padding before node 0 and after the last; every node is written in full below.
            UnsafeMutableRawBufferPointer(rebasing: raw[..<start]).initializeMemory(as: UInt8.self, repeating: 0)
            UnsafeMutableRawBufferPointer(rebasing: raw[(start + count * WideNode.size)...]).initializeMemory(as: UInt8.self, repeating: 0)
            binary.withUnsafeBufferPointer { binary in
                wide.withUnsafeBufferPointer { wide in
                    func lane(_ node: UnsafeMutableRawPointer, _ k: Int, _ c: Int) {
                        let child = binary[c]
                        if child.isLeaf {
                            WideNode.set(node, lane: k, box: child, child: child.first, count: child.count)
                        } else {
                            WideNode.set(node, lane: k, box: child, child: wide[c], count: 0)
                        }
                    }
                    for b in 0..<n where wide[b] >= 0 {
                        let node = base + start + Int(wide[b]) * WideNode.size
                        WideNode.clear(node)
                        if binary[b].isLeaf {
                            // A root that is a leaf: one lane.
                            lane(node, 0, b)
                            continue
                        }
                        var k = 0
                        let first = Int(binary[b].first)
                        for c in first...(first + 1) {
                            if binary[c].isLeaf {
                                lane(node, k, c)
                                k += 1
                            } else {
                                let grand = Int(binary[c].first)
                                lane(node, k, grand)
                                lane(node, k + 1, grand + 1)
                                k += 2
                            }
                        }
                    }
                }
            }
            initialized = buffer.count
        }
        return (storage, start, count)
    }
}
