import SurfaceKit
import Testing

@testable import MeshTessellate

// The exact order kept across edits (KeptExactOrder): after every edit its order is checked
// against a reference written in the tests, every pair of triangles whose screen images overlap
// (found by clipping every pair against each other, ScreenBruteForce), with the screen points
// projected here (SortSupport.project). Ripples, tilted sheets and small triangles moved across
// them, and the paths where the update declines.

@Suite struct KeptExactOrderTests {
    typealias S = SortSupport

    /// What the tests' own pair check found: overlapping pairs, pairs drawn front first, pairs
    /// that cross in depth inside their overlap (no whole order draws those right).
    struct PairCheck {
        var pairs = 0
        var broken = 0
        var crossing = 0
    }

    /// Every overlapping pair of `mesh` on `geometry`'s layer against `order`.
    static func check(_ order: [Int32], mesh: TriangleMesh, geometry: LayerGeometry) -> PairCheck {
        let screen = mesh.positions.map { S.project($0, geometry: geometry).0 }
        var place = [Int](repeating: -1, count: mesh.triangleCount)
        for (k, t) in order.enumerated() { place[Int(t)] = k }
        var result = PairCheck()
        guard order.count == mesh.triangleCount, !place.contains(-1) else {
            result.broken = -1
            return result
        }
        let (pairs, _) = ScreenBruteForce.overlaps(screen: screen, triangles: mesh.triangles)
        let signs = ScreenBruteForce.signs(screen: screen, triangles: mesh.triangles)
        let tolerance = 1e-9 * max(1, screen.reduce(0) { max($0, $1.z.isFinite ? abs($1.z) : 0) })
        result.pairs = pairs.count
        for pair in pairs {
            let (earlier, later) = place[pair.first] < place[pair.second] ? (pair.first, pair.second) : (pair.second, pair.first)
            let back = ScreenBruteForce.corners(screen, mesh.triangles[earlier], sign: signs[earlier])
            let front = ScreenBruteForce.corners(screen, mesh.triangles[later], sign: signs[later])
            // How far the later one is in front: affine over the overlap, so its extremes are at
            // the overlap's corners.
            func lead(_ q: SIMD2<Double>) -> Double { ScreenBruteForce.depth(at: q, front) - ScreenBruteForce.depth(at: q, back) }
            let atCorners = pair.region.map(lead)
            if (atCorners.max() ?? 0) > tolerance && (atCorners.min() ?? 0) < -tolerance {
                result.crossing += 1
                continue
            }
            let centre = pair.region.reduce(SIMD2<Double>.zero, +) / Double(pair.region.count)
            let samples = [centre] + pair.region.map { centre + 0.9 * ($0 - centre) }
            if samples.contains(where: { lead($0) < -tolerance }) { result.broken += 1 }
        }
        return result
    }

    /// The edit from `old` to `new` (same triangles): the vertices whose position moved and the
    /// triangles with such a corner.
    static func edit(from old: TriangleMesh, to new: TriangleMesh) -> TessellationEdit {
        let moved = new.positions.indices.filter { new.positions[$0] != old.positions[$0] }
        let set = Set(moved.map { Int32($0) })
        let triangles = new.triangles.indices.filter { t in
            let c = new.triangles[t]
            return set.contains(c.x) || set.contains(c.y) || set.contains(c.z)
        }
        return TessellationEdit(vertices: moved, triangles: triangles)
    }

    /// A ripple of n × n faces on a unit layer, z = amplitude·sin(2π·4·r), turned `angle` about x
    /// with m34 = −1/2 (the live view's benchmark ripple at n = 50, amplitude 0.05, angle −45°).
    static func ripple(n: Int, amplitude: Double, angle: Double) throws -> MeshDocument {
        let grid = try MeshTransform.identity(rows: n, columns: n)
        let mesh = try grid.mappingVertices { v, _ in
            let r = ((v.from.x - 0.5) * (v.from.x - 0.5) + (v.from.y - 0.5) * (v.from.y - 0.5)).squareRoot()
            return MeshVertex(from: v.from, to: Point3D(v.to.x, v.to.y, amplitude * Double.sin(2 * Double.pi * 4 * r)))
        }
        var transform = Transform3D.rotation(angle: angle, axis: SIMD3(1, 0, 0))
        transform.m34 = -0.5
        return MeshDocument(mesh: mesh, layer: LayerProperties(size: SIMD2(1, 1), transform: transform))
    }

