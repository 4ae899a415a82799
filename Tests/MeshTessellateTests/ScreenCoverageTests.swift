import SurfaceKit
import Testing

@testable import MeshTessellate

// OverlapCandidates.candidateList screens out the triangles that overlap no other on screen. It must
// be conservative: every triangle of a pair whose screen interiors share positive area (found here
// by clipping every pair, ScreenBruteForce) is in the list, which is ascending, without repeats
// and without triangles of no screen area. It must also screen: by its own maths, a triangle that
// the residual chain R (the edges whose screen-counterclockwise runs do not cancel, computed here
// with a dictionary) passes nowhere near, and whose centroid only it covers (counted here over all
// triangles), overlaps nothing and is left out. Scenes: grids with holes, flat and folded over
// themselves, disjoint components, non-manifold edges, fans and duplicates, and random soups.

@Suite struct OverlapCandidatesTests {
    typealias B = ScreenBruteForce

    struct Scene {
        var screen: [Point3D] = []
        var triangles: [SIMD3<Int32>] = []

        /// Appends a triangle with its corners in a random rotation, listed either way round (the
        /// screen orientation comes from the positions, not the listing).
        mutating func add(_ a: Int32, _ b: Int32, _ c: Int32, random: inout TessSupport.Random) {
            var v = [a, b, c]
            if Bool.random(using: &random) { v.reverse() }
            let r = Int.random(in: 0..<3, using: &random)
            triangles.append(SIMD3(v[r], v[(r + 1) % 3], v[(r + 2) % 3]))
        }

        mutating func vertex(_ p: Point3D) -> Int32 {
            screen.append(p)
            return Int32(screen.count - 1)
        }
    }

    /// What one check found: the list (nil when the function gave up), the triangles the brute
    /// force requires, and those that the function's maths guarantees to leave out.
    struct Report {
        var list: [Int32]?
        var required = 0
        var guaranteedOut = 0
    }

    // MARK: The check

    /// Checks the candidate list of `scene` against the brute force; `label` names the scene.
    @discardableResult
    private func check(_ scene: Scene, _ label: String) -> Report {
        let n = scene.triangles.count
        let signs = B.signs(screen: scene.screen, triangles: scene.triangles)
        let small = signs.map { Int8($0) }
        var lo = SIMD2<Double>(.infinity, .infinity), hi = -lo
        for (t, v) in scene.triangles.enumerated() where signs[t] != 0 {
            for p in [scene.screen[Int(v.x)], scene.screen[Int(v.y)], scene.screen[Int(v.z)]] {
                lo = SIMD2(min(lo.x, p.x), min(lo.y, p.y))
                hi = SIMD2(max(hi.x, p.x), max(hi.y, p.y))
            }
        }
        let extent = max(hi.x - lo.x, hi.y - lo.y)
        let list = scene.screen.withUnsafeBufferPointer { s in
            scene.triangles.withUnsafeBufferPointer { t in
                small.withUnsafeBufferPointer { g in OverlapCandidates.candidateList(screen: s, triangles: t, signs: g, scale: nil) }
            }
        }
        guard let list else { return Report(list: nil) }

        #expect(zip(list, list.dropFirst()).allSatisfy { $0 < $1 }, "\(label): ascending, no repeats")
        #expect(list.allSatisfy { $0 >= 0 && Int($0) < n }, "\(label): indices in range")
        #expect(list.allSatisfy { $0 >= 0 && Int($0) < n && signs[Int($0)] != 0 }, "\(label): no triangle without area")
        let inList = Set(list.map { Int($0) })

        // Conservative: both triangles of every overlapping pair.
        let (pairs, _) = B.overlaps(screen: scene.screen, triangles: scene.triangles)
        var required = Set<Int>()
        for p in pairs {
            required.insert(p.first)
            required.insert(p.second)
        }
        let missing = required.subtracting(inList).sorted()
        #expect(missing.isEmpty, "\(label): overlapping triangles left out: \(missing.prefix(20))")

        // Screening: untouched by R and covered once at the centroid → left out.
        let out = guaranteedOut(scene, signs: signs, extent: extent)
        let kept = out.filter { inList.contains($0) }
        #expect(kept.isEmpty, "\(label): triangles that overlap nothing but are kept: \(kept.prefix(20))")
        #expect(out.allSatisfy { !required.contains($0) }, "\(label): the reference contradicts itself")
        return Report(list: list, required: required.count, guaranteedOut: out.count)
    }

