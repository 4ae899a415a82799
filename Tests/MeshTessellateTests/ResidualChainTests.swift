import SurfaceKit
import Testing

@testable import MeshTessellate

// OverlapCandidates.residualChain finds R, every edge whose counterclockwise runs do not cancel, with
// its net count. Before its counting sort it takes out the runs that cancel within a quad (its
// diagonal) and between a quad and its left and lower neighbours as the tessellator lists them
// (`keptRuns`), so these scenes are quad grids listed that way (either diagonal, random signs
// standing for folds and edge-on triangles, pairs shuffled or split apart, duplicates and extra
// sheets on the same vertices). The reference is a dictionary of net counts over all runs,
// written out here; on a flat grid only the border's runs may be left.

@Suite struct ResidualChainTests {
    typealias Edge = SIMD2<Int32>

    /// Net count of every edge with a nonzero one: +1 for each run from the smaller index to the
    /// larger, −1 the other way; a triangle is run as listed when its sign is positive, reversed
    /// when negative, not at all when 0. A run from a vertex to itself bounds nothing and counts
    /// for no edge.
    private func reference(_ triangles: ArraySlice<SIMD3<Int32>>, _ signs: [Int8]) -> [Edge: Int32] {
        var net: [Edge: Int32] = [:]
        for t in triangles.indices where signs[t] != 0 {
            let v = triangles[t]
            let runs = signs[t] > 0 ? [(v.x, v.y), (v.y, v.z), (v.z, v.x)] : [(v.y, v.x), (v.z, v.y), (v.x, v.z)]
            for (a, b) in runs where a != b { net[Edge(min(a, b), max(a, b)), default: 0] += a < b ? 1 : -1 }
        }
        return net.filter { $0.value != 0 }
    }

    private func reference(_ triangles: [SIMD3<Int32>], _ signs: [Int8]) -> [Edge: Int32] { reference(triangles[...], signs) }

    private func residual(_ triangles: [SIMD3<Int32>], _ signs: [Int8], vertexCount: Int) -> [Edge: Int32]? {
        let chain = triangles.withUnsafeBufferPointer { t in
            signs.withUnsafeBufferPointer { g in OverlapCandidates.residualChain(vertexCount: vertexCount, triangles: t, signs: g) }
        }
        guard let chain else { return nil }
        var result: [Edge: Int32] = [:]
        for e in chain {
            #expect(e.a < e.b, "an edge from its smaller end")
            #expect(result[Edge(e.a, e.b)] == nil, "each edge once")
            result[Edge(e.a, e.b)] = e.weight
        }
        return result
    }

    /// The runs `keptRuns` keeps of all the triangles (one part, the stride it finds), as
    /// (a, b) pairs, and that stride.
    private func kept(_ triangles: [SIMD3<Int32>], _ signs: [Int8]) -> (runs: [SIMD2<Int32>], stride: Int) {
        triangles.withUnsafeBufferPointer { t in
            signs.withUnsafeBufferPointer { g in
                let stride = OverlapCandidates.neighbourStride(triangles: t, signs: g)
                var room = [UInt64](repeating: 0, count: 3 * t.count + 6)
                let count = room.withUnsafeMutableBufferPointer { out in
                    OverlapCandidates.keptRuns(triangles: t, signs: g, pairs: 0..<(t.count + 1) / 2, stride: stride, into: out)
                }
                let runs = room[0..<count].map { SIMD2(Int32(truncatingIfNeeded: $0 >> 32), Int32(truncatingIfNeeded: $0)) }
                return (runs, stride)
            }
        }
    }

    /// Net counts over the given runs, as `reference` counts them.
    private func net(_ runs: [SIMD2<Int32>]) -> [Edge: Int32] {
        var net: [Edge: Int32] = [:]
        for r in runs where r.x != r.y { net[Edge(min(r.x, r.y), max(r.x, r.y)), default: 0] += r.x < r.y ? 1 : -1 }
        return net.filter { $0.value != 0 }
    }

