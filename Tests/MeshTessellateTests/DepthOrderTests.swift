import SurfaceKit
import Testing

@testable import MeshTessellate

// `PainterSorter.depthOrder` and the `.depth` mode: the order must be exactly the stable ascending
// order of centroid screen depths, each computed here from a projection written in the tests
// (SortSupport.project) and sorted by a comparison sort, on scenes large enough for the bucket
// sort (CentroidDepthSort.minimumCount triangles) and on smaller ones.

@Suite struct DepthOrderTests {
    typealias S = SortSupport

    /// The stable ascending order of `(z_a + z_b + z_c) / 3`, or `nil` when a triangle has a corner
    /// at or behind the eye.
    static func reference(_ mesh: TriangleMesh, geometry: LayerGeometry) -> [Int32]? {
        let projected = mesh.positions.map { S.project($0, geometry: geometry) }
        var keys: [Double] = []
        for t in mesh.triangles {
            let corners = [projected[Int(t.x)], projected[Int(t.y)], projected[Int(t.z)]]
            if corners.contains(where: { $0.1 <= LayerGeometry.clipW }) { return nil }
            keys.append((corners[0].0.z + corners[1].0.z + corners[2].0.z) / 3)
        }
        return keys.indices.sorted { keys[$0] < keys[$1] || (keys[$0] == keys[$1] && $0 < $1) }.map { Int32($0) }
    }

    /// A triangle soup in points space whose triangle i has corner depths `depths[i]`; on the flat
    /// identity layer a corner's screen z is its points z.
    static func soup(_ depths: [(Double, Double, Double)]) -> TriangleMesh {
        var positions: [Point3D] = []
        var triangles: [SIMD3<Int32>] = []
        for (i, d) in depths.enumerated() {
            let x = Double(i % 200), y = Double(i / 200 % 200)
            let base = Int32(positions.count)
            positions += [Point3D(x, y, d.0), Point3D(x + 1, y, d.1), Point3D(x, y + 1, d.2)]
            triangles.append(SIMD3(base, base + 1, base + 2))
        }
        return TriangleMesh(
            space: .points, positions: positions, from: positions.map { LayerPoint($0.x / 200, $0.y / 200) },
            normals: positions.map { _ in Point3D(0, 0, 1) }, triangles: triangles,
            sourceFaces: triangles.indices.map { Int32($0 % 7) })
    }

    static let flat = S.geometry(size: 200, transform: .identity)

    /// depthOrder on one and on two threads, and `.depth`'s triangles, all against the reference.
    func expectReferenceOrder(_ mesh: TriangleMesh, geometry: LayerGeometry, _ comment: Comment) throws {
        let expected = try #require(Self.reference(mesh, geometry: geometry), comment)
        for threads in [1, 2] {
            let order = try ParallelLimit.withThreads(threads) { try PainterSorter.depthOrder(mesh: mesh, geometry: geometry) }
            #expect(order == expected, comment)
        }
        let (sorted, _) = try PainterSorter.sorted(mesh: mesh, geometry: geometry, mode: .depth, space: .points)
        #expect(sorted.triangles == expected.map { mesh.triangles[Int($0)] }, comment)
        #expect(sorted.sourceFaces == expected.map { mesh.sourceFaces[Int($0)] }, comment)
    }

    @Test func tiltedRippleOrderIsTheStableOrderOfCentroidDepths() throws {
        // The W3 scene at steps 2: 320,000 triangles, -45° about x with m34 = -1/2.
        let document = ExampleMesh.ripple.document
        let mesh = try Tessellator(mesh: document.mesh, options: TessellationOptions(steps: .fixed(2)))
            .tessellate(document.mesh, geometry: document.geometry, space: .points)
        #expect(mesh.triangleCount >= CentroidDepthSort.minimumCount)
        try expectReferenceOrder(mesh, geometry: document.geometry, "tilted ripple")
        // The scene really has the ties the settling is for: keys equal as Doubles, and keys a
        // Float cannot tell apart that differ as Doubles (mirror twins).
        let projected = mesh.positions.map { S.project($0, geometry: document.geometry).0.z }
        let keys = mesh.triangles.map { (projected[Int($0.x)] + projected[Int($0.y)] + projected[Int($0.z)]) / 3 }.sorted()
        let pairs = zip(keys, keys.dropFirst())
        #expect(pairs.filter { $0 == $1 }.count > 1000)
        #expect(pairs.filter { $0 != $1 && Float($0) == Float($1) }.count > 1000)
    }

    @Test func tiesAndLongRunsKeepTriangleOrder() throws {
        // Nine depth values: long runs of equal keys in few, large buckets.
        var random = TessSupport.Random(seed: 11)
        let depths = (0..<40_000).map { _ in
            let z = Double(Int(random.next() % 9)) * 0.5 - 2
            return (z, z, z)
        }
        try expectReferenceOrder(Self.soup(depths), geometry: Self.flat, "few values")
    }

    @Test func twinsThatDifferInTheLastBitsAreSettled() throws {
        // Pairs of triangles whose keys differ by an ulp or not at all, in both orders, and runs of
        // three and more such near-equal keys; all within one code.
        var random = TessSupport.Random(seed: 12)
        var depths: [(Double, Double, Double)] = []
        while depths.count < 40_000 {
            let z = random.uniform(-50...50)
            let copies = 1 + Int(random.next() % 5)
            for _ in 0..<copies {
                let c = [z, z.nextUp, z.nextDown, z.nextUp.nextUp][Int(random.next() % 4)]
                depths.append(random.next() % 2 == 0 ? (z, z, c) : (c, z, z))
            }
        }
        try expectReferenceOrder(Self.soup(depths), geometry: Self.flat, "twins")
    }

