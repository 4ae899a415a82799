import SurfaceKit

extension TriangleBVH {
    /// The hierarchy over a tessellation laid out as a grid (``TessellationGrid``), built straight
    /// into the walk's wide nodes.
    ///
    /// Each control face's sub-quads already form a hierarchy of the same shape for every face
    /// (`Builder.faceShape`); folded into wide nodes it takes one of two shapes, as the face's root
    /// lies at an even depth of the whole tree (the root is a wide node) or an odd one (its
    /// children are lanes of the wide node above), each with the leaf size that suits it (see
    /// `ParityShape`). Only the top tree over the faces, split at the median of their centres, is
    /// built serially: a few nodes a face. Every face then computes its boxes and writes its own
    /// wide nodes (whose leaves name runs of the face's triangles), in parallel, in memory no
    /// other face touches, and the top tree's wide nodes are written last. There is no
    /// binary tree of the whole mesh and no pass over all of it on one thread.
    enum GridBuild {
        /// A lane of a face's wide shape: the face's shape node whose box it takes, and below it a
        /// wide node (`count == 0`, `child` its index among the face's) or a leaf (`child` its
        /// first slot counted from the face's first, `count` its triangles).
        struct Lane {
            var node: Int32
            var child: Int32
            var count: Int32
        }

        /// One face's sub-tree folded into wide nodes for the given depth of its root.
        struct FaceShape {
            /// Four lanes a wide node (`node == −1`: unused), the face's root wide node first.
            var lanes: [Lane]
            /// The lanes the face takes in the wide node above it: its root (a leaf or a wide
            /// node), or, at an odd depth, the root's two children.
            var entries: [Lane]
            var wideCount: Int { lanes.count / 4 }

            /// Folds the binary `shape` (local node 0 the root, children after their parent)
            /// for a root at an odd depth (`odd`) or an even one: the inner nodes at even depths
            /// become wide nodes, whose lanes are their children or, for an inner child, its two.
            init(_ shape: [BVHNode], rootAtOddDepth odd: Bool) {
                let n = shape.count
                var oddDepth = [Bool](repeating: odd, count: n)
                var wide = [Int32](repeating: -1, count: n)
                var count: Int32 = 0
                for i in 0..<n where !shape[i].isLeaf {
                    let first = Int(shape[i].first)
                    oddDepth[first] = !oddDepth[i]
                    oddDepth[first + 1] = !oddDepth[i]
                    if !oddDepth[i] {
                        wide[i] = count
                        count += 1
                    }
                }
                func lane(_ c: Int) -> Lane {
                    shape[c].isLeaf
                        ? Lane(node: Int32(c), child: shape[c].first, count: shape[c].count)
                        : Lane(node: Int32(c), child: wide[c], count: 0)
                }
                // What stands for node c in a wide node's lanes: c itself (a leaf or a wide node) or
                // its two children.
                func standIns(for c: Int) -> [Lane] {
                    guard !shape[c].isLeaf, wide[c] < 0 else { return [lane(c)] }
                    let first = Int(shape[c].first)
                    return [lane(first), lane(first + 1)]
                }
                var all = [Lane](repeating: Lane(node: -1, child: 0, count: 0), count: 4 * Int(count))
                for i in 0..<n where wide[i] >= 0 {
                    let first = Int(shape[i].first)
                    for (k, l) in (standIns(for: first) + standIns(for: first + 1)).enumerated() { all[4 * Int(wide[i]) + k] = l }
                }
                lanes = all
                entries = standIns(for: 0)
            }
        }

        /// A face's binary shape and its fold for a root at an odd or an even depth: of the shapes
        /// with leaves of at most ``TriangleBVH/leafSize`` triangles and of half as many, the one
        /// with the smaller leaves when it folds into no more wide nodes. On a face of 8 × 8
        /// sub-quads of two triangles with its root at an even depth, the wide nodes above leaves of
        /// two sub-quads would hold only two lanes, so leaves of one sub-quad take as many nodes and
        /// a ray entering a leaf tests two triangles instead of four; at an odd depth the larger
        /// leaves fill their nodes and the smaller ones would take twice as many. (Folding every
        /// face as at an even depth, the root one lane of the node above, would give every face the
        /// smaller leaves, for a wide step more, but half as many wide nodes more: on the W2 ripple
        /// 3% less time a ray and a quarter more build time.)
        struct ParityShape {
            var binary: [BVHNode]
            var folded: FaceShape