    /// A columns × rows grid of quads (vertex (i, j) is j·(columns + 1) + i), each split along a
    /// random diagonal and listed as `Tessellator.triangulate` lists it, counterclockwise when
    /// the grid is seen from +z: corners p, q, r, s = (i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1),
    /// then (p, q, r), (p, r, s) or (p, q, s), (q, r, s).
    private func grid(columns: Int, rows: Int, random: inout TessSupport.Random) -> [[SIMD3<Int32>]] {
        var quads: [[SIMD3<Int32>]] = []
        for j in 0..<rows {
            for i in 0..<columns {
                let p = Int32(j * (columns + 1) + i), q = p + 1
                let s = p + Int32(columns + 1), r = s + 1
                quads.append(Bool.random(using: &random) ? [SIMD3(p, q, r), SIMD3(p, r, s)] : [SIMD3(p, q, s), SIMD3(q, r, s)])
            }
        }
        return quads
    }

    @Test("a grid listed quad by quad: R is its border, and only the border's runs are kept")
    func flatGrid() throws {
        var random = TessSupport.Random(seed: 11)
        let (columns, rows) = (13, 9)
        let triangles = grid(columns: columns, rows: rows, random: &random).flatMap { $0 }
        let signs = [Int8](repeating: 1, count: triangles.count)
        let vertexCount = (columns + 1) * (rows + 1)
        let found = try #require(residual(triangles, signs, vertexCount: vertexCount))
        #expect(found == reference(triangles, signs))
        // The border, counterclockwise seen from +z: along the bottom and right sides from the
        // smaller index (+1), along the top and left sides toward it (−1).
        #expect(found.count == 2 * (columns + rows))
        #expect(found.values.filter { $0 == 1 }.count == columns + rows)
        // The quad a row before is `columns` pairs back; every inner side and diagonal cancels.
        let (runs, stride) = kept(triangles, signs)
        #expect(stride == columns)
        #expect(runs.count == 2 * (columns + rows))
        #expect(net(runs) == found)
        // Seen from −z (every sign −1), each border count is negated.
        let back = [Int8](repeating: -1, count: triangles.count)
        #expect(try #require(residual(triangles, back, vertexCount: vertexCount)) == found.mapValues { -$0 })
        #expect(kept(triangles, back).runs.count == 2 * (columns + rows))
    }

    @Test("folds, edge-on triangles, broken pairs, shuffles and extra sheets: R matches the net counts")
    func randomScenes() throws {
        var random = TessSupport.Random(seed: 2_026)
        for scene in 0..<60 {
            let columns = Int.random(in: 1...12, using: &random), rows = Int.random(in: 1...12, using: &random)
            var quads = grid(columns: columns, rows: rows, random: &random)
            let vertexCount = (columns + 1) * (rows + 1)
            // Extra sheets on the same vertices (non-manifold edges, duplicates).
            for _ in 0..<(scene % 4) {
                quads += grid(columns: columns, rows: rows, random: &random).filter { _ in Bool.random(using: &random) }
            }
            if scene % 3 == 1 { quads.shuffle(using: &random) }
            var triangles = quads.flatMap { $0 }
            // Every few scenes, one triangle more or fewer at the front, so pairs straddle quads.
            if scene % 5 == 2 { triangles.insert(triangles[triangles.count / 2], at: 0) }
            if scene % 5 == 4 { triangles.removeFirst() }
            // Regions of one sign with flips (folds) and some edge-on triangles.
            let flipRate = [0.0, 0.05, 0.3, 0.5][scene % 4]
            var signs: [Int8] = []
            var current: Int8 = 1
            for _ in triangles.indices {
                if random.uniform(0...1) < flipRate { current = -current }
                signs.append(random.uniform(0...1) < 0.05 ? 0 : current)
            }
            let found = try #require(residual(triangles, signs, vertexCount: vertexCount), "scene \(scene)")
            #expect(found == reference(triangles, signs), "scene \(scene)")

            // The runs kept add up to the same net counts, and are no more than all runs.
            let (runs, _) = kept(triangles, signs)
            #expect(net(runs) == reference(triangles, signs), "scene \(scene)")
            #expect(runs.count <= 3 * signs.filter { $0 != 0 }.count, "scene \(scene)")
        }
    }

