import SurfaceKit
import Testing

@testable import MeshTessellate

// The exact painter's sort splits only where a cycle forces it (issue 8): pairs that overlap on
// screen are ordered by which is nearer, and only strongly connected components of that relation
// (cycles, triangles that cross) go to a BSP tree. Every scene is checked against an independent
// z-buffer (SortSupport.compare): drawing the result in order must show, at every unambiguous pixel
// centre, the surface with the largest screen z.

@Suite struct ExactSortTests {
    typealias S = SortSupport

    /// Loose triangles in points space, one control face each; with the identity transform screen
    /// space is points space.
    private func soup(_ corners: [[SIMD3<Double>]]) -> TriangleMesh {
        var mesh = S.emptyPoints()
        for (face, triangle) in corners.enumerated() {
            let base = Int32(mesh.positions.count)
            for p in triangle {
                mesh.positions.append(p)
                mesh.from.append(LayerPoint(p.x / 100, p.y / 100))
                mesh.normals.append(SIMD3(0, 0, 1))
            }
            mesh.triangles.append(SIMD3(base, base + 1, base + 2))
            mesh.sourceFaces.append(Int32(face))
        }
        return mesh
    }

    private let flat = S.geometry(size: 100, transform: .identity)

    /// Every order of whole triangles, drawn: how many of them match the z-buffer.
    private func wholeOrdersThatMatch(_ mesh: TriangleMesh) -> Int {
        let triangles = S.projected(mesh, geometry: flat)
        var permutations: [[Int]] = [[]]
        for _ in triangles.indices {
            permutations = permutations.flatMap { p in triangles.indices.filter { !p.contains($0) }.map { p + [$0] } }
        }
        return permutations.filter { p in
            S.compare(drawn: p.map { triangles[$0] }, reference: triangles, resolution: 120).mismatches == 0
        }.count
    }

    // MARK: Scenes that need splitting

    @Test func threeTrianglesOverlappingInACycleAreSplit() throws {
        // Three long thin triangles: A over B where they cross, B over C, C over A. z is affine
        // along each (the triangle's plane): A: z = 1 − (x − 70)/7, B: z = (y − 20)/17.5, C: z = 0.
        // Crossings: A–B at (70, 20) (1 over 0), B–C at (70, 37.5) (1 over 0), C–A at (84, 20) (0 over −1).
        func zA(_ x: Double, _ y: Double) -> Double { 1 - (x - 70) / 7 }
        func zB(_ x: Double, _ y: Double) -> Double { (y - 20) / 17.5 }
        let a = [SIMD2(0.0, 16), SIMD2(0.0, 24), SIMD2(100.0, 20)].map { SIMD3($0.x, $0.y, zA($0.x, $0.y)) }
        let b = [SIMD2(66.0, 0), SIMD2(74.0, 0), SIMD2(70.0, 100)].map { SIMD3($0.x, $0.y, zB($0.x, $0.y)) }
        let c = [SIMD2(17.0, 97), SIMD2(23.0, 103), SIMD2(100.0, 0)].map { SIMD3($0.x, $0.y, 0) }
        let mesh = soup([a, b, c])
        #expect(wholeOrdersThatMatch(mesh) == 0, "no order of the whole triangles draws the cycle right")

        let (sorted, stats) = try PainterSorter.sorted(mesh: mesh, geometry: flat, mode: .exact)
        #expect(stats.overlappingPairs == 3)
        #expect(stats.crossingPairs == 0)
        #expect(stats.splitGroups == 1 && stats.largestSplitGroup == 3)
        #expect(stats.addedPieces > 0)
        let check = S.compare(drawn: S.triangles(of: sorted), reference: S.projected(mesh, geometry: flat), resolution: 400)
        #expect(check.checked > 10_000)
        #expect(check.mismatches == 0)
    }

