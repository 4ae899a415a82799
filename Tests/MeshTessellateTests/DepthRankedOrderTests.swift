import SurfaceKit
import Testing

@testable import MeshTessellate

// The exact sort's fast path ranks the triangles that may overlap by their least screen depth and
// tests only the pairs whose depth ranges overlap (DepthRankedOrder). Its orders are checked here
// against references written in the tests: a z-buffer (SortSupport.compare), every overlapping pair
// found by a brute force over all pairs (ScreenBruteForce), and hand-built folds.

@Suite struct DepthRankedOrderTests {
    typealias S = SortSupport

    @Test func aFoldWhoseTrianglesHaveTheSameDepthRangeIsDrawnBackFirst() throws {
        // Two triangles share the edge A B (z 0 → 10 along x) and fold over it: both third corners
        // lie above the edge (y > 10), so they overlap near it. Both depth ranges are [0, 10] (the
        // third corners' depths lie between), so the ranks tie and go by index: 0 first. But over
        // the overlap triangle 0 is in front: its third corner is 2 above the edge's depth at x = 50
        // (which is 5), triangle 1's is 2 below, and both planes hold the edge.
        let a = SIMD3(10.0, 10, 0), b = SIMD3(90.0, 10, 10)
        let c0 = SIMD3(50.0, 60, 7), c1 = SIMD3(50.0, 40, 3)
        let fold = S.layerMesh(positions: [a, b, c0, c1], triangles: [SIMD3(0, 1, 2), SIMD3(1, 0, 3)])
        let reference = S.projected(fold, geometry: S.flat)
        let (sorted, stats) = try PainterSorter.sorted(mesh: fold, geometry: S.flat, mode: .exact)
        #expect(stats.depthRanked)
        #expect(stats.overlappingPairs == 1 && stats.addedPieces == 0)
        #expect(sorted.triangles == [SIMD3(1, 0, 3), SIMD3(0, 1, 2)], "the one behind first")
        let check = S.compare(drawn: S.triangles(of: sorted), reference: reference, resolution: 300)
        #expect(check.checked > 1_000 && check.mismatches == 0)
        let (plain, _) = try PainterSorter.sorted(mesh: fold, geometry: S.flat, mode: .none)
        #expect(S.compare(drawn: S.triangles(of: plain), reference: reference, resolution: 300).mismatches > 0)
    }

    @Test func neighboursAtACornerOnASlopeAreDrawnBackFirst() throws {
        // Two triangles share the corner V (depth 5) and fold over each other above it: every
        // corner of P is at depth 5 or below, every corner of Q at 5 or above, so P is behind
        // wherever they overlap (they touch in depth at V only). Q is listed first, so the input
        // order is wrong; a third triangle R crosses both between depths 2 and 8 far from V.
        let v = SIMD3(50.0, 50, 5)
        let positions = [
            v, SIMD3(20.0, 95, 9), SIMD3(80.0, 95, 6), // Q
            SIMD3(10.0, 90, 0), SIMD3(90.0, 90, 1), // P
            SIMD3(5.0, 80, 2), SIMD3(95.0, 80, 2), SIMD3(50.0, 99, 8), // R
        ]
        let scene = S.layerMesh(positions: positions, triangles: [SIMD3(0, 1, 2), SIMD3(0, 3, 4), SIMD3(5, 6, 7)])
        let reference = S.projected(scene, geometry: S.flat)
        let (sorted, stats) = try PainterSorter.sorted(mesh: scene, geometry: S.flat, mode: .exact)
        #expect(stats.addedPieces == 0)
        let check = S.compare(drawn: S.triangles(of: sorted), reference: reference, resolution: 300)
        #expect(check.checked > 1_000 && check.mismatches == 0)
        let (plain, _) = try PainterSorter.sorted(mesh: scene, geometry: S.flat, mode: .none)
        #expect(S.compare(drawn: S.triangles(of: plain), reference: reference, resolution: 300).mismatches > 0)
    }

