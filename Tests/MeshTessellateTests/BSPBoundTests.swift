import SurfaceKit
import Testing

@testable import MeshTessellate

// The exact sort's tree is bounded by its pieces: every node takes at least one piece out of the
// work, so a sliver whose computed plane misses its own corners cannot send itself down to a child
// of its own forever (which grew the node array without bound on the tilted ripple at steps 1).

@Suite struct BSPBoundTests {
    typealias S = SortSupport

    /// A screen-space pool from the triangles' corners (points = screen; the identity transform
    /// gives every vertex w = 1): the BSP reads only screen positions unless it splits.
    private func pool(_ corners: [SIMD3<Double>], triangles: [SIMD3<Int32>]) -> SortPool {
        SortPool(
            geometry: S.geometry(size: 1, transform: .identity), originalVertexCount: corners.count, points: corners,
            from: corners.map { LayerPoint($0.x, $0.y) }, normals: corners.map { _ in SIMD3(0, 0, 1) }, screen: corners,
            addedW: [], triangles: triangles, sourceFaces: triangles.indices.map { Int32($0) })
    }

    /// The sliver that the steps-1 tilted ripple ran away on (screen corners as the sort saw them):
    /// its two long edges are 0.006 long and its short one 3.5e-12.
    private let sliver: [SIMD3<Double>] = [
        SIMD3(0.0611874404129763, 0.8176227346714282, -0.2596560310100794),
        SIMD3(0.06625589377795915, 0.8213668473595506, -0.2631737480181803),
        SIMD3(0.06625589377484736, 0.8213668473578436, -0.2631737480193123),
    ]

