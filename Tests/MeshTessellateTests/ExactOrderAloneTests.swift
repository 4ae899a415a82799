import SurfaceKit
import TestSupport
import Testing

@testable import MeshTessellate

// `PainterSorter.exactOrder(mesh:geometry:topology:)` takes the ranked path straight from the mesh
// when nothing is behind the eye: screen positions in kept scratch memory, vertex indices checked
// by the pass that makes the screen signs, and the signs made by R's pass over the triangles
// (`OverlapCandidates.signsAndResidualChain`). These tests check that pass against the signs and
// net counts written out here, and that meshes the pool refuses are still refused the same way.

private func mesh(_ positions: [Point3D], _ triangles: [SIMD3<Int32>]) -> TriangleMesh {
    TriangleMesh(
        space: .points, positions: positions, from: positions.map { SIMD2($0.x, $0.y) },
        normals: positions.map { _ in Point3D(0, 0, 1) }, triangles: triangles, sourceFaces: triangles.map { _ in 0 })
}

/// `count` small triangles in a row, each overlapping the next.
private func strip(count: Int) -> (positions: [Point3D], triangles: [SIMD3<Int32>]) {
    var positions: [Point3D] = [], triangles: [SIMD3<Int32>] = []
    for k in 0..<count {
        let x = Double(k) * 0.5, base = Int32(positions.count)
        positions += [Point3D(x, 0, 0), Point3D(x + 1, 0, 0), Point3D(x, 1, 1)]
        triangles.append(SIMD3(base, base + 1, base + 2))
    }
    return (positions, triangles)
}

private let flat = LayerGeometry(size: SIMD2(100, 100), depthScale: 1, anchor: SIMD2(0.5, 0.5), transform: .identity)

@Suite struct ExactOrderAloneTests {
    typealias Edge = SIMD2<Int32>

    /// The sign of each triangle's screen area and whether the rounding may have got it wrong
    /// (within (3 + 16ε)ε of the products' sizes of zero), written out from the definitions.
    private func signs(_ screen: [Point3D], _ triangles: [SIMD3<Int32>]) -> (signs: [Int8], uncertain: [Bool]) {
        var signs: [Int8] = [], uncertain: [Bool] = []
        for v in triangles {
            let a = screen[Int(v.x)], b = screen[Int(v.y)], c = screen[Int(v.z)]
            let left = (b.x - a.x) * (c.y - a.y), right = (b.y - a.y) * (c.x - a.x)
            let area = left - right
            uncertain.append(!(abs(area) > (3 + 16 * Double.ulpOfOne) * Double.ulpOfOne * (abs(left) + abs(right))))
            signs.append(area != 0 && area.isFinite && a.z.isFinite && b.z.isFinite && c.z.isFinite ? (area > 0 ? 1 : -1) : 0)
        }
        return (signs, uncertain)
    }

    /// Net count of every edge with a nonzero one, each triangle run counterclockwise on screen.
    private func netCounts(_ triangles: [SIMD3<Int32>], _ signs: [Int8]) -> [Edge: Int32] {
        var net: [Edge: Int32] = [:]
        for (t, v) in triangles.enumerated() where signs[t] != 0 {
            let runs = signs[t] > 0 ? [(v.x, v.y), (v.y, v.z), (v.z, v.x)] : [(v.y, v.x), (v.z, v.y), (v.x, v.z)]
            for (a, b) in runs where a != b { net[Edge(min(a, b), max(a, b)), default: 0] += a < b ? 1 : -1 }
        }
        return net.filter { $0.value != 0 }
    }