    /// R: each edge (by vertex indices) whose runs, every triangle with area run counterclockwise
    /// on screen, do not cancel.
    private func residualChain(_ scene: Scene, signs: [Double]) -> [SIMD2<Int32>] {
        var net: [SIMD2<Int32>: Int] = [:]
        for (t, v) in scene.triangles.enumerated() where signs[t] != 0 {
            let runs = signs[t] > 0 ? [(v.x, v.y), (v.y, v.z), (v.z, v.x)] : [(v.x, v.z), (v.z, v.y), (v.y, v.x)]
            for (from, to) in runs { net[SIMD2(min(from, to), max(from, to)), default: 0] += from < to ? 1 : -1 }
        }
        return net.filter { $0.value != 0 }.keys.sorted { ($0.x, $0.y) < ($1.x, $1.y) }
    }

    /// The triangles with area that no segment of R comes within 10⁻⁶ × the extent of (their own
    /// edges aside) and whose centroid no other triangle covers (clearly in or out of each, by more
    /// than 10⁻⁹ × the extent): the cover count is constant off R, so such a triangle overlaps
    /// nothing, and the function's own test (separating lines, orientations within 10⁻¹² ×
    /// extent² of zero counting as touching) finds it untouched and covered once, and leaves it out.
    private func guaranteedOut(_ scene: Scene, signs: [Double], extent: Double) -> [Int] {
        let chain = residualChain(scene, signs: signs)
        let near = 1e-6 * extent, edge = 1e-9 * extent
        let flat = scene.triangles.indices.map { t -> B.Polygon in
            signs[t] == 0 ? [] : B.corners(scene.screen, scene.triangles[t], sign: signs[t]).map { SIMD2($0.x, $0.y) }
        }
        // Boxes (least x and y, greatest x and y), only to skip what is clearly far.
        let boxes = flat.map { c -> SIMD4<Double> in
            c.isEmpty
                ? SIMD4(repeating: .nan)
                : SIMD4(min(c[0].x, c[1].x, c[2].x), min(c[0].y, c[1].y, c[2].y), max(c[0].x, c[1].x, c[2].x), max(c[0].y, c[1].y, c[2].y))
        }
        var result: [Int] = []
        triangles: for (t, v) in scene.triangles.enumerated() where signs[t] != 0 {
            let c = flat[t], box = boxes[t]
            let own = Set([v.x, v.y, v.z])
            for s in chain where !(own.contains(s.x) && own.contains(s.y)) {
                let p = scene.screen[Int(s.x)], q = scene.screen[Int(s.y)]
                if min(p.x, q.x) > box.z + near || max(p.x, q.x) < box.x - near || min(p.y, q.y) > box.w + near
                    || max(p.y, q.y) < box.y - near
                {
                    continue
                }
                if distance(SIMD2(p.x, p.y), SIMD2(q.x, q.y), c) <= near { continue triangles }
            }
            let centre = (c[0] + c[1] + c[2]) / 3
            var cover = 0
            for u in scene.triangles.indices where signs[u] != 0 {
                let b = boxes[u]
                if centre.x < b.x - near || centre.x > b.z + near || centre.y < b.y - near || centre.y > b.w + near { continue }
                let d = flat[u]
                var inside = Double.infinity
                for k in 0..<3 {
                    let e0 = d[k], e1 = d[(k + 1) % 3], e = e1 - e0
                    inside = min(inside, B.cross(e0, e1, centre) / (e * e).sum().squareRoot())
                }
                if abs(inside) <= edge { continue triangles }
                if inside > 0 { cover += 1 }
            }
            if cover == 1 { result.append(t) }
        }
        return result
    }

    private func pointToSegment(_ p: SIMD2<Double>, _ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
        let d = b - a, length2 = (d * d).sum()
        let t = length2 > 0 ? max(0, min(1, ((p - a) * d).sum() / length2)) : 0
        let e = p - (a + t * d)
        return (e * e).sum().squareRoot()
    }

