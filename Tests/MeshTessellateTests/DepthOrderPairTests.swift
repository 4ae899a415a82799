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
}