    /// The tilted ripple at steps 1 and 2 (folds over itself on screen), its triangles also
    /// shuffled in pairs and with a few edge-on ones: the signs and marks made in R's pass are the
    /// ones written out here, and R is every edge with a nonzero net count.
    @Test(arguments: [1, 2])
    func theSignsMadeInRsPassAreTheScreenSigns(steps: Int) throws {
        let document = ExampleMesh.ripple.document
        let tessellated = try Tessellator.tessellate(document, options: TessellationOptions(steps: .fixed(steps)), space: .points)
        let pool = try SortPool(clipping: tessellated, geometry: document.geometry)
        var listings = [pool.triangles]
        var generator = SplitMix64(seed: UInt64(steps))
        var shuffled = pool.triangles
        for k in stride(from: shuffled.count - 1, to: 0, by: -1) {
            shuffled.swapAt(k, Int(generator.next() % UInt64(k + 1)))
        }
        // Edge-on triangles (a corner repeated) and ones with two equal corners' images.
        shuffled[5] = SIMD3(shuffled[5].x, shuffled[5].x, shuffled[5].y)
        listings.append(shuffled)
        for triangles in listings {
            let (expectedSigns, uncertain) = signs(pool.screen, triangles)
            var marks = [UInt8](repeating: 0, count: pool.screen.count)
            var outOfRange = false
            let made = pool.screen.withUnsafeBufferPointer { s in
                triangles.withUnsafeBufferPointer { t in
                    marks.withUnsafeMutableBufferPointer { m in
                        OverlapCandidates.signsAndResidualChain(screen: s, triangles: t, uncertain: m, outOfRange: &outOfRange)
                    }
                }
            }
            let (madeSigns, residual) = try #require(made)
            #expect(!outOfRange)
            #expect(madeSigns == expectedSigns)
            var expectedMarks = [UInt8](repeating: 0, count: pool.screen.count)
            for (t, v) in triangles.enumerated() where uncertain[t] {
                for k in 0..<3 { expectedMarks[Int(v[k])] = 3 }
            }
            #expect(marks == expectedMarks)
            var found: [Edge: Int32] = [:]
            for e in residual {
                #expect(e.a < e.b && found[Edge(e.a, e.b)] == nil)
                found[Edge(e.a, e.b)] = e.weight
            }
            #expect(found == netCounts(triangles, expectedSigns))
            #expect(!found.isEmpty, "the tilted ripple has a border and folds")
        }
    }

    /// A vertex index out of range, early, late (past the first chunks of the passes) or negative:
    /// R's pass says so, and the order alone throws as the sorts do, naming the first bad triangle.
    @Test(arguments: [3, 70_000])
    func aBadIndexIsRefusedByTheOrderAlone(place: Int) {
        let (positions, triangles) = strip(count: 70_001)
        for bad in [Int32(positions.count), Int32(-1), Int32(positions.count + 1_000)] {
            var wrong = triangles
            wrong[place] = SIMD3(wrong[place].x, bad, wrong[place].z)
            var outOfRange = false
            var marks = [UInt8](repeating: 0, count: positions.count)
            let screen = positions
            let made = screen.withUnsafeBufferPointer { s in
                wrong.withUnsafeBufferPointer { t in
                    marks.withUnsafeMutableBufferPointer { m in
                        OverlapCandidates.signsAndResidualChain(screen: s, triangles: t, uncertain: m, outOfRange: &outOfRange)
                    }
                }
            }
            #expect(made == nil && outOfRange)
            #expect {
                _ = try PainterSorter.exactOrder(mesh: mesh(positions, wrong), geometry: flat)
            } throws: { error in
                (error as? MeshError)?.kind == .indexOutOfRange && (error as? MeshError)?.path == "triangles[\(place)]"
            }
        }
        var short = mesh(positions, triangles)
        short.normals.removeLast()
        #expect { _ = try PainterSorter.exactOrder(mesh: short, geometry: flat) } throws: { error in
            (error as? MeshError)?.kind == .incompatible
        }
    }

    /// A vertex behind the eye that no triangle uses takes the pool's path, whose order is the
    /// one without that vertex (it bounds nothing and is drawn by no triangle).
    @Test func anUnusedVertexBehindTheEyeChangesNothing() throws {
        let document = ExampleMesh.ripple.document
        let tessellated = try Tessellator.tessellate(document, options: TessellationOptions(steps: .fixed(1)), space: .points)
        let order = try #require(try PainterSorter.exactOrder(mesh: tessellated, geometry: document.geometry))
        let geometry = document.geometry
        let behind = [Point3D(0, 0, 1e9), Point3D(0, 0, -1e9)].first { geometry.clipCoordinates(ofPoints: $0).w <= LayerGeometry.clipW }
        var extended = tessellated
        extended.positions.append(try #require(behind))
        extended.from.append(SIMD2(0, 0))
        extended.normals.append(Point3D(0, 0, 1))
        #expect(try PainterSorter.exactOrder(mesh: extended, geometry: document.geometry) == order)
    }
}