    /// The distance between segment p q and the closed counterclockwise triangle `c` (0 when they
    /// meet, or when the segments are collinear: the callers only need a lower bound on touching).
    private func distance(_ p: SIMD2<Double>, _ q: SIMD2<Double>, _ c: B.Polygon) -> Double {
        func inside(_ x: SIMD2<Double>) -> Bool { (0..<3).allSatisfy { B.cross(c[$0], c[($0 + 1) % 3], x) >= 0 } }
        if inside(p) || inside(q) { return 0 }
        var best = Double.infinity
        for k in 0..<3 {
            let a = c[k], b = c[(k + 1) % 3]
            let o1 = B.cross(p, q, a), o2 = B.cross(p, q, b), o3 = B.cross(a, b, p), o4 = B.cross(a, b, q)
            if o1 * o2 <= 0 && o3 * o4 <= 0 { return 0 }
            best = min(best, pointToSegment(a, p, q), pointToSegment(b, p, q), pointToSegment(p, a, b), pointToSegment(q, a, b))
        }
        return best
    }

    // MARK: Scenes

    /// An n × n grid over the unit square, inner corners jittered by up to `jitter` cells, each
    /// quad cut along a random diagonal, the quads in `holes` (column, row) left out, placed on
    /// screen by `place`.
    private func grid(
        n: Int, jitter: Double, holes: Set<SIMD2<Int>>, random: inout TessSupport.Random, into scene: inout Scene,
        place: (SIMD2<Double>) -> Point3D
    ) {
        let base = Int32(scene.screen.count)
        for i in 0...n {
            for j in 0...n {
                var u = SIMD2(Double(j), Double(i))
                if i > 0 && i < n && j > 0 && j < n {
                    u += SIMD2(random.uniform(-jitter...jitter), random.uniform(-jitter...jitter))
                }
                _ = scene.vertex(place(u / Double(n)))
            }
        }
        for i in 0..<n {
            for j in 0..<n where !holes.contains(SIMD2(j, i)) {
                let v0 = base + Int32(i * (n + 1) + j), v1 = v0 + 1, v3 = v0 + Int32(n + 1), v2 = v3 + 1
                if Bool.random(using: &random) {
                    scene.add(v0, v1, v2, random: &random)
                    scene.add(v0, v2, v3, random: &random)
                } else {
                    scene.add(v0, v1, v3, random: &random)
                    scene.add(v1, v2, v3, random: &random)
                }
            }
        }
    }

    /// A rectangular block of quads and a few single ones, for a grid of n × n quads.
    private func holes(n: Int, random: inout TessSupport.Random) -> Set<SIMD2<Int>> {
        var holes = Set<SIMD2<Int>>()
        let x0 = Int.random(in: 1..<(n / 2), using: &random), y0 = Int.random(in: 1..<(n / 2), using: &random)
        for x in x0..<(x0 + n / 4) { for y in y0..<(y0 + n / 3) { holes.insert(SIMD2(x, y)) } }
        for _ in 0..<(n / 2) { holes.insert(SIMD2(Int.random(in: 0..<n, using: &random), Int.random(in: 0..<n, using: &random))) }
        return holes
    }

    /// x mapped through x + a sin(2π k x): folded over itself where 2π k a cos(…) < −1.
    private func fold(_ u: SIMD2<Double>, amplitude a: Double, waves k: Double) -> Point3D {
        let x = u.x + a * Double.sin(2 * .pi * k * u.x)
        return Point3D(100 * x, 100 * u.y, 10 * Double.sin(3 * u.x) + 5 * u.y)
    }

    private let seeds: [UInt64] = [1, 2, 3, 0x5c0f, 0xc0_7e4a, 0xdead_beef]

    // MARK: (a) Grids with holes

    @Test func flatGridsWithHolesHaveNoCandidates() {
        // Unfolded and seen from one side: every interior edge cancels, R is the border and the
        // holes' rims, the cover count is 1 wherever anything is, and a border segment at a corner
        // of a triangle leaves it outside its angle, so no triangle is kept.
        for seed in seeds {
            var random = TessSupport.Random(seed: seed)
            let n = 24
            var scene = Scene()
            let h = holes(n: n, random: &random)
            let tilt = random.uniform(-0.4...0.4)
            grid(n: n, jitter: 0.2, holes: h, random: &random, into: &scene) { u in
                Point3D(100 * u.x + 20 * tilt * u.y, 100 * u.y, 5 * Double.sin(7 * u.x + 3 * u.y))
            }
            #expect(B.overlaps(screen: scene.screen, triangles: scene.triangles).pairs.isEmpty, "seed \(seed): the scene is flat")
            let report = check(scene, "flat grid with holes, seed \(seed)")
            #expect(report.list == [], "seed \(seed)")
            #expect(report.guaranteedOut > scene.triangles.count / 2, "seed \(seed): most triangles are far from the rims")
        }
    }