    @Test func twoIntersectingTrianglesAreSplit() throws {
        // z = 0 and z = 0.8 (x − 50): they cross along x = 50 inside both.
        let level = [SIMD3(10.0, 10, 0), SIMD3(90.0, 20, 0), SIMD3(40.0, 90, 0)]
        let tilted = [SIMD2(15.0, 80), SIMD2(30.0, 5), SIMD2(95.0, 60)].map { SIMD3($0.x, $0.y, 0.8 * ($0.x - 50)) }
        let mesh = soup([level, tilted])
        #expect(wholeOrdersThatMatch(mesh) == 0)

        let (sorted, stats) = try PainterSorter.sorted(mesh: mesh, geometry: flat, mode: .exact)
        #expect(stats.overlappingPairs == 1 && stats.crossingPairs == 1)
        #expect(stats.splitGroups == 1 && stats.largestSplitGroup == 2)
        #expect(stats.addedPieces > 0)
        let check = S.compare(drawn: S.triangles(of: sorted), reference: S.projected(mesh, geometry: flat), resolution: 300)
        #expect(check.checked > 30_000)
        #expect(check.mismatches == 0)
    }

    @Test(arguments: 1...8)
    func randomSoupsDrawAsTheZBuffer(seed: UInt64) throws {
        var random = TessSupport.Random(seed: seed &* 0x9E37_79B9_7F4A_7C15)
        var corners: [[SIMD3<Double>]] = []
        for _ in 0..<30 {
            let centre = SIMD2(random.uniform(10...90), random.uniform(10...90))
            let size = random.uniform(5...40)
            corners.append(
                (0..<3).map { _ in
                    let p = centre + SIMD2(random.uniform(-size...size), random.uniform(-size...size))
                    return SIMD3(p.x, p.y, random.uniform(-30...30))
                })
        }
        let mesh = soup(corners)
        let (sorted, stats) = try PainterSorter.sorted(mesh: mesh, geometry: flat, mode: .exact)
        #expect(stats.overlappingPairs > 15, "seed \(seed): the soup should pile up")
        #expect(stats.crossingPairs > 0, "seed \(seed): random depths should make triangles cross")
        #expect(stats.addedPieces > 0)
        #expect(sorted.triangleCount == stats.outputTriangles)
        let check = S.compare(drawn: S.triangles(of: sorted), reference: S.projected(mesh, geometry: flat), resolution: 250)
        #expect(check.checked > 20_000, "seed \(seed)")
        #expect(check.mismatches == 0, "seed \(seed): \(check.mismatches) of \(check.checked) pixels wrong")
    }

    // MARK: Scenes that need no splitting

    @Test func stackedSheetsOverlapWithoutCyclesAndAreNotSplit() throws {
        // Three parallel sheets, the nearest listed first, turned and seen in perspective: every
        // overlapping pair has one sheet nearer over all of it, and the relation goes from farther
        // sheets to nearer ones, so it has no cycle.
        var mesh = S.emptyPoints()
        for (face, z) in [30.0, 15.0, 0.0].enumerated() {
            S.appendSheet(to: &mesh, n: 4, x: 10...90, y: 10...90, face: Int32(face), normal: SIMD3(0, 0, 1)) { x, y in
                z + 0.1 * x - 0.05 * y
            }
        }
        var transform = Transform3D.rotation(angle: 0.6, axis: SIMD3(1, 0.3, 0))
        transform.m34 = -1.0 / 300
        let geometry = S.geometry(size: 100, transform: transform)
        let reference = S.projected(mesh, geometry: geometry)

        let (sorted, stats) = try PainterSorter.sorted(mesh: mesh, geometry: geometry, mode: .exact)
        // The sheets are apart in depth: the rank order by least depth needed no pair test across them.
        #expect(stats.depthRanked)
        let pool = try SortPool(clipping: mesh, geometry: geometry)
        let all = try #require(PairOcclusion.occlusions(screen: pool.screen, triangles: pool.triangles, limit: .max))
        #expect(all.overlappingPairs > 50)
        #expect(stats.crossingPairs == 0 && stats.splitGroups == 0)
        #expect(stats.addedPieces == 0)
        let check = S.compare(drawn: S.triangles(of: sorted), reference: reference, resolution: 300)
        #expect(check.checked > 30_000)
        #expect(check.mismatches == 0)
        // The order matters: the input order draws the nearest sheet first.
        let (plain, _) = try PainterSorter.sorted(mesh: mesh, geometry: geometry, mode: .none)
        #expect(S.compare(drawn: S.triangles(of: plain), reference: reference, resolution: 300).mismatches > 1_000)
    }

