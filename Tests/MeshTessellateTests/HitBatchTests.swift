import MeshTessellate
import SurfaceKit
import Testing

// The compact first-hit API (`firstHit`, `firstHits`, `rayHit(_:of:)`) against a loop over every
// triangle, on random triangle soups and tessellations, with misses, finite intervals, rays along
// the axes and rays through shared edges and vertices, where several triangles are hit at exactly
// the same t and the lowest index must win.

@Suite struct HitBatchTests {
    /// The nearest hit over every triangle of `mesh`, each tested with the hierarchy's own
    /// per-triangle test (double-sided Möller–Trumbore with a barycentric slack of 1e-12, written
    /// out here in the same operation order, so t, u and v agree to the bit): t in `tmin…tmax`,
    /// and of equal t the lowest index. A difference from the hierarchy is then a triangle it
    /// skipped or a tie it settled otherwise.
    static func bruteFirstHit(_ mesh: TriangleMesh, _ ray: Ray) -> TriangleHit? {
        let slack = 1e-12
        let o = ray.origin, d = ray.direction
        func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { a.x * b.x + a.y * b.y + a.z * b.z }
        var best: TriangleHit? = nil
        for (index, tri) in mesh.triangles.enumerated() {
            let a = mesh.positions[Int(tri.x)]
            let e1 = mesh.positions[Int(tri.y)] - a, e2 = mesh.positions[Int(tri.z)] - a
            let p = HitSupport.cross(d, e2)
            let det = dot(e1, p)
            guard det != 0 else { continue }
            let invDet = 1 / det
            let s = o - a
            let u = dot(s, p) * invDet
            guard u >= -slack, u <= 1 + slack else { continue }
            let q = HitSupport.cross(s, e1)
            let v = dot(d, q) * invDet
            guard v >= -slack, u + v <= 1 + slack else { continue }
            let t = dot(e2, q) * invDet
            guard t >= ray.tmin, t <= ray.tmax, t.isFinite else { continue }
            // Strictly nearer only: triangles come in index order, so equal t keeps the lower.
            if t < best?.t ?? .infinity { best = TriangleHit(t: t, u: u, v: v, triangle: Int32(index)) }
        }
        return best
    }

    /// A mesh of the given triangles in points space (normals up, `from` the x and y).
    static func mesh(positions: [Point3D], triangles: [SIMD3<Int32>]) -> TriangleMesh {
        TriangleMesh(
            space: .points, positions: positions, from: positions.map { SIMD2($0.x, $0.y) },
            normals: positions.map { _ in SIMD3(0, 0, 1) }, triangles: triangles,
            sourceFaces: triangles.map { _ in 0 })
    }

    static let geometry = LayerGeometry(size: SIMD2(1, 1), depthScale: 1, anchor: SIMD2(0.5, 0.5), transform: .identity)

    /// `count` random triangles in the unit cube, of all sizes from slivers to the whole cube, some
    /// sharing an edge or a vertex with an earlier one and some exact duplicates (with a larger
    /// index) of one.
    static func soup(count: Int, seed: UInt64) -> TriangleMesh {
        var rng = HitSupport.Random(seed: seed)
        var positions: [Point3D] = []
        var triangles: [SIMD3<Int32>] = []
        func point() -> Point3D { SIMD3(rng.uniform(0...1), rng.uniform(0...1), rng.uniform(0...1)) }
        for k in 0..<count {
            let n = Int32(positions.count)
            switch k % 5 {
            case 1 where !triangles.isEmpty:
                // An edge of the previous triangle and a new vertex.
                let previous = triangles[triangles.count - 1]
                positions.append(point())
                triangles.append(SIMD3(previous.y, previous.x, n))
            case 2 where triangles.count > 3:
                triangles.append(triangles[Int(rng.uniform(0...0.999) * Double(triangles.count))])
            default:
                let centre = point(), size = [0.02, 0.2, 1.0][k % 3]
                for _ in 0..<3 { positions.append(centre + size * (point() - SIMD3(repeating: 0.5))) }
                triangles.append(SIMD3(n, n + 1, n + 2))
            }
        }
        return mesh(positions: positions, triangles: triangles)
    }