    @Test func foldedGridsWithHolesKeepEveryOverlappingTriangle() {
        for seed in seeds {
            var random = TessSupport.Random(seed: seed)
            let n = 30
            var scene = Scene()
            let h = holes(n: n, random: &random)
            let amplitude = random.uniform(0.12...0.2)
            grid(n: n, jitter: 0.25, holes: h, random: &random, into: &scene) { fold($0, amplitude: amplitude, waves: 1.5) }
            let report = check(scene, "folded grid with holes, seed \(seed)")
            #expect(report.list != nil && report.required > 100 && report.guaranteedOut > 100, "seed \(seed)")
        }
    }

    // MARK: (b) Disjoint components

    @Test func disjointComponentsKeepEveryOverlappingTriangle() {
        for seed in seeds {
            var random = TessSupport.Random(seed: seed)
            var scene = Scene()
            for k in 0..<8 {
                // The first two near each other (they overlap), the rest anywhere.
                let centre = k < 2 ? SIMD2(50 + 4 * Double(k), 50) : SIMD2(random.uniform(0...100), random.uniform(0...100))
                let size = random.uniform(8...30), angle = random.uniform(0...(2 * .pi))
                let mirror: Double = Bool.random(using: &random) ? -1 : 1
                let depth = random.uniform(-20...20)
                let (cosine, sine) = (Double.cos(angle), Double.sin(angle))
                grid(n: Int.random(in: 6...10, using: &random), jitter: 0.2, holes: [], random: &random, into: &scene) { u in
                    let local = size * SIMD2(mirror * (u.x - 0.5), u.y - 0.5)
                    let p = centre + SIMD2(cosine * local.x - sine * local.y, sine * local.x + cosine * local.y)
                    return Point3D(p.x, p.y, depth + u.x)
                }
            }
            // One far from the rest, which overlaps nothing.
            grid(n: 5, jitter: 0.2, holes: [], random: &random, into: &scene) { Point3D(300 + 20 * $0.x, 300 + 20 * $0.y, 0) }
            let report = check(scene, "disjoint components, seed \(seed)")
            #expect(report.list != nil && report.required > 0 && report.guaranteedOut > 0, "seed \(seed)")
        }
    }

    // MARK: (c) Grids folded over themselves

    @Test func foldedGridsKeepEveryOverlappingTriangle() {
        for seed in seeds {
            var random = TessSupport.Random(seed: seed)
            var scene = Scene()
            let amplitude = random.uniform(0.1...0.3), waves = random.uniform(1...3)
            grid(n: 40, jitter: 0.3, holes: [], random: &random, into: &scene) { fold($0, amplitude: amplitude, waves: waves) }
            let report = check(scene, "folded grid, seed \(seed)")
            #expect(report.list != nil && report.required > 100, "seed \(seed)")
        }
    }

    @Test func aSheetFoldedOntoItselfAlongOneEdgeIsKept() {
        // Two rows of quads sharing the line y = 50, the second row mirrored onto the first
        // (every third corner on the same side of the shared edges): all of them overlap.
        var random = TessSupport.Random(seed: 7)
        var scene = Scene()
        grid(n: 10, jitter: 0, holes: [], random: &random, into: &scene) { u in
            Point3D(10 + 80 * u.x, 50 - 40 * abs(u.y - 0.5), u.y)
        }
        let report = check(scene, "sheet folded along a line")
        #expect(report.list?.count == scene.triangles.count)
        #expect(report.required == scene.triangles.count)
    }

    // MARK: (d) Non-manifold edges, fans and duplicates