    @Test func rippleEditsKeepEveryOverlappingPair() throws {
        // Random moves of random control vertices of folded ripples, through the tessellator's own
        // edit path: every order kept must draw every overlapping pair back first.
        var random = TessSupport.Random(seed: 0x26_2026)
        var kept = 0, declined = 0, windows = 0, pairs = 0
        for (n, amplitude, angle) in [(10, 0.05, -Double.pi / 4), (8, 0.08, -1.2)] {
            var document = try Self.ripple(n: n, amplitude: amplitude, angle: angle)
            var options = TessellationOptions(steps: .fixed(2))
            options.diagonal = .shortest
            let tessellator = try Tessellator(mesh: document.mesh, options: options)
            var tessellation: KeptTessellation?
            _ = try tessellator.tessellate(document.mesh, geometry: document.geometry, space: .points, keeping: &tessellation)
            var mesh = try #require(tessellation?.mesh)
            var order = try #require(try KeptExactOrder(mesh: mesh, geometry: document.geometry))
            for _ in 0..<12 {
                let i = Int.random(in: 0..<document.mesh.vertices.count, using: &random)
                var v = document.mesh.vertices[i]
                v.to.z += Double.random(in: -2 * amplitude...2 * amplitude, using: &random)
                if Bool.random(using: &random) { v.to.y += Double.random(in: -0.1...0.1, using: &random) }
                try document.mesh.replaceVertex(at: i, with: v)
                let edit = try #require(
                    try tessellator.tessellate(document.mesh, geometry: document.geometry, space: .points, keeping: &tessellation))
                mesh = try #require(tessellation?.mesh)
                switch try order.update(mesh: mesh, edit: edit, geometry: document.geometry) {
                case .success(let update):
                    kept += 1
                    windows += update.windows
                    let result = Self.check(order.order, mesh: mesh, geometry: document.geometry)
                    #expect(result.broken == 0 && result.crossing == 0, "\(result)")
                    pairs += result.pairs
                    // The kept screen points are the sort's own, bit for bit.
                    let pool = try SortPool(clipping: mesh, geometry: document.geometry)
                    #expect(pool.screen == order.screen)
                case .failure:
                    declined += 1
                    order = try #require(try KeptExactOrder(mesh: mesh, geometry: document.geometry))
                }
            }
        }
        #expect(kept >= 18, "most edits are kept (\(declined) declined)")
        #expect(pairs > 1_000, "edits among overlapping triangles (\(windows) windows, \(pairs) pairs)")
    }

    /// Three tilted sheets 10 apart in depth over the same square, and a small triangle (the last
    /// three vertices) between the two farther ones.
    static func sheets() -> (TriangleMesh, LayerGeometry) {
        var mesh = S.emptyPoints()
        for (face, z) in [0.0, 10, 20].enumerated() {
            S.appendSheet(to: &mesh, n: 6, x: 10...90, y: 10...90, face: Int32(face), normal: SIMD3(0, 0, 1)) { x, _ in z + 0.05 * x }
        }
        let base = Int32(mesh.positions.count)
        for p in [SIMD3(40.0, 40, 5), SIMD3(55, 42, 5), SIMD3(45, 56, 5)] {
            mesh.positions.append(p)
            mesh.from.append(LayerPoint(p.x / 100, p.y / 100))
            mesh.normals.append(SIMD3(0, 0, 1))
        }
        mesh.triangles.append(SIMD3(base, base + 1, base + 2))
        mesh.sourceFaces.append(3)
        var transform = Transform3D.rotation(angle: 0.4, axis: SIMD3(1, 1, 0))
        transform.m34 = -1.0 / 400
        return (mesh, S.geometry(size: 100, transform: transform))
    }

    @Test func aTriangleMovedAcrossSheetsIsDrawnBetweenThem() throws {
        // The small triangle moves to depths between and beyond the sheets, and across the
        // square: the window must carry it past the sheets it now lies in front of or behind.
        var (mesh, geometry) = Self.sheets()
        var order = try #require(try KeptExactOrder(mesh: mesh, geometry: geometry))
        var random = TessSupport.Random(seed: 0x5eed)
        let corners = (mesh.vertexCount - 3)..<mesh.vertexCount
        var kept = 0, windows = 0
        for _ in 0..<24 {
            let old = mesh
            let depths: [Double] = [-4, 6.5, 15.5, 27]
            let depth = depths[Int.random(in: 0..<depths.count, using: &random)]
            let shift = SIMD3(Double.random(in: -25...25, using: &random), Double.random(in: -25...25, using: &random), 0)
            for (k, v) in corners.enumerated() {
                let start = [SIMD3(40.0, 40, 0), SIMD3(55, 42, 0.5), SIMD3(45, 56, 1)][k]
                mesh.positions[v] = start + shift + SIMD3(0, 0, depth)
            }
            let edit = Self.edit(from: old, to: mesh)
            let update = try order.update(mesh: mesh, edit: edit, geometry: geometry)
            guard case .success(let done) = update else {
                Issue.record("declined: \(update)")
                order = try #require(try KeptExactOrder(mesh: mesh, geometry: geometry))
                continue
            }
            kept += 1
            windows += done.windows
            let result = Self.check(order.order, mesh: mesh, geometry: geometry)
            #expect(result.broken == 0 && result.crossing == 0 && result.pairs > 0, "\(result)")
            // Sorted again: at most the triangle and the sheets it moved across.
            let full = try #require(try PainterSorter.exactOrder(mesh: mesh, geometry: geometry))
            #expect(Set(full) == Set(order.order))
        }
        #expect(kept == 24)
        #expect(windows == 0, "the sheets are in depth order: the triangle fits between them")
    }

    @Test func aSlopedTriangleOverTwoTilesIsSortedWithAWindow() throws {
        // Two tiles side by side that do not overlap, the left one (depth 6) drawn after the right
        // one (depth 4) listed first. A sloped triangle moved over both, in front of the left tile and behind
        // the right one, must go after the left tile and before the right one: the kept order
        // has them the other way round, so the stretch between them is sorted again.
        var mesh = S.emptyPoints()
        // Listed right first: with no overlap the exact order is the listing.
        S.appendSheet(to: &mesh, n: 2, x: 52...90, y: 30...70, face: 1, normal: SIMD3(0, 0, 1)) { _, _ in 4 }
        S.appendSheet(to: &mesh, n: 2, x: 10...48, y: 30...70, face: 0, normal: SIMD3(0, 0, 1)) { _, _ in 6 }
        // Apart from everything: the window is a small share of the triangles.
        S.appendSheet(to: &mesh, n: 6, x: 10...90, y: 75...95, face: 3, normal: SIMD3(0, 0, 1)) { _, _ in 0 }
        let base = Int32(mesh.positions.count)
        for p in [SIMD3(20.0, 5, 0), SIMD3(30, 8, 0), SIMD3(25, 12, 0)] {
            mesh.positions.append(p)
            mesh.from.append(LayerPoint(p.x / 100, p.y / 100))
            mesh.normals.append(SIMD3(0, 0, 1))
        }
        mesh.triangles.append(SIMD3(base, base + 1, base + 2))
        mesh.sourceFaces.append(2)
        let geometry = S.flat
        var order = try #require(try KeptExactOrder(mesh: mesh, geometry: geometry))
        let old = mesh
        // Depth 21 − 0.8 (x − 30): above 6 over the left tile (x ≤ 48), below 4 over the right one.
        for (k, p) in [SIMD2(30.0, 40), SIMD2(70, 45), SIMD2(40, 60)].enumerated() {
            mesh.positions[Int(base) + k] = SIMD3(p.x, p.y, 21 - 0.8 * (p.x - 30))
        }
        let update = try order.update(mesh: mesh, edit: Self.edit(from: old, to: mesh), geometry: geometry)
        guard case .success(let done) = update else {
            Issue.record("declined: \(update)")
            return
        }
        #expect(done.windows == 1 && done.resorted <= 17)
        let result = Self.check(order.order, mesh: mesh, geometry: geometry)
        #expect(result.broken == 0 && result.crossing == 0 && result.pairs >= 2, "\(result)")
    }

    @Test func aVertexPushedThroughASheetDeclines() throws {
        // A corner of the small triangle pushed through the middle sheet: the triangle crosses
        // the sheet's triangles inside their overlap, which only splitting draws right.
        var (mesh, geometry) = Self.sheets()
        var order = try #require(try KeptExactOrder(mesh: mesh, geometry: geometry))
        let old = mesh
        mesh.positions[mesh.vertexCount - 1].z = 25
        let update = try order.update(mesh: mesh, edit: Self.edit(from: old, to: mesh), geometry: geometry)
        #expect(update == .failure(.needsSplitting))
        #expect(try PainterSorter.exactOrder(mesh: mesh, geometry: geometry) == nil, "the full sort splits too")
    }

    @Test func otherLayersClippedCornersAndLargeWindowsDecline() throws {
        let (start, geometry) = Self.sheets()
        // Another geometry.
        var order = try #require(try KeptExactOrder(mesh: start, geometry: geometry))
        var turned = geometry
        turned.transform = .rotation(angle: 0.2, axis: SIMD3(0, 1, 0))
        #expect(
            try order.update(mesh: start, edit: TessellationEdit(vertices: [], triangles: []), geometry: turned) == .failure(.otherMesh))
        // A corner behind the eye (the eye is 400 in front of the layer).
        order = try #require(try KeptExactOrder(mesh: start, geometry: geometry))
        var mesh = start
        mesh.positions[mesh.vertexCount - 1].z = 900
        #expect(try order.update(mesh: mesh, edit: Self.edit(from: start, to: mesh), geometry: geometry) == .failure(.clipped))
        // The whole nearest sheet moved to the back: every triangle is sorted again.
        order = try #require(try KeptExactOrder(mesh: start, geometry: geometry))
        mesh = start
        for v in 98..<147 { mesh.positions[v].z -= 40 }
        #expect(try order.update(mesh: mesh, edit: Self.edit(from: start, to: mesh), geometry: geometry) == .failure(.largeWindows))
    }

    @Test func theFirstOrderIsTheFullSortsAndItsMeshTheSortedMesh() throws {
        // Points space, nothing split: the sorted mesh is the tessellation's triangles in the order.
        let document = try Self.ripple(n: 6, amplitude: 0.08, angle: -1)
        let mesh = try Tessellator.tessellate(document, options: TessellationOptions(steps: .fixed(2)), space: .points)
        let order = try #require(try KeptExactOrder(mesh: mesh, geometry: document.geometry))
        #expect(order.order == (try PainterSorter.exactOrder(mesh: mesh, geometry: document.geometry)))
        let sorted = try PainterSorter.sorted(mesh: mesh, geometry: document.geometry, mode: .exact, space: .points).mesh
        #expect(sorted.triangles == order.order.map { mesh.triangles[Int($0)] })
        #expect(sorted.sourceFaces == order.order.map { mesh.sourceFaces[Int($0)] })
        #expect(sorted.positions == mesh.positions && sorted.normals == mesh.normals && sorted.from == mesh.from)
    }

    @Test func blocksKeepEveryGroupBetweenItsNeighbours() {
        // Random groups over an order of 60 places: every group's block must come after each
        // place behind it and before each place in front of it, and the windows must be disjoint.
        var random = TessSupport.Random(seed: 77)
        for _ in 0..<300 {
            let count = 60
            var groups: [EditBlocks.Group] = []
            for g in 0..<Int.random(in: 1...6, using: &random) {
                let behind = (0..<Int.random(in: 0...3, using: &random)).map { _ in Int.random(in: 0..<count, using: &random) }
                let front = (0..<Int.random(in: 0...3, using: &random)).map { _ in Int.random(in: 0..<count, using: &random) }
                groups.append(
                    EditBlocks.Group(
                        lo: front.min() ?? count, hi: behind.max() ?? -1, home: Int.random(in: 0..<count, using: &random),
                        members: [Int32(1000 + g)]))
            }
            let blocks = EditBlocks.plan(groups, count: count)
            // Where each old place and each group is drawn: blocks in order, old places between.
            var drawn: [Int: Double] = [:], member: [Int32: Double] = [:]
            for place in 0..<count { drawn[place] = Double(place) }
            var end = -1
            for block in blocks {
                #expect(block.start > end, "blocks are disjoint and ascending")
                if block.isWindow {
                    for place in block.start...block.end { drawn[place] = Double(block.start) }
                    for m in block.members { member[m] = Double(block.start) }
                    end = block.end
                } else {
                    for m in block.members { member[m] = Double(block.start) - 0.5 }
                    end = block.start - 1
                }
            }
            for (g, group) in groups.enumerated() {
                let at = member[Int32(1000 + g)] ?? .nan
                // Same block (a window) or the right side of it.
                if group.hi >= 0 { #expect((drawn[group.hi] ?? .nan) <= at) }
                if group.lo < count { #expect((drawn[group.lo] ?? .nan) >= at) }
                #expect(Set(blocks.flatMap(\.members)).count == groups.count)
            }
        }
    }
}