    /// Random rays around `bounds` (the unit cube by default): oblique, along the axes (two zero
    /// components), from vertices of the mesh (t = 0 hits) and through them, some with a finite
    /// interval, some pointing away from everything.
    static func rays(
        count: Int, through positions: [Point3D], around bounds: (min: Point3D, max: Point3D) = (.zero, .one), seed: UInt64
    ) -> [Ray] {
        var rng = HitSupport.Random(seed: seed)
        let size = bounds.max - bounds.min
        return (0..<count).map { k in
            let f = SIMD3(rng.uniform(-0.2...1.2), rng.uniform(-0.2...1.2), rng.uniform(-0.2...1.2))
            var origin = bounds.min + f * size
            var direction = SIMD3(rng.uniform(-1...1), rng.uniform(-1...1), rng.uniform(-1...1))
            switch k % 6 {
            case 0: direction = SIMD3(0, 0, k % 12 == 0 ? -1 : 1)
            case 1: direction = SIMD3(0, k % 12 == 1 ? 2 : -0.5, 0)
            case 2:
                // Through a vertex of the mesh.
                let p = positions[Int(rng.uniform(0...0.999) * Double(positions.count))]
                origin = p - 2 * direction
            case 3: origin = positions[Int(rng.uniform(0...0.999) * Double(positions.count))]
            default: break
            }
            var ray = Ray(origin: origin, direction: direction)
            if k % 5 == 0 {
                ray.tmin = rng.uniform(-1...1) * size.max()
                ray.tmax = ray.tmin + rng.uniform(0...2) * size.max()
            }
            if k % 17 == 0 { ray = Ray(origin: bounds.max + size, direction: SIMD3(1, 0.5, 0.25)) }
            return ray
        }
    }

    /// A hit checked by geometry of its own rather than by the same arithmetic: the point along the
    /// ray and the point the barycentric coordinates name coincide, and those coordinates are the
    /// ratios of sub-triangle areas to the triangle's area (so they lie in [0, 1] and sum to 1).
    static func checkHitGeometry(_ mesh: TriangleMesh, _ ray: Ray, _ hit: TriangleHit) {
        let tri = mesh.triangles[Int(hit.triangle)]
        let a = mesh.positions[Int(tri.x)], b = mesh.positions[Int(tri.y)], c = mesh.positions[Int(tri.z)]
        func length(_ v: SIMD3<Double>) -> Double { (v * v).sum().squareRoot() }
        func cross(_ p: SIMD3<Double>, _ q: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3(p.y * q.z - p.z * q.y, p.z * q.x - p.x * q.z, p.x * q.y - p.y * q.x)
        }
        let onRay = ray.origin + hit.t * ray.direction
        let named = a + hit.u * (b - a) + hit.v * (c - a)
        let size = max(length(b - a), length(c - a), length(onRay), 1)
        #expect(length(onRay - named) <= 1e-9 * size, "hit point off the triangle's plane point: \(onRay) vs \(named)")
        let area = length(cross(b - a, c - a))
        guard area > 1e-12 * size * size else { return }
        let u = length(cross(onRay - a, c - a)) / area, v = length(cross(b - a, onRay - a)) / area
        let w = length(cross(b - onRay, c - onRay)) / area
        #expect(abs(u - hit.u) <= 1e-7 && abs(v - hit.v) <= 1e-7, "barycentric \(hit.u), \(hit.v) vs areas \(u), \(v)")
        #expect(abs(u + v + w - 1) <= 1e-7, "the hit point lies outside the triangle")
    }

    /// The full record of a hit, checked against the brute force's triangle hit: nil for a
    /// miss, otherwise the same triangle and distance, the triangle's control face, and a position
    /// on the ray at that distance.
    static func checkRecord(_ record: RayHit?, _ mesh: TriangleMesh, _ ray: Ray, _ expected: TriangleHit?) {
        guard let expected else {
            #expect(record == nil, "\(ray): a record for a miss")
            return
        }
        guard let record else {
            Issue.record("\(ray): no record for a hit")
            return
        }
        #expect(record.triangle == Int(expected.triangle) && record.t == expected.t)
        #expect(record.face == Int(mesh.sourceFaces[record.triangle]))
        let onRay = ray.origin + expected.t * ray.direction
        let size = max(((onRay * onRay).sum()).squareRoot(), 1)
        #expect(((record.position - onRay) * (record.position - onRay)).sum().squareRoot() <= 1e-9 * size)
    }