    @Test func nonManifoldEdgesFansAndDuplicatesKeepEveryOverlappingTriangle() {
        for seed in seeds {
            var random = TessSupport.Random(seed: seed)
            var scene = Scene()
            let n = 12
            grid(n: n, jitter: 0, holes: [], random: &random, into: &scene) { Point3D(60 * $0.x, 60 * $0.y, $0.x) }
            let base = scene.triangles
            func point(_ v: Int32) -> Point3D { scene.screen[Int(v)] }
            // Edges shared by three or four triangles: one or two more on either side.
            for _ in 0..<3 {
                let t = base[Int.random(in: 0..<base.count, using: &random)]
                let (u, v) = (t.x, t.y)
                let middle = (point(u) + point(v)) / 2, along = point(v) - point(u)
                for _ in 0..<Int.random(in: 1...2, using: &random) {
                    let side = random.uniform(0.3...1.5) * (Bool.random(using: &random) ? 1 : -1)
                    let w = scene.vertex(middle + side * Point3D(-along.y, along.x, 0) + Point3D(0, 0, random.uniform(-1...1)))
                    scene.add(u, v, w, random: &random)
                }
            }
            // A fan of triangles round one corner, turning past each other.
            let centre = base[Int.random(in: 0..<base.count, using: &random)].x
            var angle = random.uniform(0...(2 * .pi))
            var previous = scene.vertex(point(centre) + 6 * Point3D(Double.cos(angle), Double.sin(angle), 0.1))
            for _ in 0..<6 {
                angle += random.uniform(0.5...2.5)
                let next = scene.vertex(point(centre) + random.uniform(3...9) * Point3D(Double.cos(angle), Double.sin(angle), 0.1))
                scene.add(centre, previous, next, random: &random)
                previous = next
            }
            // The same triangle twice (the same indices), and the same positions under new indices.
            for _ in 0..<2 {
                let t = base[Int.random(in: 0..<base.count, using: &random)]
                scene.add(t.x, t.y, t.z, random: &random)
            }
            for _ in 0..<2 {
                let t = base[Int.random(in: 0..<base.count, using: &random)]
                let copies = [t.x, t.y, t.z].map { scene.vertex(point($0)) }
                scene.add(copies[0], copies[1], copies[2], random: &random)
            }
            // No area: a repeated corner, three corners on one grid line, corners not finite.
            let t = base[Int.random(in: 0..<base.count, using: &random)]
            scene.add(t.x, t.x, t.y, random: &random)
            let row = Int32(Int.random(in: 0...n, using: &random) * (n + 1))
            scene.add(row, row + 3, row + 7, random: &random)
            let nan = scene.vertex(Point3D(.nan, .nan, 0)), far = scene.vertex(Point3D(.infinity, 5, 0))
            scene.add(t.y, t.z, nan, random: &random)
            scene.add(t.y, t.z, far, random: &random)
            let deep = scene.vertex(Point3D(point(t.x).x + 1, point(t.x).y + 1, .nan))
            scene.add(t.y, t.z, deep, random: &random)
            let report = check(scene, "non-manifold, seed \(seed)")
            #expect(report.list != nil && report.required > 6 && report.guaranteedOut > 50, "seed \(seed)")
        }
    }

    // MARK: (e) Soups

    @Test func randomSoupsKeepEveryOverlappingTriangle() {
        var answered = 0
        for seed in 0..<UInt64(24) {
            var random = TessSupport.Random(seed: 0x50_0900 + seed)
            var scene = Scene()
            for _ in 0..<Int.random(in: 4...20, using: &random) {
                let centre = Point3D(random.uniform(0...100), random.uniform(0...100), random.uniform(-10...10))
                let a = scene.vertex(centre + Point3D(random.uniform(-15...15), random.uniform(-15...15), random.uniform(-3...3)))
                let b = scene.vertex(centre + Point3D(random.uniform(-15...15), random.uniform(-15...15), random.uniform(-3...3)))
                let c = scene.vertex(centre + Point3D(random.uniform(-15...15), random.uniform(-15...15), random.uniform(-3...3)))
                scene.add(a, b, c, random: &random)
            }
            if check(scene, "soup, seed \(seed)").list != nil { answered += 1 }
        }
        #expect(answered > 12, "small soups leave a short enough R")
    }

    @Test func soupsOverAGridKeepEveryOverlappingTriangle() {
        for seed in seeds {
            var random = TessSupport.Random(seed: seed)
            var scene = Scene()
            grid(n: 30, jitter: 0.25, holes: holes(n: 30, random: &random), random: &random, into: &scene) {
                Point3D(100 * $0.x, 100 * $0.y, 0)
            }
            for _ in 0..<80 {
                let centre = Point3D(random.uniform(-5...105), random.uniform(-5...105), random.uniform(-1...1))
                let corners = (0..<3).map { _ in
                    scene.vertex(centre + Point3D(random.uniform(-3...3), random.uniform(-3...3), random.uniform(-1...1)))
                }
                scene.add(corners[0], corners[1], corners[2], random: &random)
            }
            let report = check(scene, "soup over a grid, seed \(seed)")
            #expect(report.list != nil && report.required > 80 && report.guaranteedOut > 100, "seed \(seed)")
        }
    }
}
