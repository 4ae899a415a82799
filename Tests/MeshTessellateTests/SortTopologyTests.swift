import SurfaceKit
import Testing

@testable import MeshTessellate

// SortTopology pairs the triangles sharing each edge once, so that each sort of the same mesh only
// compares screen signs along edges. Its R (the edges whose counterclockwise runs do not cancel)
// is checked against the definition, counted edge by edge in a dictionary written here, and a
// sort given the pairing against the same sort without it.

@Suite struct SortTopologyTests {
    typealias S = SortSupport
    typealias TS = TessSupport

    /// R by the definition: each triangle with a sign run counterclockwise on screen (as listed
    /// when the sign is 1, reversed when −1), each run adding +1 to its edge's count when it goes
    /// from the smaller vertex index to the larger and −1 otherwise (a side from a vertex to itself
    /// bounds nothing); the edges left non-zero.
    private func definition(_ triangles: [SIMD3<Int32>], signs: [Int8]) -> [SIMD3<Int32>: Int] {
        var net: [SIMD2<Int32>: Int32] = [:]
        for (t, v) in triangles.enumerated() where signs[t] != 0 {
            let corners = signs[t] > 0 ? [v.x, v.y, v.z] : [v.x, v.z, v.y]
            for k in 0..<3 {
                let a = corners[k], b = corners[(k + 1) % 3]
                guard a != b else { continue } // bounds nothing
                net[SIMD2(min(a, b), max(a, b)), default: 0] += a < b ? 1 : -1
            }
        }
        var result: [SIMD3<Int32>: Int] = [:]
        for (edge, count) in net where count != 0 { result[SIMD3(edge.x, edge.y, count), default: 0] += 1 }
        return result
    }

    private func multiset(_ residual: [(a: Int32, b: Int32, weight: Int32)]) -> [SIMD3<Int32>: Int] {
        var result: [SIMD3<Int32>: Int] = [:]
        for r in residual { result[SIMD3(r.a, r.b, r.weight), default: 0] += 1 }
        return result
    }

    /// A w × h grid of vertices split into triangles along alternating diagonals, some listed the
    /// other way round, with holes, edges shared by three or four triangles, repeated triangles and
    /// triangles with a repeated corner; `signs` random in {−1, 0, 1} with mostly 1.
    private func scene(seed: UInt64) -> (triangles: [SIMD3<Int32>], vertexCount: Int, signs: [Int8]) {
        var random = TS.Random(seed: seed)
        let w = 12, h = 9
        var triangles: [SIMD3<Int32>] = []
        for y in 0..<(h - 1) {
            for x in 0..<(w - 1) {
                if random.uniform(0...1) < 0.08 { continue } // a hole
                let a = Int32(y * w + x), b = a + 1, c = a + Int32(w), d = c + 1
                var pair = (x + y) % 2 == 0 ? [SIMD3(a, b, d), SIMD3(a, d, c)] : [SIMD3(a, b, c), SIMD3(b, d, c)]
                if random.uniform(0...1) < 0.1 { pair[0] = SIMD3(pair[0].x, pair[0].z, pair[0].y) } // listed the other way
                triangles += pair
            }
        }
        for _ in 0..<6 {
            // Extra sheets on an existing edge (three or four sides on it), repeats, degenerate.
            let t = triangles[Int(random.uniform(0...1) * Double(triangles.count - 1))]
            let extra = Int32(random.uniform(0...1) * Double(w * h - 1))
            switch Int(random.uniform(0...1) * 3.99) {
            case 0: triangles.append(SIMD3(t.x, t.y, extra))
            case 1: triangles.append(t)
            case 2: triangles.append(SIMD3(t.y, t.x, extra))
            default: triangles.append(SIMD3(t.x, t.x, extra))
            }
        }
        let signs = triangles.map { _ -> Int8 in
            let u = random.uniform(0...1)
            return u < 0.75 ? 1 : (u < 0.9 ? -1 : 0)
        }
        return (triangles, w * h, signs)
    }

    @Test(arguments: 0..<24 as Range<UInt64>)
    func residualIsTheEdgesWhoseRunsDoNotCancel(seed: UInt64) {
        let (triangles, vertexCount, signs) = scene(seed: seed)
        let topology = SortTopology(triangles: triangles, vertexCount: vertexCount)
        #expect(topology.matches(triangles: triangles, vertexCount: vertexCount))
        let expected = definition(triangles, signs: signs)
        let fromTopology = signs.withUnsafeBufferPointer { topology.residual(signs: $0) }
        #expect(multiset(fromTopology) == expected)
        // And the sort's own bucket pass agrees (a degenerate triangle, never with a sign in a sort,
        // is left out of this comparison: there its sign is forced to 0).
        var sortSigns = signs
        for (t, v) in triangles.enumerated() where v.x == v.y || v.y == v.z || v.z == v.x { sortSigns[t] = 0 }
        let chain = triangles.withUnsafeBufferPointer { tris in
            sortSigns.withUnsafeBufferPointer { g in OverlapCandidates.residualChain(vertexCount: vertexCount, triangles: tris, signs: g) }
        }
        let again = sortSigns.withUnsafeBufferPointer { topology.residual(signs: $0) }
        #expect(chain.map(multiset) == multiset(again))
        #expect(multiset(again) == definition(triangles, signs: sortSigns))
    }

