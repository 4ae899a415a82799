import Foundation
import TestSupport
import Testing

@testable import SurfaceKit

// The NURBS export checked against the limit surface: the reference is the tessellated limit
// points at dyadic parameters (refinement and limit masks, or the tensor patches on a grid), which
// share no code with the NURBS surfaces' Cox–de Boor evaluation or their construction.

private let layerSize = SIMD2<Double>(320, 480)

private func distance(_ a: Point3D, _ b: Point3D) -> Double { ((a - b) * (a - b)).sum().squareRoot() }

private func mesh(_ parts: (vertices: [MeshVertex], faces: [MeshFace]), depth: DepthNormalization = .average) throws -> MeshTransform {
    try MeshTransform(vertices: parts.vertices, faces: parts.faces, depthNormalization: depth)
}

/// The same mesh with vertices and faces listed in a shuffled order (each face keeps its corners).
private func renumbered(_ m: MeshTransform, seed: UInt64) throws -> MeshTransform {
    var rng = SplitMix64(seed: seed)
    let order = Array(m.vertices.indices).shuffled(using: &rng)
    var newIndex = [Int](repeating: 0, count: order.count)
    for (new, old) in order.enumerated() { newIndex[old] = new }
    let faces = m.faces.shuffled(using: &rng).map { face in
        MeshFace(indices: SIMD4((0..<4).map { newIndex[face.indices[$0]] }), weights: face.weights)
    }
    return try MeshTransform(vertices: order.map { m.vertices[$0] }, faces: faces, depthNormalization: m.depthNormalization)
}

/// A 4 × 4 grid with its middle-left 2 × 1 faces removed: a hole whose rim has boundary vertices of
/// three faces (extraordinary on a boundary).
private func gridWithHole(seed: UInt64) throws -> MeshTransform {
    let grid = jitteredGrid(rows: 4, columns: 4, seed: seed)
    let faces = grid.faces.enumerated().filter { ![5, 9].contains($0.offset) }.map(\.element)
    let used = Set(faces.flatMap { f in (0..<4).map { f.indices[$0] } })
    #expect(used.count == grid.vertices.count)
    return try MeshTransform(vertices: grid.vertices, faces: faces, depthNormalization: .width)
}

@Suite struct NURBSExportTests {
    @Test func gridIsOneSurfaceEqualToTheLimitSurfaceAtDyadicParameters() throws {
        for (rows, columns, seed) in [(1, 1, 3 as UInt64), (1, 4, 4), (3, 5, 5), (6, 2, 6)] {
            let m = try mesh(jitteredGrid(rows: rows, columns: columns, seed: seed))
            let patches = try m.nurbsPatches(size: layerSize)
            guard case .grid(let r, let c, let faces) = patches.layout, let surface = patches.surfaces.first else {
                Issue.record("a \(rows) × \(columns) grid was not recognised")
                continue
            }
            #expect(r == rows && c == columns && patches.surfaces.count == 1 && patches.isExact)
            #expect(surface.domainU == 0...Double(columns) && surface.domainV == 0...Double(rows))
            let reference = try limitPoints(m, steps: 3, size: layerSize)
            var worst = 0.0
            for i in 0..<rows {
                for j in 0..<columns {
                    let f = faces[i * columns + j]
                    #expect(f == i * columns + j)
                    for b in 0...8 {
                        for a in 0...8 {
                            let p = surface.evaluate(u: Double(j) + Double(a) / 8, v: Double(i) + Double(b) / 8)
                            worst = max(worst, distance(p, reference[f][b * 9 + a]))
                        }
                    }
                }
            }
            #expect(worst <= 1e-12 * 480, "grid \(rows) × \(columns): \(worst)")
        }
    }

    @Test func gridKnotsAreClampedAndUniformInside() throws {
        let m = try mesh(jitteredGrid(rows: 3, columns: 5, seed: 11))
        let surface = try #require(try m.nurbsPatches(size: layerSize).surfaces.first)
        #expect(surface.countU == 8 && surface.countV == 6)
        #expect(surface.knotsU == [0, 0, 0, 0, 1, 2, 3, 4, 5, 5, 5, 5])
        #expect(surface.knotsV == [0, 0, 0, 0, 1, 2, 3, 3, 3, 3])
        #expect(surface.weights.allSatisfy { $0 > 0 })
    }