    @Test func sliverIsDrawnBehindTheTriangleInFrontOfItWithOneNodeEach() throws {
        // A big triangle at z = 0, over the sliver (z ≈ −0.26) on screen: the viewer is at +z.
        let front: [SIMD3<Double>] = [SIMD3(0, 0.7, 0), SIMD3(0.2, 0.7, 0), SIMD3(0.1, 0.95, 0)]
        var pool = pool(front + sliver, triangles: [SIMD3(0, 1, 2), SIMD3(3, 4, 5)])
        let size = 0.25 // the cluster's largest extent (y: 0.7 … 0.95)
        let onPlane = 1e-12 * size

        // The scene is the one that ran away: the long edges' cross product, as the sort computed
        // it, puts both far corners 8e-10 (3,000 tolerances) off the sliver's plane, on one side.
        let (a, b, c) = (sliver[0], sliver[1], sliver[2])
        let n = (b - a).cross(c - a)
        let unit = n / (n * n).sum().squareRoot()
        let offsets = [b, c].map { (unit * ($0 - a)).sum() }
        #expect(offsets.allSatisfy { abs($0) > 1_000 * onPlane })
        #expect(offsets[0].sign == offsets[1].sign)

        let tree = try ScreenBSP(cluster: [0, 1], pool: &pool, budget: 10)
        #expect(tree.drawOrder() == [1, 0], "the sliver (z ≈ −0.26) before the triangle at z = 0")
        #expect(tree.nodes.count == 2)
        #expect(pool.triangles.count == 2, "nothing straddles: no piece is split")

        // The plane the sort now uses passes through all three corners to within the tolerance.
        let plane = try #require(ScreenBSP.plane(of: 1, pool: pool, minimumNormal: 1e-24 * size * size))
        for corner in sliver { #expect(abs((plane.normal * (corner - plane.origin)).sum()) <= onPlane) }
    }

    @Test func sliverAloneMakesOneNode() throws {
        var pool = pool(sliver, triangles: [SIMD3(0, 1, 2)])
        let tree = try ScreenBSP(cluster: [0], pool: &pool, budget: 10)
        #expect(tree.nodes.count == 1)
        #expect(tree.drawOrder() == [0])
    }

    /// The reference ripple with its own (tilted) transform, tessellated at steps 1 in points space.
    private func tiltedRipple() throws -> (TriangleMesh, LayerGeometry) {
        let document = ExampleMesh.ripple.document
        let mesh = try Tessellator.tessellate(document, options: TessellationOptions(steps: .fixed(1)), space: .points)
        return (mesh, document.geometry)
    }

    /// The one-tree-per-cluster order (the exact sort's fallback) of the tilted ripple: its largest
    /// tree has no more nodes than pieces, and the whole order draws as the z-buffer does.
    @Test func tiltedRippleTreesAreBoundedByTheirPiecesAndDrawAsTheZBuffer() throws {
        let (mesh, geometry) = try tiltedRipple()
        var pool = try SortPool(clipping: mesh, geometry: geometry)
        // The clusters from the brute force written in the tests: the connected components of the
        // pairs whose screen images overlap (every pair of triangles clipped against each other).
        // Pairs overlapping by less than its tolerance are undecided: with them the largest cluster
        // could only grow, to `upper`.
        let (pairs, undecided) = ScreenBruteForce.overlaps(screen: pool.screen, triangles: pool.triangles)
        let overlapping = pairs.map { ($0.first, $0.second) }
        let largest = ScreenBruteForce.largestComponent(count: pool.triangles.count, pairs: overlapping)
        let upper = ScreenBruteForce.largestComponent(count: pool.triangles.count, pairs: overlapping + undecided).size
        let members = largest.members.map { Int32($0) }
        #expect(members.count > 1_000, "the tilt must fold the ripple over itself")
        // The largest cluster's tree, built on a pool of its own.
        var own = pool
        let before = own.triangles.count
        let tree = try ScreenBSP(cluster: members, pool: &own, budget: 10 * mesh.triangleCount)
        // The cluster's pieces: its members (a split one keeps its slot) and the new ones.
        let pieces = members.count + own.triangles.count - before
        #expect(tree.drawOrder().count == pieces)
        #expect(tree.nodes.count <= pieces)

        var statistics = SortStatistics(
            inputTriangles: mesh.triangleCount, trianglesAfterClipping: pool.triangles.count, outputTriangles: 0, overlapClusters: 0,
            largestCluster: 0)
        let order = try PainterSorter.clusterOrder(pool: &pool, statistics: &statistics, budget: 10 * mesh.triangleCount)
        #expect(statistics.largestCluster >= members.count && statistics.largestCluster <= upper)
        #expect(upper == members.count, "no undecided pair joins two clusters")
        #expect(order.count == pool.triangles.count)
        #expect(Set(order).count == order.count, "every piece is drawn once")
        // The stencil path's sort added 35,159 pieces (44%); the runaway added without bound.
        #expect(pool.triangles.count - mesh.triangleCount < mesh.triangleCount / 2)

        let sorted = pool.mesh(order: order, triangles: pool.triangles, faces: pool.sourceFaces, space: .screen)
        let c = S.compare(drawn: S.triangles(of: sorted), reference: S.projected(mesh, geometry: geometry), resolution: 300)
        #expect(c.checked > 30_000)
        #expect(c.mismatches == 0)
    }

    /// Random big triangles at random depths: they cross each other all over, so the exact sort
    /// must split many of them.
    private func crossingSoup() -> TriangleMesh {
        var random = TessSupport.Random(seed: 17)
        var mesh = TriangleMesh(space: .points, positions: [], from: [], normals: [], triangles: [], sourceFaces: [])
        for t in 0..<120 {
            let centre = SIMD2(random.uniform(0.2...0.8), random.uniform(0.2...0.8))
            for _ in 0..<3 {
                let p = centre + SIMD2(random.uniform(-0.3...0.3), random.uniform(-0.3...0.3))
                mesh.positions.append(SIMD3(p.x, p.y, random.uniform(-0.3...0.3)))
                mesh.from.append(p)
                mesh.normals.append(SIMD3(0, 0, 1))
            }
            mesh.triangles.append(SIMD3(Int32(3 * t), Int32(3 * t + 1), Int32(3 * t + 2)))
            mesh.sourceFaces.append(Int32(t))
        }
        return mesh
    }

    @Test func smallBudgetRefusesStatingTheCount() throws {
        let mesh = crossingSoup()
        let geometry = S.geometry(size: 1, transform: .identity)
        let (_, free) = try PainterSorter.sorted(mesh: mesh, geometry: geometry, mode: .exact)
        #expect(free.addedPieces > 200, "the soup must need many splits")
        let budget = mesh.triangleCount + 100
        do {
            _ = try PainterSorter.sorted(mesh: mesh, geometry: geometry, mode: .exact, maximumTriangles: budget)
            Issue.record("the sort adds \(free.addedPieces) pieces, past a budget of 100 more")
        } catch let error as MeshError {
            #expect(error.kind == .limitExceeded)
            // "… needs more than N triangles, over the budget of B": N is the count when it stopped,
            // one split (one or two new pieces) past the budget.
            #expect(error.message.hasSuffix("triangles, over the budget of \(budget)"))
            let count = error.message.split(separator: " ").drop { $0 != "than" }.dropFirst().first.flatMap { Int($0) }
            #expect(count.map { $0 > budget && $0 <= budget + 2 } == true)
        }
    }
}