    @Test func tiltedRippleAtStepOneDrawsAsTheZBuffer() throws {
        let document = ExampleMesh.ripple.document
        let mesh = try Tessellator.tessellate(document, options: TessellationOptions(steps: .fixed(1)), space: .points)
        let geometry = document.geometry
        let reference = S.projected(mesh, geometry: geometry)
        let (sorted, stats) = try PainterSorter.sorted(mesh: mesh, geometry: geometry, mode: .exact)
        let pool = try SortPool(clipping: mesh, geometry: geometry)
        let all = try #require(PairOcclusion.occlusions(screen: pool.screen, triangles: pool.triangles, limit: .max))
        #expect(all.overlappingPairs > 10_000, "the tilt folds the ripple over itself")
        #expect(stats.depthRanked, "its layers are apart in depth where they overlap")
        // Issue 8's bound: at most 5% more pieces (one BSP tree per overlapping cluster added 44%).
        #expect(stats.addedPieces * 20 <= mesh.triangleCount)
        let check = S.compare(drawn: S.triangles(of: sorted), reference: reference, resolution: 300)
        #expect(check.checked > 30_000)
        #expect(check.mismatches == 0)
        let (plain, _) = try PainterSorter.sorted(mesh: mesh, geometry: geometry, mode: .none)
        #expect(S.compare(drawn: S.triangles(of: plain), reference: reference, resolution: 300).mismatches > 100)
    }

    /// The exact order alone (`exactOrder(mesh:geometry:)`): on the tilted ripple, the input's
    /// triangles in that order draw as the z-buffer written in the tests; a cycle that only
    /// splitting draws right, and a triangle reaching behind the eye (clipped into new triangles),
    /// have no such order.
    @Test func theExactOrderAloneDrawsAsTheZBufferOrIsNil() throws {
        let document = ExampleMesh.ripple.document
        let mesh = try Tessellator.tessellate(document, options: TessellationOptions(steps: .fixed(1)), space: .points)
        let geometry = document.geometry
        let order = try #require(try PainterSorter.exactOrder(mesh: mesh, geometry: geometry))
        #expect(order.count == mesh.triangleCount && Set(order).count == order.count)
        var drawn = mesh
        drawn.triangles = order.map { mesh.triangles[Int($0)] }
        drawn.sourceFaces = order.map { mesh.sourceFaces[Int($0)] }
        let reference = S.projected(mesh, geometry: geometry)
        let check = S.compare(drawn: S.projected(drawn, geometry: geometry), reference: reference, resolution: 300)
        #expect(check.checked > 30_000)
        #expect(check.mismatches == 0)
        #expect(S.compare(drawn: reference, reference: reference, resolution: 300).mismatches > 100, "the input order is wrong")

        // The order of `sorted(mode: .exact)`, which lists the same triangles (points space, so
        // its positions are the input's), with and without the mesh's pairing made beforehand.
        let (sorted, _) = try PainterSorter.sorted(mesh: mesh, geometry: geometry, mode: .exact, space: .points)
        #expect(sorted.triangles == drawn.triangles)
        let paired = try PainterSorter.exactOrder(mesh: mesh, geometry: geometry, topology: SortTopology(mesh: mesh))
        #expect(paired == order)

        let (strips, stripGeometry) = S.cyclicStrips()
        #expect(try PainterSorter.exactOrder(mesh: strips, geometry: stripGeometry) == nil)
        // One flat sheet in perspective: its order is its own; with a corner pulled behind the
        // eye (past the perspective distance of 250), the clipping cuts new triangles.
        var sheet = S.emptyPoints()
        S.appendSheet(to: &sheet, n: 3, x: 10...90, y: 10...90, face: 0, normal: S.sheetNormals[0]) { _, _ in 0 }
        var transform = Transform3D.identity
        transform.m34 = -1.0 / 250
        let perspective = S.geometry(size: 100, transform: transform)
        #expect(try PainterSorter.exactOrder(mesh: sheet, geometry: perspective) == (0..<Int32(sheet.triangleCount)).map { $0 })
        sheet.positions[0].z = 400
        #expect(S.project(sheet.positions[0], geometry: perspective).1 <= LayerGeometry.clipW)
        #expect(try PainterSorter.exactOrder(mesh: sheet, geometry: perspective) == nil)
    }