    @Test func gridCornersAreTheCornerVerticesAndEdgesTheBoundaryBSplines() throws {
        let parts = jitteredGrid(rows: 2, columns: 3, seed: 12)
        let m = try mesh(parts, depth: .none)
        let surface = try #require(try m.nurbsPatches(size: layerSize).surfaces.first)
        let scale = SIMD3(layerSize.x, layerSize.y, 1)
        // Corners interpolate their vertices.
        for (u, v, vertex) in [(0.0, 0.0, 0), (3.0, 0.0, 3), (0.0, 2.0, 8), (3.0, 2.0, 11)] {
            #expect(distance(surface.evaluate(u: u, v: v), parts.vertices[vertex].to * scale) <= 1e-12 * 480)
        }
        // The top edge at u = 1.5 (middle of the middle span) is the rational uniform cubic B-spline
        // of the boundary vertices 0…3: (P₀ + 23P₁ + 23P₂ + P₃)/48 in homogeneous form, with the
        // boundary vertices' weights (means of their faces' corner weights).
        let weights = try SurfaceTopology(faces: parts.faces, vertexCount: parts.vertices.count).vertexWeights(faces: parts.faces)
        let coefficients = [1.0, 23, 23, 1].map { $0 / 48 }
        var h = SIMD4<Double>()
        for k in 0..<4 {
            let p = parts.vertices[k].to * scale
            h += coefficients[k] * weights[k] * SIMD4(p.x, p.y, p.z, 1)
        }
        #expect(distance(surface.evaluate(u: 1.5, v: 0), SIMD3(h.x, h.y, h.z) / h.w) <= 1e-12 * 480)
    }

    @Test func renumberedGridGivesTheSameSurface() throws {
        let m = try mesh(jitteredGrid(rows: 3, columns: 4, seed: 13))
        let original = try m.nurbsPatches(size: layerSize)
        for seed in 1...4 as ClosedRange<UInt64> {
            let shuffled = try renumbered(m, seed: seed)
            let patches = try shuffled.nurbsPatches(size: layerSize)
            let a = try #require(original.surfaces.first), b = try #require(patches.surfaces.first)
            #expect(a.knotsU == b.knotsU && a.knotsV == b.knotsV)
            let gap = zip(a.controlPoints, b.controlPoints).map { distance($0, $1) }.max() ?? .infinity
            #expect(gap <= 1e-12 * 480)
            #expect(zip(a.weights, b.weights).allSatisfy { abs($0 - $1) <= 1e-15 * $0 })
        }
    }

    @Test func turnedFacesAreNotAGridButStillExact() throws {
        // Face 1 of a 1 × 2 grid listed from another corner: same surface, but its frame differs
        // from face 0's, so no single (u, v) layout covers both; per-face patches remain exact.
        var parts = jitteredGrid(rows: 1, columns: 2, seed: 14)
        let f = parts.faces[1]
        parts.faces[1] = MeshFace(
            indices: SIMD4(f.indices[1], f.indices[2], f.indices[3], f.indices[0]),
            weights: SIMD4(f.weights[1], f.weights[2], f.weights[3], f.weights[0]))
        let m = try mesh(parts)
        let patches = try m.nurbsPatches(size: layerSize)
        #expect(patches.layout == .perFace && patches.isExact && patches.surfaces.count == 2)
        let reference = try limitPoints(m, steps: 2, size: layerSize)
        for face in 0..<2 {
            for b in 0...4 {
                for a in 0...4 {
                    let p = try #require(patches.evaluate(face: face, u: Double(a) / 4, v: Double(b) / 4))
                    #expect(distance(p, reference[face][b * 5 + a]) <= 1e-12 * 480)
                }
            }
        }
    }

