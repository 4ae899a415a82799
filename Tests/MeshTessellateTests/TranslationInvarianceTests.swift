import SurfaceKit
import Testing

@testable import MeshTessellate

// Every geometric predicate of the exact sort is measured relative to a corner of the triangles it
// looks at, so a scene moved far from the origin is drawn in the same order. The scenes here have
// integer coordinates, which stay exact under the offsets used (all below 2⁵³ and with an ulp of at
// most 1/2 there), so the moved scene is the same scene; its draw is moved back and compared with
// the z-buffer of the scene at the origin, triangle by triangle (each its own face). The corners
// that splitting makes far out are rounded to the coarse spacing there (up to half a point), so
// pixels within a point of an edge or of a crossing are left out and only faces are compared.

@Suite struct TranslationInvarianceTests {
    typealias S = SortSupport

    static let offsets: [SIMD3<Double>] = [
        SIMD3(1e15, 1e15, 0), SIMD3(-1e15, 5e14, 1e15), SIMD3(4e15, -4e15, 0), SIMD3(0, 0, -2e15), SIMD3(3e12, 7e13, 1e14),
    ]

    static func moved(_ mesh: TriangleMesh, by offset: SIMD3<Double>) -> TriangleMesh {
        var mesh = mesh
        mesh.positions = mesh.positions.map { $0 + offset }
        return mesh
    }

    /// Two triangles crossing along x = 50: only splitting draws them right.
    static func crossingPair() -> TriangleMesh {
        S.layerMesh(
            positions: [SIMD3(10, 10, 0), SIMD3(90, 10, 0), SIMD3(50, 90, 0), SIMD3(10, 30, -40), SIMD3(90, 30, 40), SIMD3(50, 80, 0)],
            triangles: [SIMD3(0, 1, 2), SIMD3(3, 4, 5)]
        ).withAFacePerTriangle()
    }

    /// Three strips each over the next where they cross, the third over the first (A over B at
    /// (70, 20), B over C at (70, 37.5), C over A at (84, 20)): a cycle only splitting draws.
    static func cyclicStrips() -> TriangleMesh {
        let positions: [SIMD3<Double>] = [
            SIMD3(0, 17, 10), SIMD3(100, 17, 0), SIMD3(100, 23, 0), SIMD3(0, 23, 10), // A: z = 10 − x/10
            SIMD3(67, 0, 0), SIMD3(73, 0, 0), SIMD3(73, 100, 10), SIMD3(67, 100, 10), // B: z = y/10
            SIMD3(15, 96, 2), SIMD3(25, 104, 2), SIMD3(105, 4, 2), SIMD3(95, -4, 2), // C: z = 2
        ]
        var triangles: [SIMD3<Int32>] = []
        for base: Int32 in [0, 4, 8] { triangles += [SIMD3(base, base + 1, base + 2), SIMD3(base, base + 2, base + 3)] }
        return S.layerMesh(positions: positions, triangles: triangles).withAFacePerTriangle()
    }

    /// Random triangles with integer corners, most of them crossing some other.
    static func integerSoup(seed: UInt64) -> TriangleMesh {
        var random = TessSupport.Random(seed: seed)
        var positions: [SIMD3<Double>] = []
        for _ in 0..<30 {
            let x = Double(Int.random(in: 5...95, using: &random)), y = Double(Int.random(in: 5...95, using: &random))
            let z = Double(Int.random(in: -50...50, using: &random))
            positions.append(SIMD3(x, y, z))
        }
        let triangles: [SIMD3<Int32>] = (0..<Int32(10)).map { k -> SIMD3<Int32> in
            let first: Int32 = 3 * k
            return SIMD3(first, first + 1, first + 2)
        }
        return S.layerMesh(positions: positions, triangles: triangles).withAFacePerTriangle()
    }