    @Test func randomCornerFansOnASlopeMatchTheZBuffer() throws {
        // Fans of triangles around one corner whose depths rise along a random direction (so
        // many pairs touch in depth at the corner only), folded over one another at random, with
        // a few crossing triangles: whatever path the sort takes, it must draw as the z-buffer.
        var random = TessSupport.Random(seed: 0xfa_2026)
        for _ in 0..<20 {
            let slope = SIMD2(Double.random(in: -1...1, using: &random), Double.random(in: -1...1, using: &random))
            let centre = SIMD2(50.0, 50)
            func depth(_ p: SIMD2<Double>) -> Double { 10 + slope.x * (p.x - centre.x) / 10 + slope.y * (p.y - centre.y) / 10 }
            var positions = [SIMD3(centre.x, centre.y, depth(centre))]
            var triangles: [SIMD3<Int32>] = []
            for _ in 0..<8 {
                let a0 = Double.random(in: 0..<(2 * .pi), using: &random)
                let a1 = a0 + Double.random(in: 0.3...2.5, using: &random)
                let r0 = Double.random(in: 10...45, using: &random), r1 = Double.random(in: 10...45, using: &random)
                let p = centre + r0 * SIMD2(Double.cos(a0), Double.sin(a0))
                let q = centre + r1 * SIMD2(Double.cos(a1), Double.sin(a1))
                let base = Int32(positions.count)
                positions.append(SIMD3(p.x, p.y, depth(p)))
                positions.append(SIMD3(q.x, q.y, depth(q)))
                triangles.append(SIMD3(0, base, base + 1))
            }
            for _ in 0..<2 {
                let base = Int32(positions.count)
                for _ in 0..<3 {
                    positions.append(
                        SIMD3(
                            Double.random(in: 5...95, using: &random), Double.random(in: 5...95, using: &random),
                            Double.random(in: 4...16, using: &random)))
                }
                triangles.append(SIMD3(base, base + 1, base + 2))
            }
            let scene = S.layerMesh(positions: positions, triangles: triangles)
            let reference = S.projected(scene, geometry: S.flat)
            let (sorted, _) = try PainterSorter.sorted(mesh: scene, geometry: S.flat, mode: .exact)
            let check = S.compare(drawn: S.triangles(of: sorted), reference: reference, resolution: 200)
            #expect(check.checked > 1_000 && check.mismatches == 0)
        }
    }

    @Test func sheetsApartInDepthNeedNoPairTest() throws {
        // Two flat sheets over the same square, 10 and 20 deep, the nearer listed first: every pair
        // across them overlaps with depth ranges apart, and no pair within a sheet overlaps.
        var sheets = S.emptyPoints()
        for (face, z) in [20.0, 10.0].enumerated() {
            S.appendSheet(to: &sheets, n: 6, x: 10...90, y: 10...90, face: Int32(face), normal: SIMD3(0, 0, 1)) { _, _ in z }
        }
        let reference = S.projected(sheets, geometry: S.flat)
        let (sorted, stats) = try PainterSorter.sorted(mesh: sheets, geometry: S.flat, mode: .exact)
        #expect(stats.depthRanked && stats.overlappingPairs == 0 && stats.addedPieces == 0)
        // The farther sheet (the second 72 triangles) first.
        #expect(Array(sorted.triangles.prefix(72)) == Array(sheets.triangles.suffix(72)))
        let check = S.compare(drawn: S.triangles(of: sorted), reference: reference, resolution: 200)
        #expect(check.checked > 10_000 && check.mismatches == 0)
    }

