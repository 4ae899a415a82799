import SurfaceKit

extension AdaptiveLayout {
    /// The node at each place a cell corner can lie, found without hashing where most of them lie.
    ///
    /// A node at a control vertex (every corner of a whole face) is looked up by the vertex's
    /// index; only the nodes on control edges and inside faces, which the pieces around irregular
    /// vertices make, are hashed. Nodes are numbered in the order they are first inserted, as the
    /// layout inserts them, so the numbering does not depend on how they are found.
    struct NodeTable {
        /// The node at each control vertex; −1 where none is yet.
        var vertexNodes: [Int32]
        /// The nodes on control edges and inside faces.
        var others: [NodeKey: Int32] = [:]

        init(vertexCount: Int) {
            vertexNodes = [Int32](repeating: -1, count: vertexCount)
        }

        subscript(key: NodeKey) -> Int32? {
            get {
                guard key.kind == .vertex else { return others[key] }
                let i = vertexNodes[Int(key.a)]
                return i >= 0 ? i : nil
            }
            set {
                guard key.kind == .vertex else {
                    others[key] = newValue
                    return
                }
                vertexNodes[Int(key.a)] = newValue ?? -1
            }
        }
    }

    /// The segment between two nodes, found by walking the few segments whose lower node is the
    /// same (a node is an end of at most a handful), in place of hashing the pair.
    struct SegmentTable {
        /// Per node, the last segment added whose lower node it is; −1: none.
        var head: [Int32]
        /// Per segment, the segment added before it with the same lower node; −1: none.
        var next: [Int32] = []

        init(nodeCount: Int, segmentCapacity: Int) {
            head = [Int32](repeating: -1, count: nodeCount)
            next.reserveCapacity(segmentCapacity)
        }

        /// The segment from node a to node b (a < b) among `segments`, if there is one.
        func find(_ a: Int32, _ b: Int32, in segments: [Segment]) -> Int32? {
            var s = head[Int(a)]
            while s >= 0 {
                if segments[Int(s)].b == b { return s }
                s = next[Int(s)]
            }
            return nil
        }

        /// Records segment s, the next one appended, with lower node a.
        mutating func add(_ s: Int32, lower a: Int32) {
            next.append(head[Int(a)])
            head[Int(a)] = s
        }
    }
}

/// What the layout reads of a cell: where it lies and what it asks of its sides. An
/// ``AdaptiveCell`` carries its patch and rings, and copying one retains and releases each.
struct CellPlace {
    var face: Int
    var level: Int
    var origin: SIMD2<Double>
    /// Whether the cell is a patch (not a corner square at an irregular vertex).
    var isPatch: Bool
    var fanCorner: Int
    var farRate: Int

    init(_ cell: borrowing AdaptiveCell) {
        face = cell.face
        level = cell.level
        origin = cell.origin
        isPatch = cell.patch != nil
        fanCorner = cell.fanCorner
        farRate = cell.farRate
    }
}