            init(_ grid: TessellationGrid, rootAtOddDepth odd: Bool) {
                let large = Builder.faceShape(grid, leafTriangles: TriangleBVH.leafSize)
                let small = Builder.faceShape(grid, leafTriangles: TriangleBVH.leafSize / 2)
                let (foldedLarge, foldedSmall) = (FaceShape(large, rootAtOddDepth: odd), FaceShape(small, rootAtOddDepth: odd))
                (binary, folded) = foldedSmall.wideCount <= foldedLarge.wideCount ? (small, foldedSmall) : (large, foldedLarge)
            }
        }

        /// A node of the top tree over the faces: a face's root (`face ≥ 0`) or two children at
        /// `first` and `first + 1`.
        struct TopNode {
            var first: Int32 = 0
            var face: Int32 = -1
            var oddDepth = false
        }

        /// The top tree over `faces` faces split at the median of `centres` along the widest axis
        /// (ties broken by index): node 0 the root, children after their parent.
        static func topTree(faces: Int, centres: [SIMD3<Double>]) -> [TopNode] {
            var nodes = [TopNode()]
            nodes.reserveCapacity(2 * faces)
            var items = Array(0..<Int32(faces))
            var stack = [(node: 0, range: 0..<faces)]
            while let (node, range) = stack.popLast() {
                if range.count == 1 {
                    nodes[node].face = items[range.lowerBound]
                    continue
                }
                var lo = SIMD3(repeating: Double.infinity), hi = SIMD3(repeating: -Double.infinity)
                for i in range {
                    lo = pointwiseMin(lo, centres[Int(items[i])])
                    hi = pointwiseMax(hi, centres[Int(items[i])])
                }
                let extent = hi - lo
                let axis = extent.x >= extent.y && extent.x >= extent.z ? 0 : (extent.y >= extent.z ? 1 : 2)
                func less(_ a: Int32, _ b: Int32) -> Bool {
                    let ka = centres[Int(a)][axis], kb = centres[Int(b)][axis]
                    return ka < kb || (ka == kb && a < b)
                }
                let median = range.lowerBound + range.count / 2
                Builder.select(&items, range: range, nth: median, less)
                let mid = splitPoint(items[range].map { centres[Int($0)][axis] }, median: centres[Int(items[median])][axis], in: range)
                if mid != median { Builder.select(&items, range: range, nth: mid, less) }
                let left = nodes.count
                let odd = !nodes[node].oddDepth
                nodes.append(TopNode(oddDepth: odd))
                nodes.append(TopNode(oddDepth: odd))
                nodes[node].first = Int32(left)
                stack.append((left + 1, mid..<range.upperBound))
                stack.append((left, range.lowerBound..<mid))
            }
            return nodes
        }

        /// Where the top tree cuts the faces of `range` whose centres along the split axis are
        /// `keys` (in any order), `median` the key at the median: the median's place, moved
        /// to the nearest place where the key changes if that keeps at least
        /// ``splitBalance`` of the faces on each side. Faces of a grid's row share their
        /// centre's coordinate across it; a median inside the row would put half of it on each
        /// side, and both children's boxes would then span the whole row, so every ray through
        /// it walks both. Only the tree's shape, and so the speed, depends on the cut.
        static func splitPoint(_ keys: [Double], median: Double, in range: Range<Int>) -> Int {
            // Where the median's run of equal keys starts and ends in the sorted order.
            let below = range.lowerBound + keys.reduce(0) { $0 + ($1 < median ? 1 : 0) }
            let through = below + keys.reduce(0) { $0 + ($1 == median ? 1 : 0) }
            let mid = range.lowerBound + range.count / 2
            let least = Swift.max(1, Int((Double(range.count) * splitBalance).rounded(.up)))
            let candidates = [below, through].filter { $0 - range.lowerBound >= least && range.upperBound - $0 >= least }
            return candidates.min { abs($0 - mid) < abs($1 - mid) } ?? mid
        }

        /// The least share of a range's faces either side of a cut moved off the median keeps
        /// (``splitPoint(_:median:in:)``): a quarter leaves the tree at most about a level deeper
        /// than the balanced one for every two levels, and moves the cut past any run of a
        /// grid's row in all but the last few levels, where the runs are short anyway.
        static let splitBalance = 0.25

        /// Faces a parallel chunk takes at least.
        static let facesPerChunk = 64