    @Test func tiltedRippleKeepsEveryOverlappingPair() throws {
        // Every pair whose screen images overlap, found by the brute force written in the tests
        // (every pair clipped against each other; nothing from the sort), is drawn back before front.
        let document = ExampleMesh.ripple.document
        let ripple = try Tessellator.tessellate(document, options: TessellationOptions(steps: .fixed(1)), space: .points)
        var pool = try SortPool(clipping: ripple, geometry: document.geometry)
        var stats = SortStatistics(
            inputTriangles: ripple.triangleCount, trianglesAfterClipping: pool.triangles.count, outputTriangles: 0, overlapClusters: 0,
            largestCluster: 0)
        let order = try PainterSorter.exactOrder(pool: &pool, statistics: &stats, budget: 10 * ripple.triangleCount)
        #expect(stats.depthRanked)
        #expect(order.count == pool.triangles.count && Set(order).count == order.count)
        var position = [Int](repeating: 0, count: order.count)
        for (k, t) in order.enumerated() { position[Int(t)] = k }
        let (pairs, _) = ScreenBruteForce.overlaps(screen: pool.screen, triangles: pool.triangles)
        #expect(pairs.count > 10_000)
        let signs = ScreenBruteForce.signs(screen: pool.screen, triangles: pool.triangles)
        // Depths are compared to within 10⁻⁹ of the largest depth.
        let tolerance = 1e-9 * max(1, pool.screen.reduce(0) { max($0, $1.z.isFinite ? abs($1.z) : 0) })
        var crossing = 0, broken = 0
        for pair in pairs {
            let (earlier, later) = position[pair.first] < position[pair.second] ? (pair.first, pair.second) : (pair.second, pair.first)
            let back = ScreenBruteForce.corners(pool.screen, pool.triangles[earlier], sign: signs[earlier])
            let front = ScreenBruteForce.corners(pool.screen, pool.triangles[later], sign: signs[later])
            // How far the later one is in front: affine over the overlap (screen depth is affine
            // over each triangle), so its extremes are at the overlap's corners. When it changes
            // sign there the two cross, and no order of whole triangles draws them right.
            func lead(_ q: SIMD2<Double>) -> Double {
                ScreenBruteForce.depth(at: q, front) - ScreenBruteForce.depth(at: q, back)
            }
            let atCorners = pair.region.map(lead)
            if (atCorners.max() ?? 0) > tolerance && (atCorners.min() ?? 0) < -tolerance {
                crossing += 1
                continue
            }
            // At the mean of the overlap's corners (inside: it is convex) and at points near each corner.
            let centre = pair.region.reduce(SIMD2<Double>.zero, +) / Double(pair.region.count)
            let samples = [centre] + pair.region.map { centre + 0.9 * ($0 - centre) }
            if samples.contains(where: { lead($0) < -tolerance }) { broken += 1 }
        }
        #expect(crossing == 0, "the rank order is taken only when no overlapping pair crosses")
        #expect(broken == 0)
    }

    /// The clusters the statistics report (groups of two or more candidates joined by overlapping
    /// pairs) against the connected components found by a search written here.
    @Test func clusterSizesAreTheConnectedComponentsOfThePairs() {
        var random = TessSupport.Random(seed: 31)
        for scene in 0..<30 {
            let slots = 5 + scene * 40
            let pairs = (0..<(scene * 25)).map { _ in
                SIMD2(Int32(Int.random(in: 0..<slots, using: &random)), Int32(Int.random(in: 0..<slots, using: &random)))
            }
            var neighbours = [[Int]](repeating: [], count: slots)
            for p in pairs {
                neighbours[Int(p.x)].append(Int(p.y))
                neighbours[Int(p.y)].append(Int(p.x))
            }
            var seen = [Bool](repeating: false, count: slots)
            var count = 0, largest = 0
            for start in 0..<slots where !seen[start] && !neighbours[start].isEmpty {
                var stack = [start], size = 0
                seen[start] = true
                while let v = stack.popLast() {
                    size += 1
                    for w in neighbours[v] where !seen[w] {
                        seen[w] = true
                        stack.append(w)
                    }
                }
                // A pair of a slot with itself makes no group of two.
                if size >= 2 {
                    count += 1
                    largest = max(largest, size)
                }
            }
            let found = DepthRankedOrder.clusterSizes(pairs)
            #expect(found.count == count && found.largest == largest, "scene \(scene)")
        }
    }