    /// Every face's patches tile its square, regular faces are exact to rounding, and everything
    /// is within the tolerance of the limit surface at the dyadic parameters of 2⁴ steps.
    private func checkPerFace(_ m: MeshTransform, tolerance: Double? = nil) throws -> NURBSPatches {
        let patches = try m.nurbsPatches(tolerance: tolerance, size: layerSize)
        #expect(patches.layout == .perFace)
        let tolerance = patches.tolerance
        #expect(patches.maximumDeviation <= tolerance)
        let topology = try SurfaceTopology(faces: m.faces, vertexCount: m.vertices.count)
        let kinds = topology.vertexKinds
        let s = 4, n = 1 << s
        let reference = try limitPoints(m, steps: s, size: layerSize)
        for f in 0..<m.faces.count {
            let own = patches.surfaces.filter { $0.face == f }
            let area = own.reduce(0.0) {
                $0 + ($1.domainU.upperBound - $1.domainU.lowerBound) * ($1.domainV.upperBound - $1.domainV.lowerBound)
            }
            #expect(abs(area - 1) <= 1e-12, "face \(f) patches cover \(area)")
            let regular = (0..<4).allSatisfy { k in
                switch kinds[m.faces[f].indices[k]] {
                case .interior(let valence): valence == 4
                case .boundary(let faces): faces == 2
                case .corner: m.faces.filter { face in (0..<4).contains { face.indices[$0] == m.faces[f].indices[k] } }.count == 1
                }
            }
            #expect(!regular || own.count == 1, "regular face \(f) has \(own.count) patches")
            for j in 0...n {
                for i in 0...n {
                    let p = try #require(patches.evaluate(face: f, u: Double(i) / Double(n), v: Double(j) / Double(n)))
                    let d = distance(p, reference[f][j * (n + 1) + i])
                    if regular {
                        #expect(d <= 1e-12 * 480, "face \(f) at (\(i), \(j)): \(d)")
                    } else {
                        #expect(d <= tolerance, "face \(f) at (\(i), \(j)): \(d) > \(tolerance)")
                    }
                }
            }
        }
        return patches
    }

    @Test func extraordinaryVerticesAreApproximatedWithinTheTolerance() throws {
        for sectors in [3, 5, 6] {
            let patches = try checkPerFace(try mesh(fan(sectors: sectors, size: 2, seed: UInt64(sectors))))
            #expect(!patches.isExact)
        }
    }