    /// On two cores the triangles are cut in two parts that count and fill their own stretches of
    /// every bucket (a parallel counting sort), and the buckets are settled by two ranges of
    /// vertices: the scene is large enough for that (65,536 triangles or more), shuffled so the
    /// runs of an edge fall in both parts, with an odd triangle count and a second sheet.
    @Test("a scene large enough for the parts on two cores: R matches the net counts")
    func partsOnTwoCores() throws {
        var random = TessSupport.Random(seed: 77)
        let (columns, rows) = (190, 181)
        var quads = grid(columns: columns, rows: rows, random: &random)
        quads += grid(columns: columns, rows: rows, random: &random).filter { _ in random.uniform(0...1) < 0.1 }
        quads.shuffle(using: &random)
        var triangles = quads.flatMap { $0 }
        triangles.removeFirst()
        #expect(triangles.count >= 65_536 && triangles.count % 2 == 1)
        var signs: [Int8] = []
        var current: Int8 = 1
        for _ in triangles.indices {
            if random.uniform(0...1) < 0.02 { current = -current }
            signs.append(random.uniform(0...1) < 0.01 ? 0 : current)
        }
        let vertexCount = (columns + 1) * (rows + 1)
        let found = ParallelLimit.withThreads(2) { residual(triangles, signs, vertexCount: vertexCount) }
        let expected = reference(triangles, signs)
        #expect(expected.count > 10_000)
        #expect(try #require(found) == expected)
        // The same edges in the same order on one core.
        let ordered = { () -> [SIMD3<Int32>]? in
            triangles.withUnsafeBufferPointer { t in
                signs.withUnsafeBufferPointer { g in
                    OverlapCandidates.residualChain(vertexCount: vertexCount, triangles: t, signs: g)?.map { SIMD3($0.a, $0.b, $0.weight) }
                }
            }
        }
        let serial = ParallelLimit.withThreads(1) { ordered() }
        let parallel = ParallelLimit.withThreads(2) { ordered() }
        #expect(serial == parallel)
    }

    /// Quads over a handful of vertices, listed as the tessellator lists a quad: neighbours in
    /// the listing share corners often, and often only one of the two a side needs, so a side is
    /// taken out only with a true reverse (a looser test would lose or invent net counts here).
    @Test("quads over a few vertices share corners by chance: the runs kept add up to R")
    func quadsOverFewVertices() throws {
        var random = TessSupport.Random(seed: 909)
        for scene in 0..<40 {
            let vertexCount = 5 + scene % 4
            var triangles: [SIMD3<Int32>] = []
            var signs: [Int8] = []
            for _ in 0..<(200 + 37 * scene) {
                var corners: [Int32] = []
                while corners.count < 4 {
                    let v = Int32(Int.random(in: 0..<vertexCount, using: &random))
                    if !corners.contains(v) { corners.append(v) }
                }
                let (p, q, r, s) = (corners[0], corners[1], corners[2], corners[3])
                triangles += Bool.random(using: &random) ? [SIMD3(p, q, r), SIMD3(p, r, s)] : [SIMD3(p, q, s), SIMD3(q, r, s)]
                let sign: Int8 = random.uniform(0...1) < 0.8 ? 1 : -1
                signs += [sign, random.uniform(0...1) < 0.9 ? sign : -sign]
            }
            let (runs, _) = kept(triangles, signs)
            #expect(net(runs) == reference(triangles, signs), "scene \(scene)")
            #expect(try #require(residual(triangles, signs, vertexCount: vertexCount)) == reference(triangles, signs), "scene \(scene)")
        }
    }

