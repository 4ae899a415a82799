import SurfaceKit
import Testing

@testable import MeshTessellate

// The painter's sort (Docs/painters-sort.md): the image of the `bsp` order, drawn last-wins by a rasterizer
// written here, must equal the z-buffer image of the unsorted input at every pixel centre away
// from exact ties; `depth` must be a stable radix sort of centroid depths.

@Suite struct PainterSortTests {
    typealias S = SortSupport

    // MARK: Exactness against a z-buffer

    @Test func bspOrderOfIntersectingSheetsMatchesZBuffer() throws {
        let (mesh, geometry) = S.intersectingSheets()
        let (sorted, stats) = try PainterSorter.sorted(mesh: mesh, geometry: geometry, mode: .exact)
        #expect(stats.addedPieces > 0, "the sheets intersect, so some triangle must be split")
        let c = S.compare(drawn: S.triangles(of: sorted), reference: S.projected(mesh, geometry: geometry), resolution: 200)
        #expect(c.checked > 20_000)
        #expect(c.mismatches == 0)
    }

    @Test func bspOrderOfCyclicStripsMatchesZBufferAndDepthOrderDoesNot() throws {
        let (mesh, geometry) = S.cyclicStrips()
        let reference = S.projected(mesh, geometry: geometry)
        let (exact, stats) = try PainterSorter.sorted(mesh: mesh, geometry: geometry, mode: .exact)
        #expect(stats.addedPieces > 0, "a cycle cannot be drawn right without splitting")
        let c = S.compare(drawn: S.triangles(of: exact), reference: reference, resolution: 300)
        #expect(c.checked > 50_000)
        #expect(c.mismatches == 0)

        let (byDepth, depthStats) = try PainterSorter.sorted(mesh: mesh, geometry: geometry, mode: .depth)
        #expect(depthStats.addedPieces == 0)
        let d = S.compare(drawn: S.triangles(of: byDepth), reference: reference, resolution: 300)
        #expect(d.mismatches > 0, "the depth sort cannot draw a cyclic overlap right")
    }

    @Test func bspOrderOfFoldedRippleMatchesZBuffer() throws {
        let (mesh, geometry) = try S.foldedRipple(steps: 0)
        let (sorted, stats) = try PainterSorter.sorted(mesh: mesh, geometry: geometry, mode: .exact)
        #expect(stats.overlapClusters > 0, "the steep turn must fold the ripple over itself")
        let reference = S.projected(mesh, geometry: geometry)
        let c = S.compare(drawn: S.triangles(of: sorted), reference: reference, resolution: 300)
        #expect(c.checked > 30_000)
        #expect(c.mismatches == 0)
        // And the fold is real: drawing in tessellation order gets some pixels wrong.
        let (plain, _) = try PainterSorter.sorted(mesh: mesh, geometry: geometry, mode: .none)
        #expect(S.compare(drawn: S.triangles(of: plain), reference: reference, resolution: 300).mismatches > 0)
    }

    // MARK: Pieces

    @Test func splitPiecesAreInterpolatedInPointsSpace() throws {
        let (mesh, geometry) = S.intersectingSheets()
        let (screen, _) = try PainterSorter.sorted(mesh: mesh, geometry: geometry, mode: .exact, space: .screen)
        let (points, _) = try PainterSorter.sorted(mesh: mesh, geometry: geometry, mode: .exact, space: .points)
        #expect(screen.triangles == points.triangles)
        #expect(screen.sourceFaces == points.sourceFaces)
        #expect(points.vertexCount > mesh.vertexCount)
        for t in points.triangles.indices {
            let face = Int(points.sourceFaces[t])
            for k in 0..<3 {
                let v = Int(points.triangles[t][k])
                let p = points.positions[v]
                // The sheets are planes with from = (x, y)/100: a piece's corner must lie on its
                // sheet, with the from of its position and the sheet's normal.
                let z = face == 0 ? 0 : 0.8 * (p.x - 50)
                #expect(abs(p.z - z) <= 1e-9)
                #expect(abs(points.from[v].x - p.x / 100) <= 1e-12 && abs(points.from[v].y - p.y / 100) <= 1e-12)
                #expect(TessSupport.close(points.normals[v], S.sheetNormals[face], relative: 1e-12))
                // Its screen position is the hand-computed projection of its points position.
                let (projected, w) = S.project(p, geometry: geometry)
                #expect(w > 0)
                #expect(TessSupport.close(screen.positions[v], projected, relative: 1e-9))
            }
        }
    }

    @Test func unitSpaceOutputIsPointsOverTheLayerScale() throws {
        let (mesh, geometry) = S.cyclicStrips()
        let (points, _) = try PainterSorter.sorted(mesh: mesh, geometry: geometry, mode: .exact, space: .points)
        let (unit, _) = try PainterSorter.sorted(mesh: mesh, geometry: geometry, mode: .exact, space: .unit)
        #expect(unit.triangles == points.triangles)
        for v in points.positions.indices {
            #expect(TessSupport.close(unit.positions[v] * SIMD3(100, 100, 1), points.positions[v], relative: 1e-12))
        }
    }