    @Test func aDelayedRankMustNotFollowOneWhollyInFrontOfIt() {
        // Ranks 0 and 1 (slots in rank order); rank 1 drawn first, then rank 0.
        let ranked: [Int32] = [0, 1]
        // Depth ranges that overlap: no untested pair between them can be broken.
        #expect(DepthRankedOrder.keepsUntestedPairs([1, 0], ranked: ranked, depths: [SIMD2(0, 5), SIMD2(1, 2)]))
        // Rank 1 wholly in front of rank 0 (least depth 6 above 5): had they overlapped, this
        // order would draw the nearer first, and the pair was never tested.
        #expect(!DepthRankedOrder.keepsUntestedPairs([1, 0], ranked: ranked, depths: [SIMD2(0, 5), SIMD2(6, 7)]))
        // In rank order nothing is delayed.
        #expect(DepthRankedOrder.keepsUntestedPairs([0, 1], ranked: ranked, depths: [SIMD2(0, 5), SIMD2(6, 7)]))
        // Touching (rank 1's least depth equal to rank 0's greatest): the sweep does not test such
        // a pair either, so drawing rank 1 first may break it.
        #expect(!DepthRankedOrder.keepsUntestedPairs([1, 0], ranked: ranked, depths: [SIMD2(0, 5), SIMD2(5, 7)]))
    }