    /// `keptRuns` over any stretch of pairs with any stride: grids listed quad by quad, the same
    /// with corners repeated (triangles without area that still have a sign), and quads over a
    /// few vertices; signs ±1 and 0. The runs kept add up to the net counts of the stretch's own
    /// triangles, and nothing is written past 3 × those triangles.
    @Test("keptRuns over any stretch and stride keeps the net counts and its room")
    func keptRunsOverAnyStretch() {
        var random = TessSupport.Random(seed: 4_242)
        for scene in 0..<600 {
            let columns = Int.random(in: 1...7, using: &random), rows = Int.random(in: 1...6, using: &random)
            var triangles: [SIMD3<Int32>] = []
            if scene % 3 == 2 {
                for _ in 0..<Int.random(in: 1...40, using: &random) {
                    let c = (0..<4).map { _ in Int32(Int.random(in: 0..<5, using: &random)) }
                    triangles +=
                        Bool.random(using: &random)
                        ? [SIMD3(c[0], c[1], c[2]), SIMD3(c[0], c[2], c[3])] : [SIMD3(c[0], c[1], c[3]), SIMD3(c[1], c[2], c[3])]
                }
            } else {
                triangles = grid(columns: columns, rows: rows, random: &random).flatMap { $0 }
                if scene % 3 == 1 {
                    for k in triangles.indices where Int.random(in: 0..<10, using: &random) == 0 { triangles[k].y = triangles[k].x }
                }
            }
            if Bool.random(using: &random) { triangles.removeLast() }
            guard !triangles.isEmpty else { continue }
            let signs: [Int8] =
                Bool.random(using: &random)
                ? [Int8](repeating: 1, count: triangles.count)
                : triangles.map { _ in [1, 1, 1, -1, -1, 0][Int.random(in: 0..<6, using: &random)] }
            let pairCount = (triangles.count + 1) / 2
            for stride in [0, 1, 2, 3, columns, columns + 1, Int.random(in: 0...12, using: &random)] {
                var cuts =
                    [0, pairCount] + (0..<Int.random(in: 0...3, using: &random)).map { _ in Int.random(in: 0...pairCount, using: &random) }
                cuts.sort()
                for k in 0..<(cuts.count - 1) {
                    let pairs = cuts[k]..<cuts[k + 1]
                    let stretch = min(2 * pairs.lowerBound, triangles.count)..<min(2 * pairs.upperBound, triangles.count)
                    let marker: UInt64 = 0xDEAD_BEEF
                    var room = [UInt64](repeating: marker, count: 3 * stretch.count + 8)
                    let count = triangles.withUnsafeBufferPointer { t in
                        signs.withUnsafeBufferPointer { g in
                            room.withUnsafeMutableBufferPointer { out in
                                OverlapCandidates.keptRuns(
                                    triangles: t, signs: g, pairs: pairs, stride: stride,
                                    into: UnsafeMutableBufferPointer(rebasing: out[0..<3 * stretch.count]))
                            }
                        }
                    }
                    #expect(count <= 3 * stretch.count && room[(3 * stretch.count)...].allSatisfy { $0 == marker }, "scene \(scene)")
                    let runs = room[0..<count].map { SIMD2(Int32(truncatingIfNeeded: $0 >> 32), Int32(truncatingIfNeeded: $0)) }
                    #expect(net(runs) == reference(triangles[stretch], signs), "scene \(scene), stride \(stride), pairs \(pairs)")
                }
            }
        }
    }

    /// A grid listed quad by quad, large enough for two parts on two cores and not shuffled, so
    /// the left and lower neighbours cancel within each part and the parts meet inside a row.
    @Test("a listed grid of 72,000 triangles on two cores: the same R as on one, the net counts")
    func listedGridOnTwoCores() throws {
        var random = TessSupport.Random(seed: 5)
        let (columns, rows) = (301, 120)
        var triangles = grid(columns: columns, rows: rows, random: &random).flatMap { $0 }
        triangles.removeLast()
        var signs = [Int8](repeating: 1, count: triangles.count)
        for k in Swift.stride(from: 0, to: signs.count, by: 997) { signs[k] = -1 }
        for k in Swift.stride(from: 5, to: signs.count, by: 1_301) { signs[k] = 0 }
        let vertexCount = (columns + 1) * (rows + 1)
        #expect(kept(triangles, signs).stride == columns)
        let chain = { () -> [SIMD3<Int32>]? in
            triangles.withUnsafeBufferPointer { t in
                signs.withUnsafeBufferPointer { g in
                    OverlapCandidates.residualChain(vertexCount: vertexCount, triangles: t, signs: g)?.map { SIMD3($0.a, $0.b, $0.weight) }
                }
            }
        }
        let serial = ParallelLimit.withThreads(1) { chain() }
        let parallel = try #require(ParallelLimit.withThreads(2) { chain() })
        #expect(serial == parallel)
        var found: [Edge: Int32] = [:]
        for e in parallel { found[Edge(e.x, e.y)] = e.z }
        #expect(found == reference(triangles, signs))
    }
}