    // MARK: Coverage

    /// The pairs found with and without leaving out the triangles that the cover count says overlap
    /// nothing: the same edges, and the left-out triangles really are in no pair.
    private func checkCoverage(_ mesh: TriangleMesh, _ geometry: LayerGeometry) throws -> (candidates: Int, total: Int) {
        let pool = try SortPool(clipping: mesh, geometry: geometry)
        let all = try #require(PairOcclusion.occlusions(screen: pool.screen, triangles: pool.triangles, limit: .max, screened: false))
        let some = try #require(PairOcclusion.occlusions(screen: pool.screen, triangles: pool.triangles, limit: .max))
        func edges(_ o: OcclusionPairs) -> [SIMD2<Int32>] {
            zip(o.back, o.front).map { SIMD2($0, $1) }.sorted { ($0.x, $0.y) < ($1.x, $1.y) }
        }
        #expect(edges(all) == edges(some))
        #expect(all.overlappingPairs == some.overlappingPairs && all.clusters == some.clusters)
        var signs = [Double](repeating: 0, count: pool.triangles.count)
        var lo = SIMD2<Double>(repeating: .infinity), hi = -lo
        for (t, v) in pool.triangles.enumerated() {
            let a = pool.screen[Int(v.x)], b = pool.screen[Int(v.y)], c = pool.screen[Int(v.z)]
            let area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
            signs[t] = area > 0 ? 1 : (area < 0 ? -1 : 0)
            for p in [a, b, c] {
                lo = pointwiseMin(lo, SIMD2(p.x, p.y))
                hi = pointwiseMax(hi, SIMD2(p.x, p.y))
            }
        }
        let candidates = try #require(
            OverlapCandidates.candidates(screen: pool.screen, triangles: pool.triangles, signs: signs, scale: (hi - lo).max()))
        for t in all.back + all.front { #expect(candidates[Int(t)], "triangle \(t) overlaps another") }
        return (candidates.filter { $0 }.count, candidates.count)
    }