    /// Every answer of the single and the batch call is the brute force's, and so is the full
    /// record ``HitTester/intersect(_:)-(Ray)`` makes.
    static func checkAgainstBruteForce(_ tester: HitTester, rays: [Ray]) -> (hits: Int, misses: Int) {
        let batch = tester.firstHits(rays)
        #expect(batch.count == rays.count)
        var hits = 0, misses = 0
        for (k, ray) in rays.enumerated() {
            let expected = bruteFirstHit(tester.mesh, ray)
            let single = tester.firstHit(ray)
            #expect(single == expected, "\(ray): \(String(describing: single)), brute force \(String(describing: expected))")
            #expect(batch[k] == expected, "\(ray): batch \(String(describing: batch[k])), brute force \(String(describing: expected))")
            checkRecord(tester.intersect(ray), tester.mesh, ray, expected)
            if let expected {
                hits += 1
                checkHitGeometry(tester.mesh, ray, expected)
            } else {
                misses += 1
            }
        }
        return (hits, misses)
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func soupMatchesBruteForce(seed: UInt64) throws {
        let mesh = Self.soup(count: 400, seed: seed)
        let tester = try HitTester(mesh: mesh, geometry: Self.geometry)
        let (hits, misses) = Self.checkAgainstBruteForce(tester, rays: Self.rays(count: 1500, through: mesh.positions, seed: seed))
        #expect(hits > 300 && misses > 100)
    }

    @Test(arguments: [1, 2])
    func tessellationMatchesBruteForce(steps: Int) throws {
        let tester = try HitTester(document: HitTestingBruteForceTests.document(steps: steps, depth: 0.4))
        let bounds = try #require(tester.mesh.bounds)
        // The rays of the other brute-force suite, plus ones through the tessellation's vertices.
        var rays = HitTestingBruteForceTests.rays(around: bounds, count: 600, seed: UInt64(10 + steps))
        rays += Self.rays(count: 600, through: tester.mesh.positions, around: bounds, seed: UInt64(20 + steps))
        let (hits, misses) = Self.checkAgainstBruteForce(tester, rays: rays)
        #expect(hits > 200 && misses > 100)
    }

    /// A flat grid of unit squares at z = 0, each split into two triangles, the triangles in a
    /// shuffled order: rays along −z through a vertex or the midpoint of an edge hit every triangle
    /// having that vertex (both ends of that edge) at exactly t = 1, and the lowest index of those
    /// must win, whatever the hierarchy's order. Found here from the grid's combinatorics, not by
    /// testing triangles.
    @Test func exactTiesGoToTheLowestIndex() throws {
        let n = 12
        var positions: [Point3D] = []
        for j in 0...n {
            for i in 0...n { positions.append(SIMD3(Double(i), Double(j), 0)) }
        }
        func vertex(_ i: Int, _ j: Int) -> Int32 { Int32(j * (n + 1) + i) }
        var triangles: [SIMD3<Int32>] = []
        for j in 0..<n {
            for i in 0..<n {
                let a = vertex(i, j), b = vertex(i + 1, j), c = vertex(i + 1, j + 1), d = vertex(i, j + 1)
                // Diagonals both ways, so vertices have 3 to 8 triangles around them.
                if (i + j) % 2 == 0 {
                    triangles += [SIMD3(a, b, c), SIMD3(a, c, d)]
                } else {
                    triangles += [SIMD3(a, b, d), SIMD3(b, c, d)]
                }
            }
        }
        var rng = HitSupport.Random(seed: 77)
        for k in stride(from: triangles.count - 1, to: 0, by: -1) {
            triangles.swapAt(k, Int(rng.uniform(0...0.999) * Double(k + 1)))
        }
        let tester = try HitTester(mesh: Self.mesh(positions: positions, triangles: triangles), geometry: Self.geometry)
        func lowest(having corners: [Int32]) -> Int32 {
            Int32(triangles.firstIndex { tri in corners.allSatisfy { tri.x == $0 || tri.y == $0 || tri.z == $0 } } ?? -1)
        }
        var rays: [Ray] = [], expected: [Int32] = []
        for j in 0...n {
            for i in 0...n {
                rays.append(Ray(origin: SIMD3(Double(i), Double(j), 1), direction: SIMD3(0, 0, -1)))
                expected.append(lowest(having: [vertex(i, j)]))
                if i < n {
                    rays.append(Ray(origin: SIMD3(Double(i) + 0.5, Double(j), 1), direction: SIMD3(0, 0, -1)))
                    expected.append(lowest(having: [vertex(i, j), vertex(i + 1, j)]))
                }
                if j < n {
                    rays.append(Ray(origin: SIMD3(Double(i), Double(j) + 0.5, 1), direction: SIMD3(0, 0, -1)))
                    expected.append(lowest(having: [vertex(i, j), vertex(i, j + 1)]))
                }
                if i < n, j < n {
                    // The square's diagonal.
                    let (p, q) = (i + j) % 2 == 0 ? (vertex(i, j), vertex(i + 1, j + 1)) : (vertex(i + 1, j), vertex(i, j + 1))
                    rays.append(Ray(origin: SIMD3(Double(i) + 0.5, Double(j) + 0.5, 1), direction: SIMD3(0, 0, -1)))
                    expected.append(lowest(having: [p, q]))
                }
            }
        }
        let batch = tester.firstHits(rays)
        for (k, ray) in rays.enumerated() {
            let hit = try #require(tester.firstHit(ray))
            #expect(hit.triangle == expected[k], "\(ray.origin): triangle \(hit.triangle), expected \(expected[k])")
            #expect(hit.t == 1)
            #expect(batch[k] == hit)
            #expect(tester.intersect(ray)?.triangle == Int(expected[k]))
        }
        // The same rays from below and tilted (ties need no axis-aligned ray): the same winners.
        for (k, ray) in rays.enumerated() {
            let up = Ray(origin: ray.origin - SIMD3(0, 0, 2), direction: SIMD3(0, 0, 1))
            #expect(tester.firstHit(up)?.triangle == expected[k])
            let tilted = Ray(origin: ray.origin + SIMD3(0.25, -0.5, 0), direction: SIMD3(-0.25, 0.5, -1))
            #expect(tester.firstHit(tilted)?.triangle == expected[k])
        }
    }

    /// The same triangle twice: the lower index wins every ray. (A third copy with its corners
    /// reversed computes t with other roundings, so it may win by being a last bit nearer.)
    @Test func duplicateTrianglesGoToTheLowestIndex() throws {
        let positions: [Point3D] = [SIMD3(0.1, 0.1, 0.3), SIMD3(0.9, 0.2, 0.5), SIMD3(0.3, 0.95, 0.7), SIMD3(0.5, 0.5, 0.9)]
        let triangles: [SIMD3<Int32>] = [SIMD3(0, 1, 3), SIMD3(0, 1, 2), SIMD3(1, 2, 3), SIMD3(0, 1, 2), SIMD3(2, 1, 0)]
        let tester = try HitTester(mesh: Self.mesh(positions: positions, triangles: triangles), geometry: Self.geometry)
        var rng = HitSupport.Random(seed: 4)
        for _ in 0..<300 {
            let origin = SIMD3(rng.uniform(0...1), rng.uniform(0...1), -1.0)
            let ray = Ray(origin: origin, direction: SIMD3(rng.uniform(-0.1...0.1), rng.uniform(-0.1...0.1), 1))
            let hit = tester.firstHit(ray)
            #expect(hit == Self.bruteFirstHit(tester.mesh, ray))
            // Triangles 1 and 3 are the same; 3 never wins.
            #expect(hit?.triangle != 3)
        }
    }

    /// A batch large enough to be answered in the coherent order, with a miss for every ray that
    /// points away: the same answers as single queries, in the rays' order, and the full records
    /// made from them are ``HitTester/intersect(_:)-([Ray])``'s.
    @Test func largeBatchMatchesSingleQueries() throws {
        let tester = try HitTester(document: HitTestingBruteForceTests.document(steps: 2, depth: 0.4))
        let bounds = try #require(tester.mesh.bounds)
        let rays = HitTestingBruteForceTests.rays(around: bounds, count: 12_000, seed: 8)
        let compact = tester.firstHits(rays)
        let full = tester.intersect(rays)
        #expect(compact.count == rays.count && full.count == rays.count)
        var same = 0
        for (k, ray) in rays.enumerated() where compact[k] == tester.firstHit(ray) {
            same += 1
            Self.checkRecord(full[k], tester.mesh, ray, Self.bruteFirstHit(tester.mesh, ray))
        }
        #expect(same == rays.count)
        #expect(compact.contains { $0 != nil } && compact.contains { $0 == nil })
        #expect(compact.allSatisfy { hit in hit.map { $0.triangle >= 0 && $0.t.isFinite } ?? true })
    }

    /// In exact mode the compact hit is the triangle hit, and the full record made from it names
    /// the same triangle, refined on the surface where it can be.
    @Test func exactModeRefinesTheCompactHit() throws {
        let document = try HitTestingBruteForceTests.document(steps: 1, depth: 0.3)
        let tester = try HitTester(document: document, precision: .exact)
        let bounds = try #require(tester.mesh.bounds)
        var refined = 0
        for ray in HitTestingBruteForceTests.rays(around: bounds, count: 300, seed: 6) {
            let found = tester.firstHit(ray)
            #expect(found == Self.bruteFirstHit(tester.mesh, ray))
            guard let hit = found else { continue }
            let record = tester.rayHit(hit, of: ray)
            if let record {
                #expect(record.triangle == Int(hit.triangle))
                if record.isExact { refined += 1 }
            }
        }
        #expect(refined > 20)
    }

    /// Rays whose box tests cannot run in single precision (an origin beyond its range, a
    /// direction component too small for its inverse or too long for its distances, NaN) and odd
    /// intervals (reversed, from −∞, empty at a hit): the same answers as the brute force.
    @Test func unusualRaysMatchBruteForce() throws {
        let mesh = Self.soup(count: 200, seed: 9)
        let tester = try HitTester(mesh: mesh, geometry: Self.geometry)
        let rays = Self.unusualRays(through: mesh.positions[7])
        var hits = 0
        for ray in rays {
            let expected = Self.bruteFirstHit(mesh, ray)
            #expect(tester.firstHit(ray) == expected, "\(ray)")
            if expected != nil { hits += 1 }
        }
        #expect(tester.firstHits(rays) == rays.map { Self.bruteFirstHit(mesh, $0) })
        #expect(hits > 50)
    }

    /// Rays the box tests cannot take or that need no walk, and ordinary rays through `p`.
    static func unusualRays(through p: Point3D) -> [Ray] {
        var rays = [
            Ray(origin: SIMD3(0.5, 0.5, -1e39), direction: SIMD3(0, 0, 1)),
            Ray(origin: SIMD3(0.5, 0.5, -1e39), direction: SIMD3(1e-45, 0, 1)),
            Ray(origin: SIMD3(0.5, 0.5, -1), direction: SIMD3(1e-41, -1e-300, 1)),
            Ray(origin: SIMD3(0.5, 0.5, -1), direction: SIMD3(1e30, 1e30, 1e36)),
            Ray(origin: SIMD3(0.5, 0.5, -1), direction: SIMD3(0, 0, 1e-39)),
            Ray(origin: SIMD3(.nan, 0.5, -1), direction: SIMD3(0, 0, 1)),
            Ray(origin: SIMD3(0.5, 0.5, -1), direction: SIMD3(0, .nan, 1)),
            Ray(origin: SIMD3(0.5, 0.5, -1), direction: SIMD3(0, 0, .infinity)),
            Ray(origin: SIMD3(0.5, 0.5, -1), direction: SIMD3(0, 0, 1), tmin: 2, tmax: 1),
            Ray(origin: SIMD3(0.5, 0.5, -1), direction: SIMD3(0, 0, 1), tmin: .nan, tmax: 3),
            Ray(origin: SIMD3(0.5, 0.5, 3), direction: SIMD3(0, 0, 1), tmin: -.infinity, tmax: .infinity),
            Ray(origin: SIMD3(0.5, 0.5, 0.5), direction: SIMD3(0, 0, -1), tmin: -.infinity, tmax: 0),
            Ray(origin: p + SIMD3(0, 0, 1), direction: SIMD3(0, 0, -1), tmin: 1, tmax: 1),
            Ray(origin: p + SIMD3(0, 0, 1), direction: SIMD3(0, 0, -1), tmin: 1.5, tmax: .infinity),
            Ray(origin: p, direction: SIMD3(0, 0, 0)),
        ]
        var rng = HitSupport.Random(seed: 12)
        for _ in 0..<100 {
            // Through the vertex from far away, along a direction with one tiny component.
            let d = SIMD3(rng.uniform(-1...1) * 1e-38, rng.uniform(-1...1), 1)
            rays.append(Ray(origin: p - 1e6 * d, direction: d))
        }
        return rays
    }

    /// A coherent batch (answered several walks at a time, see `TriangleBVH.Traversal.firstHits`)
    /// with the unusual rays spread through it, so that walks end at different steps, rays that
    /// need no walk come between, and blocks end with fewer rays than walks (an odd count split
    /// over two threads): every answer is the brute force's.
    @Test func coherentBatchWithUnusualRaysMatchesBruteForce() throws {
        let mesh = Self.soup(count: 200, seed: 9)
        let tester = try HitTester(mesh: mesh, geometry: Self.geometry)
        let unusual = Self.unusualRays(through: mesh.positions[7])
        // At least `TriangleBVH.coherentBatchMinimum` (8,192) rays, or the batch would be
        // answered one query at a time.
        var rays = Self.rays(count: 8_195, through: mesh.positions, seed: 13)
        for (k, ray) in unusual.enumerated() { rays[(k * 71) % rays.count] = ray }
        let batch = tester.firstHits(rays)
        #expect(batch.count == rays.count)
        var wrong = 0
        for (k, ray) in rays.enumerated() where batch[k] != Self.bruteFirstHit(mesh, ray) { wrong += 1 }
        #expect(wrong == 0)
        #expect(batch.contains { $0 != nil } && batch.contains { $0 == nil })
    }

    /// A batch answered on one thread and on two (its coherent order made in two parts, its
    /// sorted rays walked in runs both threads take): every compact answer is the brute force's,
    /// and every full record the single query's, whatever the threads.
    @Test func batchMatchesBruteForceOnAnyThreads() throws {
        let mesh = Self.soup(count: 60, seed: 21)
        let tester = try HitTester(mesh: mesh, geometry: Self.geometry)
        let rays = Self.rays(count: 3 * 16_384 + 1_001, through: mesh.positions, seed: 22)
        let expected = rays.map { Self.bruteFirstHit(mesh, $0) }
        let records = rays.map { tester.intersect($0) }
        for threads in [1, 2] {
            let batch = ParallelLimit.withThreads(threads) { tester.firstHits(rays) }
            let full = ParallelLimit.withThreads(threads) { tester.intersect(rays) }
            #expect(batch.count == rays.count && full.count == rays.count)
            var wrong = 0
            for k in rays.indices where batch[k] != expected[k] || full[k] != records[k] { wrong += 1 }
            #expect(wrong == 0, "\(threads) threads")
        }
        #expect(expected.contains { $0 != nil } && expected.contains { $0 == nil })
    }

    @Test func aMissOrAnUnknownTriangleMakesNoRecord() throws {
        let tester = try HitTester(mesh: Self.soup(count: 20, seed: 5), geometry: Self.geometry)
        let ray = Ray(origin: SIMD3(0.5, 0.5, -1), direction: SIMD3(0, 0, 1))
        // A triangle index the mesh does not have, the old miss sentinel's −1 among them.
        #expect(tester.rayHit(TriangleHit(t: .infinity, u: 0, v: 0, triangle: -1), of: ray) == nil)
        #expect(tester.rayHit(TriangleHit(t: 1, u: 0.2, v: 0.2, triangle: 20), of: ray) == nil)
        #expect(tester.firstHits([]).isEmpty)
        let away = Ray(origin: SIMD3(0.5, 0.5, -1), direction: SIMD3(0, 0, -1))
        #expect(tester.firstHit(away) == nil)
        #expect(tester.firstHits([away, away]) == [nil, nil])
        #expect(tester.intersect(away) == nil)
    }

    /// A miss is `nil`, and an optional compact hit still takes the 32 bytes a ray the docs promise
    /// (three Doubles and an Int32, 28 bytes, leave room for the optional's tag in the stride).
    @Test func anOptionalCompactHitTakes32Bytes() {
        #expect(MemoryLayout<TriangleHit>.size == 3 * 8 + 4)
        #expect(MemoryLayout<TriangleHit?>.stride == 32)
    }
}