    @Test func aFlatSheetHasNoCandidates() {
        // An unfolded grid seen straight on: every interior edge cancels, the cover count is 1
        // everywhere, so no triangle may overlap another (those along the border included).
        var sheet = S.emptyPoints()
        S.appendSheet(to: &sheet, n: 40, x: 0...100, y: 0...100, face: 0, normal: SIMD3(0, 0, 1)) { x, y in 0.1 * x + 0.2 * y }
        var signs = [Double](repeating: 0, count: sheet.triangleCount)
        for (t, v) in sheet.triangles.enumerated() {
            let a = sheet.positions[Int(v.x)], b = sheet.positions[Int(v.y)], c = sheet.positions[Int(v.z)]
            signs[t] = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x) > 0 ? 1 : -1
        }
        let candidates = OverlapCandidates.candidates(screen: sheet.positions, triangles: sheet.triangles, signs: signs, scale: 100)
        #expect(candidates == [Bool](repeating: false, count: sheet.triangleCount))
    }

    /// A disc of `count` wedges around a centre, each cut into `rings` rings, its rim turning
    /// `turns` times and rising in depth along the turns: once round it covers its disc once,
    /// twice round twice.
    private func fan(count: Int, rings: Int, turns: Int) -> TriangleMesh {
        var positions = [SIMD3(50.0, 50, 0)]
        for j in 1...rings {
            let radius = 30 * Double(j) / Double(rings)
            for i in 0..<count {
                let angle = 2 * Double.pi * Double(turns) * Double(i) / Double(count)
                positions.append(SIMD3(50 + radius * Double.cos(angle), 50 + radius * Double.sin(angle), Double(i * j) / Double(rings)))
            }
        }
        func v(_ j: Int, _ i: Int) -> Int32 { Int32(1 + (j - 1) * count + i % count) }
        var triangles: [SIMD3<Int32>] = []
        for i in 0..<count {
            triangles.append(SIMD3(0, v(1, i), v(1, i + 1)))
            for j in 1..<rings {
                triangles.append(SIMD3(v(j, i), v(j + 1, i), v(j + 1, i + 1)))
                triangles.append(SIMD3(v(j, i), v(j + 1, i + 1), v(j, i + 1)))
            }
        }
        return S.layerMesh(positions: positions, triangles: triangles)
    }

    @Test func fansAroundOneVertexAreCoveredAsOftenAsTheirRimsTurn() throws {
        // 200 triangles at the centre (R, the rim, is small beside the 2,200 triangles): far more edges at one vertex than a mesh has (a full sort of
        // that vertex's edges, not insertion).
        func candidates(_ mesh: TriangleMesh) -> [Bool]? {
            var signs = [Double](repeating: 0, count: mesh.triangleCount)
            for (t, v) in mesh.triangles.enumerated() {
                let a = mesh.positions[Int(v.x)], b = mesh.positions[Int(v.y)], c = mesh.positions[Int(v.z)]
                signs[t] = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x) > 0 ? 1 : -1
            }
            return OverlapCandidates.candidates(screen: mesh.positions, triangles: mesh.triangles, signs: signs, scale: 100)
        }
        let once = fan(count: 200, rings: 6, turns: 1), twice = fan(count: 200, rings: 6, turns: 2)
        #expect(candidates(once) == [Bool](repeating: false, count: 2_200), "a disc covered once: nothing overlaps")
        #expect(candidates(twice) == [Bool](repeating: true, count: 2_200), "covered twice: every triangle lies under another")
        // The second turn lies over the first, nearer by 100 but for the seam, where the last
        // triangle runs from depth 199 back to 0 over the first turn's last one and crosses it: the
        // general path splits the two, and the result draws as the z-buffer.
        let (sorted, stats) = try PainterSorter.sorted(mesh: twice, geometry: S.flat, mode: .exact)
        #expect(!stats.depthRanked && stats.crossingPairs > 0)
        let check = S.compare(drawn: S.triangles(of: sorted), reference: S.projected(twice, geometry: S.flat), resolution: 300)
        #expect(check.checked > 10_000 && check.mismatches == 0)
    }

    @Test func theResidualChainIsEveryEdgeWhoseRunsDoNotCancel() {
        // Random triangles over a few vertices (buckets of every size: the network for up to 8
        // codes, insertion up to 32, a full sort beyond), some edge-on (sign 0, left out). The
        // reference counts each directed run in a dictionary: net runs from the smaller end.
        var random = TessSupport.Random(seed: 0x5eed_0c0d)
        for (vertexCount, n) in [(3, 60), (5, 20), (12, 48), (40, 160), (400, 1_600), (2_000, 2_000)] {
            var triangles: [SIMD3<Int32>] = []
            var signs: [Int8] = []
            while triangles.count < n {
                let a = Int32.random(in: 0..<Int32(vertexCount), using: &random)
                let b = Int32.random(in: 0..<Int32(vertexCount), using: &random)
                let c = Int32.random(in: 0..<Int32(vertexCount), using: &random)
                guard a != b, b != c, c != a else { continue }
                triangles.append(SIMD3(a, b, c))
                signs.append([-1, 0, 1, 1][Int.random(in: 0..<4, using: &random)])
            }
            var net: [SIMD2<Int32>: Int32] = [:]
            for (v, sign) in zip(triangles, signs) where sign != 0 {
                // Counterclockwise: as listed when the sign is positive, reversed otherwise.
                let runs = sign > 0 ? [(v.x, v.y), (v.y, v.z), (v.z, v.x)] : [(v.x, v.z), (v.z, v.y), (v.y, v.x)]
                for (from, to) in runs {
                    net[SIMD2(min(from, to), max(from, to)), default: 0] += from < to ? 1 : -1
                }
            }
            let expected = net.filter { $0.value != 0 }
            let chain = triangles.withUnsafeBufferPointer { t in
                signs.withUnsafeBufferPointer { g in OverlapCandidates.residualChain(vertexCount: vertexCount, triangles: t, signs: g) }
            }
            var found: [SIMD2<Int32>: Int32] = [:]
            for e in chain ?? [] {
                #expect(e.a < e.b && found[SIMD2(e.a, e.b)] == nil)
                found[SIMD2(e.a, e.b)] = e.weight
            }
            #expect(chain != nil && found == expected)
        }
    }

    /// A border edge that starts exactly on a grid row's centre line and rises by the smallest
    /// subnormal: its crossing of that line must still be counted in its own cell (the slope
    /// overflows there, and 0 × ∞ is NaN). Left of it two sheets overlap, the nearer listed first;
    /// whatever grid the sizes make, they must draw as the z-buffer. Screen = points here
    /// (anchor at the origin, no transform), so the edge really starts on y = 0.
    @Test func aBorderEdgeRisingBySubnormalsStillCountsItsCrossing() throws {
        let geometry = LayerGeometry(size: SIMD2(100, 100), depthScale: 1, anchor: LayerPoint(0, 0), transform: .identity)
        for n in [5, 9, 13, 17] {
            for h in [20.0, 30.0, 40.0] {
                var scene = S.emptyPoints()
                for p in [SIMD3(6.0, 0, 0.5), SIMD3(1.0, Double.leastNonzeroMagnitude, 0.5), SIMD3(3.5, -2, 0.5)] {
                    scene.positions.append(p)
                    scene.from.append(LayerPoint(p.x / 100, p.y / 100))
                    scene.normals.append(SIMD3(0, 0, 1))
                }
                scene.triangles.append(SIMD3(0, 1, 2))
                scene.sourceFaces.append(2)
                S.appendSheet(to: &scene, n: n, x: -90...(-30), y: (-h + 5)...(h - 5), face: 1, normal: SIMD3(0, 0, 1)) { _, _ in 1 }
                S.appendSheet(to: &scene, n: n, x: -100...(-20), y: -h...h, face: 0, normal: SIMD3(0, 0, 1)) { _, _ in 0 }
                let (sorted, stats) = try PainterSorter.sorted(mesh: scene, geometry: geometry, mode: .exact)
                #expect(stats.addedPieces == 0)
                let check = S.compare(
                    drawn: S.triangles(of: sorted), reference: S.projected(scene, geometry: geometry), resolution: 200)
                #expect(check.checked > 1_000 && check.mismatches == 0, "n \(n), h \(h)")
            }
        }
    }

    /// The candidates' work budget goes by fixed blocks of triangles, so one thread and all cores
    /// give the same order (the folded ripple at steps 2 has enough triangles to run in parallel).
    @Test func theOrderIsTheSameOnOneThreadAndOnAllCores() throws {
        let (mesh, geometry) = try S.foldedRipple(steps: 2)
        #expect(mesh.triangleCount > 131_072)
        // Through the scoped thread limit, which no test running beside this one sees.
        let (parallel, statistics) = try ParallelLimit.withThreads(2) {
            try PainterSorter.sorted(mesh: mesh, geometry: geometry, mode: .exact)
        }
        let (serial, _) = try ParallelLimit.withThreads(1) {
            try PainterSorter.sorted(mesh: mesh, geometry: geometry, mode: .exact)
        }
        #expect(statistics.depthRanked, "the ranked path, whose sweep runs by bands on two cores")
        #expect(serial.triangles == parallel.triangles)
        // Enough candidates for the first pass to run in parts (the vertices' marks then atomic).
        let pool = try SortPool(clipping: mesh, geometry: geometry)
        let outcome = DepthRankedOrder.order(screen: pool.screen, triangles: pool.triangles, limit: 1 << 24)
        #expect((outcome?.candidates ?? 0) >= 32_768)
    }

    /// The limit on overlapping pairs applies to the total over the sweep's bands: one pair fewer
    /// than the folded ripple has gives no ranked order on one core and on two, exactly as many
    /// gives the same order on both.
    @Test func thePairLimitIsOnTheTotalOnAnyNumberOfCores() throws {
        let (mesh, geometry) = try S.foldedRipple(steps: 2)
        let pool = try SortPool(clipping: mesh, geometry: geometry)
        let full = try #require(
            ParallelLimit.withThreads(1) { DepthRankedOrder.order(screen: pool.screen, triangles: pool.triangles, limit: 1 << 30) })
        let k = full.overlappingPairs
        #expect(k > 1_000)
        for limit in [k - 1, k, k / 2] {
            let serial = ParallelLimit.withThreads(1) {
                DepthRankedOrder.order(screen: pool.screen, triangles: pool.triangles, limit: limit)
            }
            let parallel = ParallelLimit.withThreads(2) {
                DepthRankedOrder.order(screen: pool.screen, triangles: pool.triangles, limit: limit)
            }
            #expect((serial == nil) == (limit < k) && (parallel == nil) == (limit < k), "limit \(limit) of \(k)")
            #expect(serial?.order == parallel?.order)
        }
    }
}
