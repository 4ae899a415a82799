import SurfaceKit
import Testing

@testable import MeshTessellate

// The depth order's passes take two at a time: the projection two vertices (`DepthProjection`)
// and the key pass two triangles (`CentroidDepthSort.keyPair`), each pair with one packed
// division, a lone last one by itself. The order must still be exactly the stable ascending
// order of centroid depths, each computed in the test from its own projection
// (`DepthOrderTests.reference`, a comparison sort): odd counts (a lone last vertex and triangle),
// parts that start at an odd triangle, a perspective layer (w ≠ 1, so every depth is a real
// quotient), refusals found in either triangle of a pair.

@Suite struct DepthOrderPairTests {
    /// A perspective layer: the eye at z = 50, so a corner's screen z is z / (1 − z/50).
    static var perspective: LayerGeometry {
        var geometry = DepthOrderTests.flat
        geometry.transform.m34 = -1.0 / 50
        return geometry
    }

    /// Depths in front of the eye with ties and twins one ulp apart, in both orders of a pair.
    static func depths(count: Int, seed: UInt64) -> [(Double, Double, Double)] {
        var random = TessSupport.Random(seed: seed)
        return (0..<count).map { i in
            let z = i % 4 == 0 ? Double(i % 613) / 61.3 - 5 : random.uniform(-20...20)
            return i % 3 == 0 ? (z, z.nextUp, z) : (z, z, i % 2 == 0 ? z.nextDown : z)
        }
    }

    @Test func oddCountsAndPartsThatStartAtAnOddTriangle() throws {
        // An odd count on one part (a lone last triangle, and an odd count of vertices, three a
        // triangle), and two parts whose second starts at an odd triangle (131,075 / 2).
        let counts = [CentroidDepthSort.minimumCount + 1, 2 * CentroidDepthSort.minimumPart + 3]
        #expect(PartRanges.range(1, of: 2, count: counts[1]).lowerBound % 2 == 1)
        for (k, count) in counts.enumerated() {
            let mesh = DepthOrderTests.soup(Self.depths(count: count, seed: 41 + UInt64(k)))
            #expect(mesh.triangleCount % 2 == 1 && mesh.vertexCount % 2 == 1)
            for geometry in [DepthOrderTests.flat, Self.perspective] {
                try DepthOrderTests().expectReferenceOrder(mesh, geometry: geometry, "\(count) triangles")
            }
        }
    }

    @Test func aPairsFirstOrSecondOrALoneLastTriangleBehindTheEye() throws {
        // The corner at z = 60 is behind the eye (z = 50): no order exists, wherever that triangle
        // falls in the pairs.
        let count = CentroidDepthSort.minimumCount + 1
        for place in [0, 1, count / 2, count / 2 + 1, count - 2, count - 1] {
            var depths = Self.depths(count: count, seed: 43)
            depths[place] = (1, 2, 60)
            let mesh = DepthOrderTests.soup(depths)
            #expect(DepthOrderTests.reference(mesh, geometry: Self.perspective) == nil)
            #expect(try PainterSorter.depthOrder(mesh: mesh, geometry: Self.perspective) == nil, "triangle \(place)")
        }
    }

