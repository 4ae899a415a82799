import Foundation
import SurfaceKit
import Testing

@testable import MeshTessellate

private typealias I = IsolationSupport

/// Automatic steps on meshes with irregular vertices (feature-adaptive isolation): the default
/// tolerance is met with few triangles, measured against uniform refinement's B-spline patches
/// (a separate evaluation of the same limit surface), the corners at irregular vertices are the
/// limit points of the masks written out here, and the result is watertight.
@Suite struct AutomaticIsolationTests {
    static func cases() throws -> [(String, MeshDocument)] {
        var list: [(String, MeshDocument)] = [
            ("L", try I.lShape()), ("cube", try I.cube()), ("icosahedron", try I.icosahedron()),
            ("grid with a hole", try I.gridWithHole()),
        ]
        for n in [3, 5, 6, 8, 12] { list.append(("fan \(n)", try I.fan(valence: n))) }
        return list
    }

    /// At the default tolerance (0.001 × 100 pt): within it everywhere it is measured (10 points of
    /// every triangle; points within 2⁻⁵ of an irregular vertex are covered by the proven corner
    /// bound instead), watertight, and few triangles: 9,720 at most (the icosahedron takes the
    /// most, its 32 irregular vertices 4 or 5 levels each).
    @Test func defaultToleranceIsMetWithFewTriangles() throws {
        for (name, document) in try Self.cases() {
            let mesh = document.mesh
            let tolerance = AdaptiveTessellator.defaultTolerance(for: document.geometry)
            let result = try AdaptiveTessellator(mesh: mesh).tessellate(
                mesh, geometry: document.geometry, space: .points, keepParameters: true)
            #expect(result.report.tolerance == tolerance)
            #expect(result.report.isolatedVertices > 0, "\(name)")
            #expect(result.report.worstDeviation <= tolerance, "\(name)")
            #expect(result.report.largestCornerBound <= tolerance, "\(name)")
            // Rates are counted on each face's largest pieces, which every face has.
            #expect(result.report.smallestRate >= 1 && result.report.largestRate >= result.report.smallestRate, "\(name)")
            #expect(try I.watertightProblems(result, mesh: mesh) == 0, "\(name)")
            var reference = try I.UniformReference(mesh, steps: 5)
            let measured = try I.deviation(of: result, reference: &reference, scale: document.geometry.pointScale)
            #expect(measured.worst <= tolerance * (1 + 1e-9), "\(name): \(measured.worst) > \(tolerance)")
            // Most triangles crowd at the irregular vertices, so most points are there; still, every
            // piece away from them is measured: thousands of points.
            #expect(measured.measured >= 3000, "\(name): \(measured.measured) points measured")
            #expect(result.mesh.triangleCount <= 6_000, "\(name): \(result.mesh.triangleCount) triangles")
        }
    }

    /// The corner at an interior vertex of valence n is its limit point
    /// (n²·v + 4·Σ edge neighbours + Σ diagonal neighbours) / (n(n + 5)), exactly an output vertex.
    @Test(arguments: [3, 5, 7, 12])
    func irregularCornerIsTheLimitPoint(valence n: Int) throws {
        let document = try I.fan(valence: n)
        let mesh = document.mesh
        let result = try AdaptiveTessellator(mesh: mesh).tessellate(mesh, geometry: document.geometry, space: .points)
        var edges = SIMD3<Double>.zero, diagonals = SIMD3<Double>.zero
        for face in mesh.faces {
            edges += mesh.vertices[face.indices[1]].to / 2 + mesh.vertices[face.indices[3]].to / 2
            diagonals += mesh.vertices[face.indices[2]].to
        }
        let nn = Double(n)
        let limit = (nn * nn * mesh.vertices[0].to + 4 * edges + diagonals) / (nn * (nn + 5)) * document.geometry.pointScale
        let nearest = result.mesh.positions.map { TessSupport.norm($0 - limit) }.min() ?? .infinity
        #expect(nearest <= 1e-12 * 100, "\(nearest)")
    }

    /// The closed pieces (cube, icosahedron) are closed surfaces: every edge used exactly twice.
    @Test func closedMeshesAreClosed() throws {
        for document in [try I.cube(), try I.icosahedron()] {
            let result = try AdaptiveTessellator(mesh: document.mesh).tessellate(
                document.mesh, geometry: document.geometry, space: .points)
            var uses: [SIMD2<Int32>: Int] = [:]
            for t in result.mesh.triangles {
                for (a, b) in [(t.x, t.y), (t.y, t.z), (t.z, t.x)] { uses[SIMD2(min(a, b), max(a, b)), default: 0] += 1 }
            }
            #expect(uses.values.allSatisfy { $0 == 2 })
        }
    }

    /// A tighter tolerance isolates deeper and still holds; each isolation level shrinks the corner
    /// square's bound (the proven one is what stops it).
    @Test func tighterToleranceGoesDeeper() throws {
        let document = try I.lShape()
        let mesh = document.mesh
        let loose = try AdaptiveTessellator(mesh: mesh).tessellate(mesh, geometry: document.geometry, space: .points, tolerance: 1)
        let tight = try AdaptiveTessellator(mesh: mesh).tessellate(
            mesh, geometry: document.geometry, space: .points, tolerance: 0.01, keepParameters: true)
        #expect(tight.report.deepestIsolation > loose.report.deepestIsolation)
        #expect(tight.report.largestCornerBound <= 0.01)
        var reference = try I.UniformReference(mesh, steps: 7)
        let measured = try I.deviation(of: tight, reference: &reference, scale: document.geometry.pointScale)
        #expect(measured.worst <= 0.01 * (1 + 1e-9), "\(measured.worst)")
        #expect(try I.watertightProblems(tight, mesh: mesh) == 0)
    }
}