    @Test func coverCountLeavesOutOnlyTrianglesThatOverlapNothing() throws {
        let ripple = ExampleMesh.ripple.document
        let tilted = try Tessellator.tessellate(ripple, options: TessellationOptions(steps: .fixed(1)), space: .points)
        let (some, total) = try checkCoverage(tilted, ripple.geometry)
        #expect(some * 4 < total, "the tilted ripple overlaps itself only near its crests")
        let (folded, foldedGeometry) = try S.foldedRipple(steps: 0)
        _ = try checkCoverage(folded, foldedGeometry)
        let (sheets, sheetGeometry) = S.intersectingSheets()
        _ = try checkCoverage(sheets, sheetGeometry)
        // A closed surface: the cube of quads seen turned, front and back faces over each other.
        var cube = S.emptyPoints()
        let corners: [SIMD3<Double>] = (0..<8).map { k in
            let unit = SIMD3<Double>(Double(k & 1), Double(k >> 1 & 1), Double(k >> 2 & 1))
            return unit * 40 + SIMD3(repeating: 30)
        }
        for quad in [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]] {
            let base = Int32(cube.positions.count)
            for k in quad {
                cube.positions.append(corners[k])
                cube.from.append(LayerPoint(corners[k].x / 100, corners[k].y / 100))
                cube.normals.append(SIMD3(0, 0, 1))
            }
            cube.triangles += [SIMD3(base, base + 1, base + 2), SIMD3(base, base + 2, base + 3)]
            cube.sourceFaces += [0, 0]
        }
        var transform = Transform3D.rotation(angle: 0.7, axis: SIMD3(1, 1, 0))
        transform.m34 = -1.0 / 400
        let (cubeSome, cubeTotal) = try checkCoverage(cube, S.geometry(size: 100, transform: transform))
        #expect(cubeSome == cubeTotal, "front and back faces of a closed surface cover each other")
    }

    // MARK: The fallback

    @Test func tooManyOverlappingPairsFallBackToOneTreePerCluster() throws {
        let (mesh, geometry) = S.cyclicStrips()
        var pool = try SortPool(clipping: mesh, geometry: geometry)
        var stats = SortStatistics(
            inputTriangles: mesh.triangleCount, trianglesAfterClipping: pool.triangles.count, outputTriangles: 0, overlapClusters: 0,
            largestCluster: 0)
        let order = try PainterSorter.exactOrder(pool: &pool, statistics: &stats, budget: 1_000, pairLimit: 1)
        #expect(stats.overlappingPairs == 0, "the pairs were given up")
        #expect(stats.splitGroups >= 1 && stats.overlapClusters == stats.splitGroups)
        #expect(order.count == pool.triangles.count && Set(order).count == order.count)
        let sorted = pool.mesh(order: order, triangles: pool.triangles, faces: pool.sourceFaces, space: .screen)
        let check = S.compare(drawn: S.triangles(of: sorted), reference: S.projected(mesh, geometry: geometry), resolution: 300)
        #expect(check.checked > 50_000)
        #expect(check.mismatches == 0)
    }

    // MARK: Pairs

    /// Interiors of two triangles overlap exactly when their intersection has positive area; here
    /// computed by clipping one by the other's half-planes (written out in the test), on integer
    /// corners where the orientations are exact.
    private func overlapArea(_ p: [SIMD2<Double>], _ q: [SIMD2<Double>]) -> Double {
        func cross(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ c: SIMD2<Double>) -> Double {
            (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
        }
        let s: Double = cross(q[0], q[1], q[2]) > 0 ? 1 : -1
        var polygon = p
        for k in 0..<3 {
            let (e0, e1) = (q[k], q[(k + 1) % 3])
            var next: [SIMD2<Double>] = []
            for i in polygon.indices {
                let (u, v) = (polygon[i], polygon[(i + 1) % polygon.count])
                let (fu, fv) = (s * cross(e0, e1, u), s * cross(e0, e1, v))
                if fu >= 0 { next.append(u) }
                if (fu > 0 && fv < 0) || (fu < 0 && fv > 0) { next.append(u + (v - u) * (fu / (fu - fv))) }
            }
            polygon = next
            if polygon.count < 3 { return 0 }
        }
        var area = 0.0
        for i in 1..<(polygon.count - 1) { area += cross(polygon[0], polygon[i], polygon[i + 1]) }
        return abs(area) / 2
    }

    @Test func pairsOverlapExactlyWhenTheirIntersectionHasArea() {
        var random = TessSupport.Random(seed: 11)
        var overlapping = 0, touching = 0
        for _ in 0..<4_000 {
            // Six corners on a small integer lattice; q shares zero, one or two of p's corners.
            let points = (0..<6).map { _ in SIMD3(Double(random.next() % 7), Double(random.next() % 7), Double(random.next() % 5)) }
            let shared = Int(random.next() % 3)
            var qIndex: [Int32] = [3, 4, 5]
            for k in 0..<shared { qIndex[k] = Int32(k) }
            qIndex.shuffle(using: &random)
            let p2 = (0..<3).map { SIMD2(points[$0].x, points[$0].y) }
            let q2 = qIndex.map { SIMD2(points[Int($0)].x, points[Int($0)].y) }
            func area(_ t: [SIMD2<Double>]) -> Double { (t[1].x - t[0].x) * (t[2].y - t[0].y) - (t[1].y - t[0].y) * (t[2].x - t[0].x) }
            guard area(p2) != 0, area(q2) != 0 else { continue }
            let relation = points.withUnsafeBufferPointer { s in
                PairOcclusion.relation(
                    SIMD3(0, 1, 2), SIMD3(qIndex[0], qIndex[1], qIndex[2]), s, signs: (area(p2) > 0 ? 1 : -1, area(q2) > 0 ? 1 : -1))
            }
            let expected = overlapArea(p2, q2) > 1e-9
            if expected { overlapping += 1 } else if shared > 0 { touching += 1 }
            #expect((relation != .apart) == expected, "\(points) shared \(shared)")
        }
        #expect(overlapping > 500 && touching > 500)
    }

    @Test func overlappingPairsAreOrderedByTheirDepthsOverTheOverlap() {
        // Random pairs with random corner depths; the reference samples the depth difference at
        // points of a fine lattice inside both triangles.
        var random = TessSupport.Random(seed: 5)
        var decided = 0, crossing = 0
        for round in 0..<900 {
            // q shares no corner, one or two of p's (by index), so every kind of pair is met.
            let points = (0..<6).map { _ in SIMD3(random.uniform(0...10), random.uniform(0...10), random.uniform(-5...5)) }
            var qIndex: [Int32] = [3, 4, 5]
            for k in 0..<(round % 3) { qIndex[k] = Int32(k) }
            qIndex.shuffle(using: &random)
            func area(_ a: SIMD3<Double>, _ b: SIMD3<Double>, _ c: SIMD3<Double>) -> Double {
                (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
            }
            let q = qIndex.map { points[Int($0)] }
            let ap = area(points[0], points[1], points[2]), aq = area(q[0], q[1], q[2])
            guard abs(ap) > 1, abs(aq) > 1 else { continue }
            let relation = points.withUnsafeBufferPointer { s in
                PairOcclusion.relation(
                    SIMD3(0, 1, 2), SIMD3(qIndex[0], qIndex[1], qIndex[2]), s, signs: (ap > 0 ? 1 : -1, aq > 0 ? 1 : -1))
            }
            // Depth of a triangle's plane at (x, y), by barycentric coordinates, or nil outside.
            func depth(_ a: SIMD3<Double>, _ b: SIMD3<Double>, _ c: SIMD3<Double>, _ x: Double, _ y: Double) -> Double? {
                let q = SIMD3(x, y, 0)
                let total = area(a, b, c)
                let la = area(q, b, c) / total, lb = area(a, q, c) / total, lc = area(a, b, q) / total
                guard la > 0, lb > 0, lc > 0 else { return nil }
                return la * a.z + lb * b.z + lc * c.z
            }
            var positive = false, negative = false, inside = 0
            for i in 0...100 {
                for j in 0...100 {
                    let (x, y) = (Double(i) / 10, Double(j) / 10)
                    guard let zp = depth(points[0], points[1], points[2], x, y), let zq = depth(q[0], q[1], q[2], x, y)
                    else { continue }
                    inside += 1
                    if zp - zq > 1e-9 { positive = true }
                    if zp - zq < -1e-9 { negative = true }
                }
            }
            guard inside > 20 else { continue }
            #expect(relation != .apart)
            switch relation {
            case .firstInFront: #expect(!negative)
            case .secondInFront: #expect(!positive)
            case .crossing: crossing += 1
            case .apart, .level: Issue.record("a pair overlapping in \(inside) samples with depths apart")
            }
            if positive && negative { #expect(relation == .crossing) }
            decided += 1
        }
        #expect(decided > 150 && crossing > 30)
    }

    // MARK: The graph

    @Test func componentsAreTheMutuallyReachableNodesAndTheOrderKeepsEveryEdge() {
        var random = TessSupport.Random(seed: 3)
        for round in 0..<40 {
            let n = 25
            var back: [Int32] = [], front: [Int32] = []
            for _ in 0..<Int(random.next() % 40) {
                let u = Int32(random.next() % UInt64(n)), v = Int32(random.next() % UInt64(n))
                if u != v {
                    back.append(u)
                    front.append(v)
                }
            }
            // Reachability by Floyd–Warshall.
            var reach = [[Bool]](repeating: [Bool](repeating: false, count: n), count: n)
            for k in back.indices { reach[Int(back[k])][Int(front[k])] = true }
            for k in 0..<n { for i in 0..<n where reach[i][k] { for j in 0..<n where reach[k][j] { reach[i][j] = true } } }

            let graph = OcclusionGraph(count: n, back: back, front: front)
            let (component, members) = graph.cyclicComponents()
            for i in 0..<n {
                for j in 0..<n where i != j {
                    let together = component[i] >= 0 && component[i] == component[j]
                    #expect(together == (reach[i][j] && reach[j][i]), "round \(round): \(i), \(j)")
                }
                #expect((component[i] >= 0) == (0..<n).contains { $0 != i && reach[i][$0] && reach[$0][i] })
            }
            for m in members { #expect(m == m.sorted() && m.count > 1) }

            // Each component drawn as its members, reversed (any list of its pieces will do).
            let drawn = members.map { Array($0.reversed()) }
            let order = graph.order(component: component, members: members, drawn: drawn)
            #expect(order.count == n && Set(order).count == n)
            var position = [Int](repeating: 0, count: n)
            for (k, t) in order.enumerated() { position[Int(t)] = k }
            for k in back.indices where component[Int(back[k])] < 0 || component[Int(back[k])] != component[Int(front[k])] {
                #expect(position[Int(back[k])] < position[Int(front[k])], "round \(round): edge \(back[k]) → \(front[k])")
            }
            for m in members {
                let places = m.map { position[Int($0)] }.sorted()
                #expect(places.last.map { $0 - places[0] == m.count - 1 } == true, "a component is drawn as one block")
            }
        }
    }

    @Test func orderTakesTheSmallestFreeNodeFirst() {
        // No edges: the input order. 3 → 1 and 2 → 0: 1 and 0 wait, so 2, 0 (freed, smaller than 3), 3, 1.
        let empty = OcclusionGraph(count: 5, back: [], front: [])
        #expect(empty.order(component: [Int32](repeating: -1, count: 5), members: [], drawn: []) == [0, 1, 2, 3, 4])
        let graph = OcclusionGraph(count: 4, back: [3, 2], front: [1, 0])
        #expect(graph.order(component: [Int32](repeating: -1, count: 4), members: [], drawn: []) == [2, 0, 3, 1])
    }

    @Test func longChainsNeedNoDeepCallStack() {
        // A ring of 300,000 nodes is one component; a descending chain is drawn from the end.
        let n = 300_000
        let ring = OcclusionGraph(count: n, back: (0..<Int32(n)).map { $0 }, front: (0..<Int32(n)).map { ($0 + 1) % Int32(n) })
        let (component, members) = ring.cyclicComponents()
        #expect(members.count == 1 && members.first?.count == n)
        #expect(component.allSatisfy { $0 == 0 })
        let chain = OcclusionGraph(count: n, back: (1..<Int32(n)).map { $0 }, front: (1..<Int32(n)).map { $0 - 1 })
        let (none, empty) = chain.cyclicComponents()
        #expect(empty.isEmpty)
        #expect(chain.order(component: none, members: [], drawn: []) == (0..<Int32(n)).reversed())
    }

    /// The check that takes neighbours across an edge as apart (in the pair test and the ranked
    /// order's filter): true exactly when some edge u → w of the first triangle is w → u in the
    /// second, checked here against every directed edge of both, on random corners from five
    /// indices (so shared corners, shared edges both ways, the same triangle and repeated corners
    /// all come up).
    @Test func neighboursAcrossAnEdgeAreFoundByTheirRuns() {
        var random = TessSupport.Random(seed: 23)
        var found = 0
        for _ in 0..<20_000 {
            let i = SIMD3((0..<3).map { _ in Int32.random(in: 0..<5, using: &random) })
            let j = SIMD3((0..<3).map { _ in Int32.random(in: 0..<5, using: &random) })
            let edgesOfI = [(i.x, i.y), (i.y, i.z), (i.z, i.x)], edgesOfJ = [(j.x, j.y), (j.y, j.z), (j.z, j.x)]
            let expected = edgesOfI.contains { e in edgesOfJ.contains { $0.0 == e.1 && $0.1 == e.0 } }
            #expect(PairOcclusion.runOppositeAlongAnEdge(i, j) == expected, "\(i) \(j)")
            found += expected ? 1 : 0
        }
        #expect(found > 1_000)
    }
}