        /// The wide nodes, their count and the root's box of the triangles laid out as `grid` (at
        /// least two control faces). The leaves name runs of the mesh's triangles directly (see
        /// `Builder.faceShape`), so there is no leaf order.
        static func build(positions: [Point3D], triangles: [SIMD3<Int32>], grid: TessellationGrid) -> (
            storage: [SIMD4<Float>], start: Int, count: Int, root: BVHNode
        ) {
            let faces = grid.controlFaces
            let perFace = grid.quadsPerFace * grid.trianglesPerQuad
            let parityShapes = [ParityShape(grid, rootAtOddDepth: false), ParityShape(grid, rootAtOddDepth: true)]
            let shapes = parityShapes.map(\.folded)
            let shapeNodes = Swift.max(parityShapes[0].binary.count, parityShapes[1].binary.count)
            // The top tree splits the faces by the middle of their first and last triangles'
            // corners (opposite corners of the face): only the tree's shape, and so the speed,
            // depends on it, and it reads 6 points a face instead of all of them.
            let centres = positions.withUnsafeBufferPointer { p in
                triangles.withUnsafeBufferPointer { t in
                    (0..<faces).map { f in
                        var lo = SIMD3(repeating: Double.infinity), hi = SIMD3(repeating: -Double.infinity)
                        for tri in [t[f * perFace], t[f * perFace + perFace - 1]] {
                            for c in 0..<3 {
                                lo = pointwiseMin(lo, p[Int(tri[c])])
                                hi = pointwiseMax(hi, p[Int(tri[c])])
                            }
                        }
                        return (lo + hi) / 2
                    }
                }
            }
            let top = topTree(faces: faces, centres: centres)
            // Wide indices: the top tree's wide nodes (inner nodes at even depths) first, then each
            // face's, in face order.
            var topWide = [Int32](repeating: -1, count: top.count)
            var wideCount = 0
            var oddFaces = [Bool](repeating: false, count: faces)
            for (i, node) in top.enumerated() {
                if node.face >= 0 {
                    oddFaces[Int(node.face)] = node.oddDepth
                } else if !node.oddDepth {
                    topWide[i] = Int32(wideCount)
                    wideCount += 1
                }
            }
            var starts = [Int](repeating: 0, count: faces)
            for f in 0..<faces {
                starts[f] = wideCount
                wideCount += shapes[oddFaces[f] ? 1 : 0].wideCount
            }
            let (faceOdd, faceStart, topWideIndex) = (oddFaces, starts, topWide)
            // Each face's boxes of its shape nodes 0, 1 and 2 (its root and the root's children),
            // which the top tree's lanes take.
            var faceBoxes = [BVHNode](repeating: BVHNode(), count: 3 * faces)
            var root = BVHNode()
            let vectorsPerNode = WideNode.size / MemoryLayout<SIMD4<Float>>.stride
            let padding = WideNode.alignment / MemoryLayout<SIMD4<Float>>.stride
            var start = 0
            let count = wideCount
            let storage = [SIMD4<Float>](unsafeUninitializedCapacity: count * vectorsPerNode + padding) { buffer, initialized in
                let raw = UnsafeMutableRawBufferPointer(buffer)
                guard let base = raw.baseAddress else { return }
                let address = UInt(bitPattern: base)
                let alignment = UInt(WideNode.alignment)
                start = Int(((address + alignment - 1) & ~(alignment - 1)) - address)
                // The padding before node 0 and after the last; every node is written in full below.
                UnsafeMutableRawBufferPointer(rebasing: raw[..<start]).initializeMemory(as: UInt8.self, repeating: 0)
                UnsafeMutableRawBufferPointer(rebasing: raw[(start + count * WideNode.size)...]).initializeMemory(
                    as: UInt8.self, repeating: 0)
                adviseHugePages(raw)
                let nodes = base + start
                faceBoxes.withUnsafeMutableBufferPointer { faceBoxes in
                    Builder.Corners.with(positions: positions, triangles: triangles) { corners in
                        let out = faceBoxes
                        // Each face writes only its own wide nodes and boxes.
                        parallelChunks(faces, minimumChunk: facesPerChunk) { range in
                            var boxes = [BVHNode](repeating: BVHNode(), count: shapeNodes)
                            for f in range {
                                let parity = parityShapes[faceOdd[f] ? 1 : 0]
                                stamp(
                                    face: f, shape: parity.binary, folded: parity.folded, perFace: perFace,
                                    wideStart: faceStart[f], nodes: nodes, corners: corners, boxes: &boxes, faceBoxes: out)
                            }
                        }
                    }
                }
                root = writeTop(
                    top, topWide: topWideIndex, shapes: shapes, faceOdd: faceOdd, faceStart: faceStart, faceBoxes: faceBoxes,
                    perFace: perFace, nodes: nodes)
                initialized = buffer.count
            }
            return (storage, start, count, root)
        }