    @Test func closedCubeWithEveryCornerOfValenceThreeStaysWithinTheTolerance() throws {
        let corners: [SIMD3<Double>] = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]]
        let vertices = corners.map { MeshVertex(from: SIMD2($0.x, $0.y), to: 0.5 * $0 + SIMD3(0.25, 0.25, 0)) }
        let faces = [[0, 3, 2, 1], [4, 5, 6, 7], [0, 1, 5, 4], [1, 2, 6, 5], [2, 3, 7, 6], [3, 0, 4, 7]].map {
            MeshFace($0[0], $0[1], $0[2], $0[3], weights: SIMD4(1, 2, 1, 0.5))
        }
        let patches = try checkPerFace(try MeshTransform(vertices: vertices, faces: faces, depthNormalization: .min))
        // Four approximated corner sub-faces per face, each face refined alike.
        #expect(patches.surfaces.filter { !$0.isExact }.count == 24)
    }

    @Test func aTighterToleranceRefinesDeeperAndStaysWithinIt() throws {
        let m = try mesh(fan(sectors: 5, size: 1, seed: 21))
        let coarse = try checkPerFace(m, tolerance: 1)
        let fine = try checkPerFace(m, tolerance: 0.01)
        #expect(fine.surfaces.count > coarse.surfaces.count)
        #expect(fine.maximumDeviation <= 0.01)
    }

    @Test func holesWithBoundaryVerticesOfThreeFacesAreApproximated() throws {
        let m = try gridWithHole(seed: 22)
        let patches = try checkPerFace(m)
        #expect(!patches.isExact)
    }

    @Test func nonManifoldVertexIsPinnedAndApproximatedAround() throws {
        // Two 2 × 2 grids sharing one corner vertex only (faces meeting at a point).
        let a = jitteredGrid(rows: 2, columns: 2, seed: 24), b = jitteredGrid(rows: 2, columns: 2, seed: 25)
        // b's vertex 0 is a's vertex 8 (its bottom-right corner).
        let shift = a.vertices.count - 1
        func mapped(_ v: Int) -> Int { v == 0 ? 8 : v + shift }
        let vertices = a.vertices + b.vertices.dropFirst().map { MeshVertex(from: $0.from + 1, to: $0.to + SIMD3(1, 1, 0)) }
        let faces = a.faces + b.faces.map { f in MeshFace(indices: SIMD4((0..<4).map { mapped(f.indices[$0]) }), weights: f.weights) }
        let m = try MeshTransform(vertices: vertices, faces: faces, depthNormalization: .average)
        let patches = try checkPerFace(m)
        let shared = try #require(patches.evaluate(face: 3, u: 1, v: 1))
        let scale = SIMD3(layerSize.x, layerSize.y, (layerSize.x + layerSize.y) / 2)
        #expect(distance(shared, a.vertices[8].to * scale) <= 1e-9, "the non-manifold vertex is interpolated")
    }

    @Test func approximatedPatchesAtAVertexMeetAlongTheirEdges() throws {
        // Faces around the valence-5 centre share edges from the centre: both sides fit the same
        // curve, so the points along a shared edge agree to rounding.
        let parts = fan(sectors: 5, size: 1, seed: 23)
        let m = try mesh(parts)
        let patches = try m.nurbsPatches(size: layerSize)
        // Sector s's face runs centre → ray(s) (corner 0 → 1) and centre → ray(s+1) (corner 0 → 3):
        // its v = 0 edge at u = t is sector s−1's u = 0 edge at v = t.
        for s in 0..<5 {
            let previous = (s + 4) % 5
            for t in stride(from: 0.0, through: 1.0, by: 1.0 / 64) {
                let a = try #require(patches.evaluate(face: s, u: t, v: 0))
                let b = try #require(patches.evaluate(face: previous, u: 0, v: t))
                #expect(distance(a, b) <= 1e-9, "sectors \(s), \(previous) at \(t)")
            }
        }
    }

    @Test func aMeshWithoutFacesIsAnError() {
        #expect(throws: MeshError.self) { try MeshTransform().nurbsPatches() }
    }

    @Test func coxDeBoorMatchesTheBernsteinFormOfOneSpan() throws {
        // A single-span surface with knots [2,2,2,2,3,3,3,3] is a rational Bézier patch: check the
        // evaluation against Bernstein polynomials written out here.
        var rng = SplitMix64(seed: 31)
        let points = (0..<16).map { _ in Point3D(rng.uniform(-1...1), rng.uniform(-1...1), rng.uniform(-1...1)) }
        let weights = (0..<16).map { _ in rng.uniform(0.5...2) }
        let knots: [Double] = [2, 2, 2, 2, 3, 3, 3, 3]
        let surface = try NURBSSurface(countU: 4, countV: 4, knotsU: knots, knotsV: knots, controlPoints: points, weights: weights)
        func bernstein(_ t: Double) -> [Double] { [pow(1 - t, 3), 3 * t * pow(1 - t, 2), 3 * t * t * (1 - t), t * t * t] }
        for (s, t) in [(0.0, 0.0), (0.25, 0.5), (1.0, 0.75), (0.125, 1.0)] {
            let bu = bernstein(s), bv = bernstein(t)
            var h = SIMD4<Double>()
            for a in 0..<4 {
                for b in 0..<4 {
                    let k = 4 * a + b
                    h += bv[a] * bu[b] * weights[k] * SIMD4(points[k].x, points[k].y, points[k].z, 1)
                }
            }
            #expect(distance(surface.evaluate(u: 2 + s, v: 2 + t), SIMD3(h.x, h.y, h.z) / h.w) <= 1e-14)
        }
    }
}
