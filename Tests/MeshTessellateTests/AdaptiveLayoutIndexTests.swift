import SurfaceKit
import Testing

@testable import MeshTessellate

// The layout finds shared points by a control vertex's index and segments by walking the segments
// of their lower node (`AdaptiveLayout.NodeTable`, `AdaptiveLayout.SegmentTable`). Checked here
// against hashing every key, the way the layout found them before: the same nodes, numbered in
// the order they are first met, and the same segments in the same order, on meshes with and
// without irregular vertices.

@Suite struct AdaptiveLayoutIndexTests {
    enum Input: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case ripple, lShape, icosahedron, fan5, gridWithHole

        var testDescription: String { rawValue }

        func document() throws -> MeshDocument {
            switch self {
            case .ripple:
                let ripple = AutomaticStepsTests.heldOutRipples[1]
                return AutomaticStepsTests.document(try ripple.mesh(), size: ripple.side)
            case .lShape: return try IsolationSupport.lShape()
            case .icosahedron: return try IsolationSupport.icosahedron()
            case .fan5: return try IsolationSupport.fan(valence: 5)
            case .gridWithHole: return try IsolationSupport.gridWithHole()
            }
        }
    }

    /// A layout of `document` at its default tolerance, with the cells it was made from.
    static func layout(_ document: MeshDocument) throws -> (AdaptiveLayout, [AdaptiveCell], FaceSurfaces) {
        let mesh = document.mesh
        let surfaces = try AdaptiveTessellator(mesh: mesh).surfaces
        let scale = document.geometry.pointScale
        let tolerance = AdaptiveTessellator.defaultTolerance(for: document.geometry)
        let control = FaceSurfaces.homogeneous(vertices: mesh.vertices, weights: surfaces.topology.vertexWeights(faces: mesh.faces))
        let patches = AdaptiveTessellator.patches(surfaces: surfaces, control: control)
        let isolations = try AdaptiveTessellator.isolations(surfaces: surfaces, control: control, scale: scale, tolerance: tolerance)
        var isolationOfVertex: [Int: Int32] = [:]
        for (i, isolation) in isolations.enumerated() { isolationOfVertex[isolation.vertex] = Int32(i) }
        let cells = try AdaptiveCell.cells(surfaces: surfaces, patches: patches, isolations: isolations).cells
        let rates = try CellRates.estimate(cells: cells, scale: scale, policy: .shortest, tolerance: tolerance)
        let layout = try AdaptiveLayout(
            surfaces: surfaces, cells: cells, isolationOfVertex: isolationOfVertex, rates: rates, policy: .shortest,
            maximumTriangles: 1 << 30)
        return (layout, cells, surfaces)
    }

    /// Every cell corner and ring corner is the node that hashing its key gives, nodes numbered
    /// in the order their keys are first met (cell corners, then ring corners).
    @Test(arguments: Input.allCases)
    func nodesAreTheHashedKeysInFirstMetOrder(input: Input) throws {
        let (layout, cells, surfaces) = try AdaptiveLayoutIndexTests.layout(try input.document())
        var hashed: [AdaptiveLayout.NodeKey: Int32] = [:]
        func node(face: Int, _ p: SIMD2<Int64>) -> Int32 {
            let key = AdaptiveLayout.key(face: face, p, surfaces: surfaces)
            if let i = hashed[key] { return i }
            let i = Int32(hashed.count)
            hashed[key] = i
            return i
        }
        for c in cells.indices {
            for k in 0..<4 {
                #expect(layout.cornerNodes[c][k] == node(face: cells[c].face, AdaptiveLayout.corner(k, of: cells[c])))
            }
        }
        // A ring square's chain: its two ends on the face's sides keyed there, the samples
        // between them new nodes of the cell's own, in chain order.
        var ringNodes: [Int32] = []
        var own = 0
        for c in cells.indices where !cells[c].rings.isEmpty {
            let k = cells[c].fanCorner
            let p0 = AdaptiveLayout.corner(k, of: cells[c])
            for (level, n) in zip(cells[c].rings, cells[c].ringRates) {
                let shift = Int64(level - cells[c].level)
                for p in 0...(2 * n) {
                    guard p == 0 || p == 2 * n else {
                        ringNodes.append(Int32(hashed.count + own))
                        own += 1
                        continue
                    }
                    let j = p == 0 ? 1 : 3
                    let q = p0 &+ ((AdaptiveLayout.corner((k + j) % 4, of: cells[c]) &- p0) / SIMD2(repeating: 1 << shift))
                    let key = AdaptiveLayout.key(face: cells[c].face, q, surfaces: surfaces)
                    if let i = hashed[key] {
                        ringNodes.append(i)
                    } else {
                        let i = Int32(hashed.count + own)
                        hashed[key] = i
                        ringNodes.append(i)
                    }
                }
            }
        }
        #expect(layout.ringNodes == ringNodes)
        #expect(layout.nodes.count == hashed.count + own)
        if input != .ripple { #expect(hashed.keys.contains { $0.kind != .vertex }, "pieces put nodes on edges or inside faces") }
    }

    /// Each side is a chain of segments from its first corner's node to its last's, and the
    /// segments are numbered in the order their node pairs are first met along the sides, one
    /// segment for each pair.
    @Test(arguments: Input.allCases)
    func segmentsAreTheHashedPairsInFirstMetOrder(input: Input) throws {
        let (layout, cells, _) = try AdaptiveLayoutIndexTests.layout(try input.document())
        var hashed: [SIMD2<Int32>: Int32] = [:]
        for c in cells.indices {
            for k in 0..<4 {
                var at = layout.cornerNodes[c][k]
                for piece in layout.pieces[layout.sideStart[4 * c + k]..<layout.sideStart[4 * c + k + 1]] {
                    let segment = layout.segments[Int(piece.segment)]
                    #expect(segment.a < segment.b)
                    #expect(at == segment.a || at == segment.b)
                    let pair = SIMD2(segment.a, segment.b)
                    let expected = hashed[pair] ?? Int32(hashed.count)
                    hashed[pair] = expected
                    #expect(piece.segment == expected)
                    at = at == segment.a ? segment.b : segment.a
                }
                #expect(at == layout.cornerNodes[c][(k + 1) % 4])
            }
        }
        #expect(layout.segments.count == hashed.count)
    }

    /// The segment table finds exactly the pairs added, against a dictionary, over random pairs
    /// with repeated lower nodes.
    @Test func segmentTableFindsWhatWasAdded() {
        var state: UInt64 = 0x5EED
        func next(_ n: Int) -> Int32 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int32((state >> 33) % UInt64(n))
        }
        let nodeCount = 50
        var table = AdaptiveLayout.SegmentTable(nodeCount: nodeCount, segmentCapacity: 0)
        var segments: [AdaptiveLayout.Segment] = []
        var reference: [SIMD2<Int32>: Int32] = [:]
        for _ in 0..<2000 {
            let x = next(nodeCount), y = next(nodeCount)
            guard x != y else { continue }
            let a = min(x, y), b = max(x, y)
            let found = table.find(a, b, in: segments)
            #expect(found == reference[SIMD2(a, b)])
            guard found == nil else { continue }
            let s = Int32(segments.count)
            segments.append(AdaptiveLayout.Segment(a: a, b: b, rate: 1, cell: -1, side: 0, fractionA: 0, fractionB: 0, base: 0))
            table.add(s, lower: a)
            reference[SIMD2(a, b)] = s
        }
        #expect(reference.count > 500)
    }
}