        /// The top tree's boxes (children before parents, from the faces' roots) and wide nodes;
        /// returns the root's box, every triangle's.
        static func writeTop(
            _ top: [TopNode], topWide: [Int32], shapes: [FaceShape], faceOdd: [Bool], faceStart: [Int], faceBoxes: [BVHNode],
            perFace: Int, nodes: UnsafeMutableRawPointer
        ) -> BVHNode {
            var topBoxes = [BVHNode](repeating: BVHNode(), count: top.count)
            for i in stride(from: top.count - 1, through: 0, by: -1) {
                if top[i].face >= 0 {
                    topBoxes[i] = faceBoxes[3 * Int(top[i].face)]
                } else {
                    topBoxes[i] = topBoxes[Int(top[i].first)]
                    topBoxes[i].include(topBoxes[Int(top[i].first) + 1])
                }
            }
            // What stands for top node c in a wide node's lanes (see `FaceShape`): a face's
            // entries, a wide node, or the two children of an inner node at an odd depth.
            func standIns(for c: Int, into node: UnsafeMutableRawPointer, at k: inout Int) {
                if top[c].face >= 0 {
                    let f = Int(top[c].face)
                    for entry in shapes[faceOdd[f] ? 1 : 0].entries {
                        let box = faceBoxes[3 * f + Int(entry.node)]
                        let child =
                            entry.count > 0
                            ? entry.child + Int32(truncatingIfNeeded: f * perFace) : Int32(truncatingIfNeeded: faceStart[f]) + entry.child
                        WideNode.set(node, lane: k, box: box, child: child, count: entry.count)
                        k += 1
                    }
                } else if topWide[c] >= 0 {
                    WideNode.set(node, lane: k, box: topBoxes[c], child: topWide[c], count: 0)
                    k += 1
                } else {
                    standIns(for: Int(top[c].first), into: node, at: &k)
                    standIns(for: Int(top[c].first) + 1, into: node, at: &k)
                }
            }
            for i in top.indices where topWide[i] >= 0 {
                let node = nodes + Int(topWide[i]) * WideNode.size
                WideNode.clear(node)
                var k = 0
                standIns(for: Int(top[i].first), into: node, at: &k)
                standIns(for: Int(top[i].first) + 1, into: node, at: &k)
            }
            return topBoxes[0]
        }

        /// Face `f`: its shape nodes' boxes (leaves from their triangles, inner nodes from their
        /// children) in `boxes`, its wide nodes from `wideStart` on, and the boxes the top tree
        /// takes into `faceBoxes[3f…3f + 2]`.
        static func stamp(
            face f: Int, shape: [BVHNode], folded: FaceShape, perFace: Int, wideStart: Int, nodes: UnsafeMutableRawPointer,
            corners: Builder.Corners, boxes: inout [BVHNode], faceBoxes: UnsafeMutableBufferPointer<BVHNode>
        ) {
            let firstTriangle = f * perFace
            for local in stride(from: shape.count - 1, through: 0, by: -1) {
                var node = shape[local]
                if node.isLeaf {
                    node.first += Int32(truncatingIfNeeded: firstTriangle)
                    corners.setLeafBox(&node, order: nil)
                } else {
                    let first = Int(node.first)
                    node = boxes[first]
                    node.include(boxes[first + 1])
                }
                boxes[local] = node
            }
            for k in 0..<Swift.min(3, shape.count) { faceBoxes[3 * f + k] = boxes[k] }
            for w in 0..<folded.wideCount {
                let node = nodes + (wideStart + w) * WideNode.size
                WideNode.clear(node)
                for k in 0..<4 {
                    let lane = folded.lanes[4 * w + k]
                    guard lane.node >= 0 else { continue }
                    let child =
                        lane.count > 0
                        ? lane.child + Int32(truncatingIfNeeded: firstTriangle) : Int32(truncatingIfNeeded: wideStart) + lane.child
                    WideNode.set(node, lane: k, box: boxes[Int(lane.node)], child: child, count: lane.count)
                }
            }
        }
    }
}