    /// Sorts `scene` moved by each offset and expects the draw, moved back, to match the z-buffer of
    /// the scene where it was.
    private func expectDrawnRightWhenMoved(_ scene: TriangleMesh, _ label: String) throws {
        let reference = S.projected(scene, geometry: S.flat)
        let (atOrigin, _) = try PainterSorter.sorted(mesh: scene, geometry: S.flat, mode: .exact)
        let base = S.compare(drawn: S.triangles(of: atOrigin), reference: reference, resolution: 200)
        #expect(base.mismatches == 0 && base.checked > 1_000, "\(label) at the origin")
        for offset in Self.offsets {
            // The layer's anchor is the centre of its 100-point square: with the identity transform
            // screen coordinates are the points' own, whatever the offset.
            let (sorted, _) = try PainterSorter.sorted(mesh: Self.moved(scene, by: offset), geometry: S.flat, mode: .exact)
            let back = Self.moved(sorted, by: -offset)
            let check = S.compare(
                drawn: S.triangles(of: back), reference: reference, resolution: 200, margin: 1, depthTolerance: .infinity)
            #expect(check.mismatches == 0 && check.checked > 1_000, "\(label) moved by \(offset): \(check.mismatches) pixels wrong")
        }
    }

    /// The exact sort of `scene` moved by each offset makes the same pieces in the same order as at
    /// the origin: with the identity transform every screen coordinate moves by the offset exactly,
    /// so predicates measured from a corner see the same bits (one measured from the origin does
    /// not: at 10¹⁵ the plane's offset alone is rounded to a quarter of a point).
    private func expectTheSamePiecesWhenMoved(_ scene: TriangleMesh, _ label: String) throws {
        let (atOrigin, statistics) = try PainterSorter.sorted(mesh: scene, geometry: S.flat, mode: .exact)
        #expect(statistics.addedPieces > 0, "\(label) is split at the origin")
        for offset in Self.offsets {
            let (moved, _) = try PainterSorter.sorted(mesh: Self.moved(scene, by: offset), geometry: S.flat, mode: .exact)
            #expect(moved.triangles == atOrigin.triangles, "\(label) moved by \(offset)")
            #expect(moved.sourceFaces == atOrigin.sourceFaces, "\(label) moved by \(offset)")
        }
    }

    @Test func aCrossingPairMovedFarFromTheOriginIsSplitTheSame() throws {
        try expectTheSamePiecesWhenMoved(Self.crossingPair(), "crossing pair")
    }

    @Test func aCrossingPairMovedFarFromTheOriginIsDrawnAsTheZBuffer() throws {
        try expectDrawnRightWhenMoved(Self.crossingPair(), "crossing pair")
    }

    @Test func aCycleOfStripsMovedFarFromTheOriginIsDrawnAsTheZBuffer() throws {
        try expectDrawnRightWhenMoved(Self.cyclicStrips(), "cyclic strips")
    }

    @Test(arguments: 1...6 as ClosedRange<UInt64>)
    func integerSoupsMovedFarFromTheOriginAreDrawnAsTheZBuffer(seed: UInt64) throws {
        try expectDrawnRightWhenMoved(Self.integerSoup(seed: seed), "soup \(seed)")
    }

    @Test func theOrderOfWholeTrianglesOfAMovedSceneDrawsAsTheZBuffer() throws {
        // Stacked sheets overlap without a cycle: wherever the scene is, an order of whole
        // triangles exists and draws as the z-buffer (ties of the coarser rank keys far from the
        // origin may order level triangles differently, never triangles that overlap).
        var sheets = S.emptyPoints()
        for (face, z) in [20.0, 10.0, 30.0].enumerated() {
            S.appendSheet(to: &sheets, n: 4, x: 8...88, y: 16...96, face: Int32(face), normal: SIMD3(0, 0, 1)) { x, _ in z + x / 4 }
        }
        let reference = S.projected(sheets, geometry: S.flat)
        for offset in Self.offsets {
            let order = try #require(try PainterSorter.exactOrder(mesh: Self.moved(sheets, by: offset), geometry: S.flat))
            var drawn = sheets
            drawn.triangles = order.map { sheets.triangles[Int($0)] }
            drawn.sourceFaces = order.map { sheets.sourceFaces[Int($0)] }
            let check = S.compare(drawn: S.projected(drawn, geometry: S.flat), reference: reference, resolution: 200)
            #expect(check.mismatches == 0 && check.checked > 1_000, "moved by \(offset)")
        }
    }
}

extension TriangleMesh {
    /// The mesh with triangle k of control face k, so that a z-buffer comparison tells them apart.
    fileprivate func withAFacePerTriangle() -> TriangleMesh {
        var mesh = self
        mesh.sourceFaces = (0..<Int32(triangleCount)).map { $0 }
        return mesh
    }
}