    @Test func signedZerosSubnormalsAndExtremeMagnitudes() throws {
        var random = TessSupport.Random(seed: 13)
        let specials: [Double] = [
            0, -0.0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude, 1e-300, -1e-300, 1e300, -1e300, 1, -1,
        ]
        let depths = (0..<40_000).map { _ -> (Double, Double, Double) in
            func pick() -> Double {
                random.next() % 3 == 0 ? random.uniform(-1...1) * 1e-200 : specials[Int(random.next() % UInt64(specials.count))]
            }
            return (pick(), pick(), pick())
        }
        try expectReferenceOrder(Self.soup(depths), geometry: Self.flat, "extremes")
        // A range too wide for a Double (±1e308: their difference overflows) and one value only.
        let wide = (0..<40_000).map { i in (i % 3 == 0 ? 1e308 : -1e308, Double(i % 5), random.uniform(-1...1)) }
        try expectReferenceOrder(Self.soup(wide), geometry: Self.flat, "overflowing range")
        try expectReferenceOrder(Self.soup(Array(repeating: (0.1, 0.1, 0.1), count: 40_000)), geometry: Self.flat, "one value")
    }

    @Test func skewedDepthsWithOutliers() throws {
        // Nearly every key in one bucket: a few far outliers stretch the depth range.
        var random = TessSupport.Random(seed: 14)
        var depths = (0..<60_000).map { _ in (random.uniform(0...1), random.uniform(0...1), random.uniform(0...1)) }
        depths[17] = (1e9, 1e9, 1e9)
        depths[40_000] = (-1e9, 0, 0)
        try expectReferenceOrder(Self.soup(depths), geometry: Self.flat, "outliers")
    }

    @Test func bucketsOfWholeChunksAndSkewedParts() throws {
        // 2,048 evenly spaced depths, each on 32 triangles in shuffled places: every bucket's count
        // is a multiple of 32, so the chains end exactly at a chunk's end.
        var random = TessSupport.Random(seed: 16)
        var values = (0..<65_536).map { Double($0 % 2048) / 2048 }
        for i in stride(from: values.count - 1, to: 0, by: -1) { values.swapAt(i, Int(random.next() % UInt64(i + 1))) }
        try expectReferenceOrder(Self.soup(values.map { ($0, $0, $0) }), geometry: Self.flat, "whole chunks")
        // The first part's triangles all in a few buckets, the second part's spread over all:
        // parts that take very different numbers of chunks.
        let skewed = (0..<140_000).map { i -> (Double, Double, Double) in
            let z = i < 70_000 ? Double(i % 3) : random.uniform(0...2)
            return (z, z, i % 7 == 0 ? z.nextUp : z)
        }
        try expectReferenceOrder(Self.soup(skewed), geometry: Self.flat, "skewed parts")
    }

    @Test func smallMeshesUseTheSameOrder() throws {
        let (mesh, geometry) = try S.foldedRipple(steps: 0)
        #expect(mesh.triangleCount < CentroidDepthSort.minimumCount)
        try expectReferenceOrder(mesh, geometry: geometry, "folded ripple")
    }

    // MARK: Behind the eye

    @Test func aTriangleBehindTheEyeHasNoOrder() throws {
        // The sheets with the eye at z = 20: the tilted sheet reaches behind it.
        let (points, sheetGeometry) = S.intersectingSheets()
        var geometry = sheetGeometry
        geometry.transform.m34 = -1.0 / 20
        #expect(Self.reference(points, geometry: geometry) == nil)
        #expect(try PainterSorter.depthOrder(mesh: points, geometry: geometry) == nil)
        // The same on a mesh large enough for the bucket sort.
        var depths = Array(repeating: (1.0, 2.0, 3.0), count: 40_000)
        depths[30_000] = (1, 2, 60)
        var perspective = Self.flat
        perspective.transform.m34 = -1.0 / 50
        #expect(try PainterSorter.depthOrder(mesh: Self.soup(depths), geometry: perspective) == nil)
    }

    @Test func aVertexBehindTheEyeThatNoTriangleUsesDoesNotMatter() throws {
        var random = TessSupport.Random(seed: 15)
        for count in [500, 40_000] {
            var mesh = Self.soup((0..<count).map { _ in (random.uniform(-9...9), random.uniform(-9...9), random.uniform(-9...9)) })
            mesh.positions.append(Point3D(3, 3, 80))
            mesh.from.append(LayerPoint(0, 0))
            mesh.normals.append(Point3D(0, 0, 1))
            var geometry = Self.flat
            geometry.transform.m34 = -1.0 / 50
            #expect(S.project(Point3D(3, 3, 80), geometry: geometry).1 <= LayerGeometry.clipW)
            // `.depth` clips through the general path here; both must agree with the reference.
            try expectReferenceOrder(mesh, geometry: geometry, "unused vertex behind the eye, \(count) triangles")
        }
    }

    // MARK: Refusals

    @Test func refusesBadIndicesAndOtherSpaces() throws {
        for count in [10, 40_000] {
            var mesh = Self.soup(Array(repeating: (1.0, 2.0, 3.0), count: count))
            mesh.triangles[count / 2].y = Int32(mesh.vertexCount)
            #expect(throws: MeshError.self) { try PainterSorter.depthOrder(mesh: mesh, geometry: Self.flat) }
            mesh.triangles[count / 2].y = -1
            #expect(throws: MeshError.self) { try PainterSorter.depthOrder(mesh: mesh, geometry: Self.flat) }
        }
        var screen = Self.soup([(1, 2, 3)])
        screen.space = .screen
        #expect(throws: MeshError.self) { try PainterSorter.depthOrder(mesh: screen, geometry: Self.flat) }
    }
}