    @Test func aBadIndexInEitherTriangleOfAPairIsRefused() throws {
        for count in [CentroidDepthSort.minimumCount + 1, CentroidDepthSort.minimumCount + 2] {
            for place in [0, 1, count - 2, count - 1] {
                var mesh = DepthOrderTests.soup(Self.depths(count: count, seed: 44))
                mesh.triangles[place].z = Int32(mesh.vertexCount)
                #expect(throws: MeshError.self, "triangle \(place) of \(count)") {
                    try PainterSorter.depthOrder(mesh: mesh, geometry: DepthOrderTests.flat)
                }
            }
        }
    }

    @Test func theDeepestAndNearestVerticesLastKeepTheOrder() throws {
        // The vertices that set the depth range (its ends scale the codes) are the last ones, a
        // lone last vertex on an odd count: the range must include them, or their triangles'
        // keys would be clamped to the ends of the scale. Clamping merges codes but never
        // reverses them, so the order is still checked against the reference, and the scale
        // must leave the keys in more than one bucket's worth of codes (not all clamped).
        var depths = Self.depths(count: CentroidDepthSort.minimumCount + 1, seed: 45)
        depths[depths.count - 1] = (-40, 0, 40)
        let mesh = DepthOrderTests.soup(depths)
        #expect(mesh.vertexCount % 2 == 1)
        try DepthOrderTests().expectReferenceOrder(mesh, geometry: Self.perspective, "range set by the last vertices")
        var z = [Double](repeating: 0, count: mesh.vertexCount)
        let range = z.withUnsafeMutableBufferPointer {
            PainterSorter.screenDepths(of: mesh.positions, geometry: Self.perspective, into: $0)
        }
        // The test's own projection of every vertex, its smallest and largest those of the last
        // triangle (z = −40 and z = 40, the latter the lone last vertex).
        let expected = mesh.positions.map { SortSupport.project($0, geometry: Self.perspective).0.z }
        #expect(range.lo == expected.min() && range.lo == expected[expected.count - 3])
        #expect(range.hi == expected.max() && range.hi == expected[expected.count - 1])
        #expect(z == expected)
    }

    @Test func anEmptyMeshHasAnEmptyOrder() throws {
        let mesh = DepthOrderTests.soup([])
        #expect(try PainterSorter.depthOrder(mesh: mesh, geometry: DepthOrderTests.flat) == [])
    }

    /// Each lane of a pair against the scalar formulas, bit for bit: a projected depth is the z
    /// of `LayerGeometry.screenFromPoints` (NaN where it refuses the point: at or behind the eye,
    /// or not a number), a key is `(z_a + z_b + z_c) / 3`; a pair naming a vertex out of range,
    /// negative ones included, is refused. Random points and depths on a tilted perspective
    /// layer, each lane also paired with itself and with a point behind the eye.
    @Test func eachLaneIsTheScalarFormula() {
        var geometry = Self.perspective
        geometry.transform = Transform3D.rotation(angle: -0.7, axis: SIMD3(1, 0.3, 0)).concatenating(geometry.transform)
        let projection = DepthProjection(geometry: geometry)
        func scalar(_ p: Point3D) -> Double { geometry.screenFromPoints(p)?.z ?? .nan }
        func same(_ a: Double, _ b: Double) -> Bool { a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN) }
        var random = TessSupport.Random(seed: 97)
        let far = [Point3D(0, 0, 400), Point3D(0, 0, -400), Point3D(0, 400, 0), Point3D(0, -400, 0)]
        let behind = far.first { scalar($0).isNaN } ?? far[0]
        #expect(scalar(behind).isNaN)
        var points = (0..<2_000).map { _ in
            Point3D(random.uniform(-300...300), random.uniform(-300...300), random.uniform(-40...40))
        }
        points += [behind, Point3D(.nan, 0, 0), Point3D(0, 0, -.infinity), .zero]
        var misses = 0
        for (i, p) in points.enumerated() {
            for q in [points[(i * 7 + 3) % points.count], p, behind] {
                let d = projection.depths(p, q)
                misses += same(d[0], scalar(p)) && same(d[1], scalar(q)) ? 0 : 1
            }
        }
        #expect(misses == 0, "\(misses) pairs differ from the scalar projection")

        let z = (0..<301).map { i in i % 5 == 0 ? Double(i) / 7 : random.uniform(-1e3...1e3) }
        let count = UInt32(z.count)
        var keyMisses = 0
        z.withUnsafeBufferPointer { zb in
            guard let base = zb.baseAddress else { return }
            for i in 0..<500 {
                let t = SIMD3<Int32>(Int32(i % 301), Int32((i * 13) % 301), Int32((i * 29 + 5) % 301))
                let u = SIMD3<Int32>(Int32((i * 3) % 301), Int32((i * 17 + 1) % 301), Int32((i * 31 + 2) % 301))
                func key(_ v: SIMD3<Int32>) -> Double { (z[Int(v.x)] + z[Int(v.y)] + z[Int(v.z)]) / 3 }
                guard let k = CentroidDepthSort.keyPair(t, u, z: base, vertexCount: count) else {
                    keyMisses += 1
                    continue
                }
                keyMisses += k[0].bitPattern == key(t).bitPattern && k[1].bitPattern == key(u).bitPattern ? 0 : 1
            }
            let good = SIMD3<Int32>(0, 1, 2)
            for bad in [SIMD3<Int32>(0, 301, 2), SIMD3<Int32>(-1, 1, 2), SIMD3<Int32>(0, 1, .max)] {
                keyMisses += CentroidDepthSort.keyPair(good, bad, z: base, vertexCount: count) == nil ? 0 : 1
                keyMisses += CentroidDepthSort.keyPair(bad, good, z: base, vertexCount: count) == nil ? 0 : 1
            }
        }
        #expect(keyMisses == 0, "\(keyMisses) key pairs differ from the scalar centroid or were not refused")
    }
}