    @Test func aGridFlatOnScreenHasItsBorderAsR() {
        // 4 × 3 quads, all counterclockwise: R is the 14 border edges with count ±1, no inner edge.
        let w = 5, h = 4
        var triangles: [SIMD3<Int32>] = []
        for y in 0..<(h - 1) {
            for x in 0..<(w - 1) {
                let a = Int32(y * w + x), b = a + 1, c = a + Int32(w), d = c + 1
                triangles += [SIMD3(a, b, d), SIMD3(a, d, c)]
            }
        }
        let topology = SortTopology(triangles: triangles, vertexCount: w * h)
        let residual = [Int8](repeating: 1, count: triangles.count).withUnsafeBufferPointer { topology.residual(signs: $0) }
        #expect(residual.count == 2 * (w - 1) + 2 * (h - 1))
        for r in residual {
            let (ya, xa, yb, xb) = (Int(r.a) / w, Int(r.a) % w, Int(r.b) / w, Int(r.b) % w)
            #expect(ya == yb && (ya == 0 || ya == h - 1) || xa == xb && (xa == 0 || xa == w - 1), "a border edge")
            #expect(abs(r.weight) == 1)
        }
        // Turned over (every sign −1) R is the same edges run the other way.
        let flipped = [Int8](repeating: -1, count: triangles.count).withUnsafeBufferPointer { topology.residual(signs: $0) }
        #expect(multiset(flipped) == multiset(residual.map { ($0.a, $0.b, -$0.weight) }))
    }

    @Test func aSortWithThePairingGivesTheSameMesh() throws {
        // The folded ripple (a fold along every crest) at steps 1 and 2, sorted with and without the
        // pairing: the same triangles in the same order, and the same statistics.
        for steps in 1...2 {
            let (mesh, geometry) = try S.foldedRipple(steps: steps)
            let topology = SortTopology(mesh: mesh)
            let (plain, plainStats) = try PainterSorter.sorted(mesh: mesh, geometry: geometry, mode: .exact, space: .points)
            let (paired, pairedStats) = try PainterSorter.sorted(
                mesh: mesh, geometry: geometry, mode: .exact, space: .points, topology: topology)
            #expect(plainStats.depthRanked && pairedStats.depthRanked)
            #expect(paired == plain)
            #expect(pairedStats.overlappingPairs == plainStats.overlappingPairs)
        }
    }

    @Test func aPairingOfOtherTrianglesOrAClippedSceneIsNotUsed() throws {
        let (mesh, geometry) = try S.foldedRipple(steps: 1)
        var other = mesh
        other.triangles.swapAt(0, 1)
        other.triangles[0] = SIMD3(other.triangles[0].y, other.triangles[0].x, other.triangles[0].z)
        let wrong = SortTopology(mesh: other)
        #expect(!wrong.matches(triangles: mesh.triangles, vertexCount: mesh.vertexCount))
        #expect(!SortTopology(mesh: mesh).matches(triangles: mesh.triangles, vertexCount: mesh.vertexCount + 1))
        let (plain, _) = try PainterSorter.sorted(mesh: mesh, geometry: geometry, mode: .exact, space: .points)
        let (withWrong, _) = try PainterSorter.sorted(mesh: mesh, geometry: geometry, mode: .exact, space: .points, topology: wrong)
        #expect(withWrong == plain)
        // The sheets with the eye at z = 20 are cut at the eye: new triangles, so the pairing of the
        // uncut mesh cannot apply, and the result is the sort without it.
        let (sheets, sheetGeometry) = S.intersectingSheets()
        var near = sheetGeometry
        near.transform.m34 = -1.0 / 20
        let (cut, _) = try PainterSorter.sorted(mesh: sheets, geometry: near, mode: .exact, space: .points)
        let (cutPaired, _) = try PainterSorter.sorted(
            mesh: sheets, geometry: near, mode: .exact, space: .points, topology: SortTopology(mesh: sheets))
        #expect(cut.triangleCount > sheets.triangleCount - 1)
        #expect(cutPaired == cut)
    }
}