    @Test func bspIsDeterministic() throws {
        let (mesh, geometry) = try S.foldedRipple(steps: 0)
        let first = try PainterSorter.sorted(mesh: mesh, geometry: geometry, mode: .exact)
        let second = try PainterSorter.sorted(mesh: mesh, geometry: geometry, mode: .exact)
        #expect(first.mesh == second.mesh)
        #expect(first.statistics == second.statistics)
    }

    @Test func bspRefusesToSplitPastTheBudgetAndNonPointsInput() throws {
        let (mesh, geometry) = S.cyclicStrips()
        #expect(throws: MeshError.self) {
            try PainterSorter.sorted(mesh: mesh, geometry: geometry, mode: .exact, maximumTriangles: mesh.triangleCount)
        }
        #expect(throws: MeshError.self) {
            try PainterSorter.sorted(mesh: screenSpaceCopy(mesh), geometry: geometry, mode: .depth)
        }
    }

    private func screenSpaceCopy(_ mesh: TriangleMesh) -> TriangleMesh {
        var m = mesh
        m.space = .screen
        return m
    }

    // MARK: Clipping

    @Test func geometryBehindTheEyeIsClippedAsScreenSpaceTessellationClipsIt() throws {
        // The sheets with the eye at z = 20: the tilted sheet reaches z = ±32, partly behind it.
        let (points, sheetGeometry) = S.intersectingSheets()
        var geometry = sheetGeometry
        geometry.transform.m34 = -1.0 / 20
        #expect(points.positions.contains { S.project($0, geometry: geometry).1 <= LayerGeometry.clipW })
        let screen = points.projectedToScreen(geometry)
        #expect(screen.vertexCount > points.vertexCount, "the scene must actually be cut")
        let (none, _) = try PainterSorter.sorted(mesh: points, geometry: geometry, mode: .none)
        #expect(none == screen)
        for mode in [PainterSorter.Mode.depth, .exact] {
            let (sorted, _) = try PainterSorter.sorted(mesh: points, geometry: geometry, mode: mode, space: .points)
            #expect(sorted.triangleCount >= 1)
            for t in sorted.triangles {
                for k in 0..<3 {
                    let (_, w) = S.project(sorted.positions[Int(t[k])], geometry: geometry)
                    #expect(w >= LayerGeometry.clipW * (1 - 1e-6))
                }
            }
        }
    }

    // MARK: Depth mode

    @Test func depthOrderIsAscendingCentroidDepth() throws {
        let (mesh, geometry) = try S.foldedRipple(steps: 0)
        let (sorted, _) = try PainterSorter.sorted(mesh: mesh, geometry: geometry, mode: .depth)
        let depths = sorted.triangles.map { t in (0..<3).map { sorted.positions[Int(t[$0])].z }.reduce(0, +) / 3 }
        #expect(zip(depths, depths.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(sorted.triangleCount == mesh.triangleCount)
    }

    @Test func depthSortIsStableForEqualKeys() throws {
        // A flat layer seen head-on: every centroid depth is 0, so the order must stay as given.
        var document = ExampleMesh.ripple.document
        try document.mesh.mapVertices { v, _ in MeshVertex(from: v.from, to: Point3D(v.to.x, v.to.y, 0)) }
        document.layer.transform = .identity
        let points = try Tessellator.tessellate(document, options: TessellationOptions(steps: .fixed(0)), space: .points)
        let (sorted, _) = try PainterSorter.sorted(mesh: points, geometry: document.geometry, mode: .depth, space: .points)
        #expect(sorted.triangles == points.triangles)
        #expect(sorted.sourceFaces == points.sourceFaces)
    }

    @Test func radixSortAgreesWithAComparisonSort() {
        var random = TessSupport.Random(seed: 7)
        var keys: [Double] = [
            0, -0.0, 1, -1, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude,
            -.leastNonzeroMagnitude, .infinity, -.infinity, 1e-300, -1e-300,
        ]
        for _ in 0..<20_000 {
            let choice = random.next() % 4
            switch choice {
            case 0: keys.append(Double(Int(random.next() % 21)) - 10) // many ties
            case 1: keys.append(random.uniform(-1...1))
            case 2: keys.append(random.uniform(-1e6...1e6) * 1e-200)
            default: keys.append(Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF) * (random.next() % 2 == 0 ? 1 : -1))
            }
        }
        let radix = RadixSort.stableOrder(keys).map(Int.init)
        let reference = keys.indices.sorted { keys[$0] < keys[$1] || (keys[$0] == keys[$1] && $0 < $1) }
        #expect(radix == reference)
    }
}
