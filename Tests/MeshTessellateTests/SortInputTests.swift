import Testing

@testable import MeshTessellate
@testable import SurfaceKit

// Painter's sorts given meshes no tessellation makes: built by hand with bad indices or counts,
// or with coordinates at the edges of Float and Double. Every one must end in an error or an
// order, never a trap.

private func mesh(_ positions: [Point3D], _ triangles: [SIMD3<Int32>]) -> TriangleMesh {
    TriangleMesh(
        space: .points, positions: positions, from: positions.map { SIMD2($0.x, $0.y) },
        normals: positions.map { _ in Point3D(0, 0, 1) }, triangles: triangles,
        sourceFaces: triangles.map { _ in 0 })
}

/// `count` small triangles in a row, each overlapping the next (so the exact sort has pairs).
private func strip(count: Int, scale: Double, z: (Int) -> Double = { _ in 0 }) -> (positions: [Point3D], triangles: [SIMD3<Int32>]) {
    var positions: [Point3D] = [], triangles: [SIMD3<Int32>] = []
    for k in 0..<count {
        let x = Double(k) * 0.5 * scale, base = Int32(positions.count)
        positions += [Point3D(x, 0, z(k)), Point3D(x + scale, 0, z(k)), Point3D(x, scale, z(k) + 1)]
        triangles.append(SIMD3(base, base + 1, base + 2))
    }
    return (positions, triangles)
}

private let flat = LayerGeometry(size: SIMD2(100, 100), depthScale: 1, anchor: SIMD2(0.5, 0.5), transform: .identity)

@Suite struct SortInputTests {
    @Test(arguments: PainterSorter.Mode.allCases)
    func aTriangleNamingAMissingVertexIsRefused(mode: PainterSorter.Mode) {
        let (positions, triangles) = strip(count: 5, scale: 1)
        var bad = triangles
        bad[3] = SIMD3(0, 1, Int32(positions.count))
        #expect {
            _ = try PainterSorter.sorted(mesh: mesh(positions, bad), geometry: flat, mode: mode)
        } throws: { error in
            (error as? MeshError)?.kind == .indexOutOfRange && (error as? MeshError)?.path == "triangles[3]"
        }
        bad[3] = SIMD3(-1, 1, 2)
        #expect(throws: MeshError.self) { _ = try PainterSorter.sorted(mesh: mesh(positions, bad), geometry: flat, mode: mode) }
    }

    @Test func countsThatDisagreeAreRefused() {
        let (positions, triangles) = strip(count: 3, scale: 1)
        var m = mesh(positions, triangles)
        m.sourceFaces.removeLast()
        #expect(throws: MeshError.self) { _ = try PainterSorter.sorted(mesh: m, geometry: flat, mode: .exact) }
        m = mesh(positions, triangles)
        m.from.removeLast()
        #expect(throws: MeshError.self) { _ = try PainterSorter.sorted(mesh: m, geometry: flat, mode: .depth) }
    }

    /// A NaN centroid key (corners at +∞ and −∞ depth after a huge z scale) early on, and a bad
    /// index later: the index is reported, on the small path and on the bucket path.
    @Test(arguments: [10, 40_000])
    func aBadIndexAfterANaNKeyIsReported(count: Int) {
        let huge = LayerGeometry(
            size: SIMD2(100, 100), depthScale: 1, anchor: SIMD2(0.5, 0.5), transform: .scale(1, 1, 1e300))
        var (positions, triangles) = strip(count: count, scale: 1) { k in k == 0 ? -1e10 : 0 }
        // Triangle 0's corners at z = −1e10 scale to −∞, its third corner at +1e10 to +∞: its
        // centroid key is −∞ + ∞, NaN.
        positions[2].z = 1e10
        triangles[count - 1] = SIMD3(0, 1, Int32(positions.count + 7))
        #expect {
            _ = try PainterSorter.depthOrder(mesh: mesh(positions, triangles), geometry: huge)
        } throws: { error in
            (error as? MeshError)?.kind == .indexOutOfRange
        }
    }

    /// Screen coordinates beyond Float's range (boxes become infinite) and a screen extent too
    /// wide for a Double (cell sizes become infinite): the exact sort still orders or refuses.
    @Test(arguments: [1e39, 1e307])
    func theExactSortSurvivesCoordinatesAtTheEdgesOfTheirTypes(scale: Double) throws {
        var (positions, triangles) = strip(count: 12, scale: scale)
        // And one far on the other side, so that hi − lo overflows for the larger scale.
        let base = Int32(positions.count)
        positions += [Point3D(-scale, -scale, 0), Point3D(-0.5 * scale, -scale, 0), Point3D(-scale, -0.5 * scale, 1)]
        triangles.append(SIMD3(base, base + 1, base + 2))
        do {
            let (sorted, _) = try PainterSorter.sorted(mesh: mesh(positions, triangles), geometry: flat, mode: .exact, space: .points)
            #expect(sorted.triangleCount >= triangles.count)
        } catch let error as MeshError {
            #expect(error.kind == .limitExceeded || error.kind == .invalidValue || error.kind == .unsupported)
        }
    }
}
