import MeshTessellate
import SurfaceKit
import Testing

// Hit-testing (Docs/hit-testing.md). Expected values come from the projection written out in HitSupport
// (row vectors, about the anchor, divided by w), from barycentric interpolation done here, and from
// a rational bicubic B-spline patch evaluated here; never from the code under test.

@Suite struct HitTestingTests {
    /// A gentle bumpy grid on a 200 × 100 layer, steps 2, with `matrix` as the layer transform.
    static func document(matrix: [Double], steps: Int = 2, depth: Double = 0.08) throws -> MeshDocument {
        var (mesh, _) = try HitSupport.grid(rows: 4, columns: 5, seed: 7, depth: depth)
        mesh.depthNormalization = .width
        mesh.subdivisionSteps = .fixed(steps)
        let transform = try #require(Transform3D(elements: matrix))
        return MeshDocument(mesh: mesh, layer: LayerProperties(size: SIMD2(200, 100), transform: transform))
    }

    /// Points on random triangles, projected by the test's own matrix, hit back to the same layer
    /// point, face and depth.
    static func checkRoundTrips(matrix: [Double], seed: UInt64) throws {
        let document = try document(matrix: matrix)
        let tester = try HitTester(document: document)
        let mesh = tester.mesh
        let anchor = SIMD3(0.5 * 200, 0.5 * 100, 0.0)
        var rng = HitSupport.Random(seed: seed)
        var checked = 0
        for _ in 0..<300 {
            let t = Int(rng.next() % UInt64(mesh.triangleCount))
            var w = SIMD3(rng.uniform(0.05...1), rng.uniform(0.05...1), rng.uniform(0.05...1))
            w /= w.sum()
            let tri = mesh.triangles[t]
            let (a, b, c) = (Int(tri.x), Int(tri.y), Int(tri.z))
            let p = w.x * mesh.positions[a] + w.y * mesh.positions[b] + w.z * mesh.positions[c]
            let from = w.x * mesh.from[a] + w.y * mesh.from[b] + w.z * mesh.from[c]
            let (screen, clipW) = HitSupport.project(p, matrix: matrix, anchor: anchor)
            #expect(clipW > 0)
            let hit = try #require(tester.hitTest(SIMD2(screen.x, screen.y)))
            #expect(HitSupport.maxDiff(hit.from, from) <= 1e-9, "triangle \(t): \(hit.from) vs \(from)")
            #expect(hit.face == Int(mesh.sourceFaces[t]) || hit.hit.triangle != t)
            #expect(abs(hit.depth - screen.z) <= 1e-9 * max(1, abs(screen.z)))
            #expect(HitSupport.maxDiff(hit.to, p / SIMD3(200, 100, 200)) <= 1e-9)
            checked += 1
        }
        #expect(checked == 300)
    }

    @Test func screenPointsRoundTripUnderRotation() throws {
        let m = HitSupport.multiply(HitSupport.rotationY(0.5), HitSupport.rotationX(-0.4))
        try Self.checkRoundTrips(matrix: m, seed: 1)
    }

    @Test func screenPointsRoundTripUnderPerspective() throws {
        let m = HitSupport.multiply(
            HitSupport.multiply(HitSupport.rotationX(-0.6), HitSupport.rotationY(0.3)), HitSupport.perspective(300))
        try Self.checkRoundTrips(matrix: m, seed: 2)
    }

    @Test func screenPointsRoundTripUnderAStrongPerspectiveWithTranslation() throws {
        // Eye only 150 points away, layer pushed back and sideways: the divide matters a lot.
        var m = HitSupport.multiply(HitSupport.rotationY(-0.7), HitSupport.perspective(150))
        m[12] += 20; m[13] -= 10
        try Self.checkRoundTrips(matrix: m, seed: 3)
    }

    @Test func pointsOutsideTheMeshMiss() throws {
        let m = HitSupport.multiply(HitSupport.rotationX(-0.5), HitSupport.perspective(400))
        let tester = try HitTester(document: Self.document(matrix: m))
        // The projected layer stays within its x range [0, 200] widened by the perspective a little.
        for p in [SIMD2(-50.0, 50), SIMD2(260, 50), SIMD2(100, -80), SIMD2(100, 200), SIMD2(-1e9, 3)] {
            #expect(tester.hitTest(p) == nil, "\(p)")
        }
        #expect(tester.hitTest(SIMD2(.nan, 3)) == nil)
    }

    @Test func geometryBehindTheEyeIsNeverHit() throws {
        // The eye at z = 100 and the layer moved to z = 150: all of it is behind the eye.
        let m = HitSupport.multiply([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 150, 1], HitSupport.perspective(100))
        let tester = try HitTester(document: Self.document(matrix: m))
        for p in [SIMD2(100.0, 50), SIMD2(10, 10), SIMD2(-300, 200), SIMD2(400, -100)] {
            #expect(tester.hitTest(p) == nil)
        }
    }

    /// Two sheets crossing along x = 0.5: A rises to the right, B to the left, with different layer
    /// points. Over each screen point the one with the larger screen z must win.
    @Test(arguments: [0.0, 500.0])
    func frontmostOfTwoIntersectingSheetsWins(eye: Double) throws {
        func vertex(_ x: Double, _ y: Double, _ z: Double, from: SIMD2<Double>) -> MeshVertex {
            MeshVertex(from: from, to: SIMD3(x, y, z))
        }
        let k = 0.4
        let vertices = [
            vertex(0, 0, -k / 2, from: SIMD2(0, 0)), vertex(1, 0, k / 2, from: SIMD2(0.5, 0)),
            vertex(1, 1, k / 2, from: SIMD2(0.5, 1)), vertex(0, 1, -k / 2, from: SIMD2(0, 1)),
            vertex(0, 0, k / 2, from: SIMD2(0.5, 0)), vertex(1, 0, -k / 2, from: SIMD2(1, 0)),
            vertex(1, 1, -k / 2, from: SIMD2(1, 1)), vertex(0, 1, k / 2, from: SIMD2(0.5, 1)),
        ]
        let mesh = try MeshTransform(
            vertices: vertices, faces: [MeshFace(0, 1, 2, 3), MeshFace(4, 5, 6, 7)],
            depthNormalization: .width, subdivisionSteps: .fixed(0))
        let matrix = eye > 0 ? HitSupport.perspective(eye) : [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        let transform = try #require(Transform3D(elements: matrix))
        let document = MeshDocument(mesh: mesh, layer: LayerProperties(size: SIMD2(100, 100), transform: transform))
        let tester = try HitTester(document: document)
        let anchor = SIMD3(50.0, 50, 0)
        for x in [0.1, 0.3, 0.45, 0.55, 0.7, 0.9] {
            let y = 0.37
            // Sheet A at (x, y): z = k(x − 0.5), from = (x/2, y); sheet B: z = −k(x − 0.5), from = (1 − x/2... )
            let za = k * (x - 0.5), zb = -za
            let front = za > zb ? 0 : 1
            let z = max(za, zb)
            let p = SIMD3(100 * x, 100 * y, 100 * z)
            let screen = HitSupport.project(p, matrix: matrix, anchor: anchor).screen
            let hit = try #require(tester.hitTest(SIMD2(screen.x, screen.y)))
            #expect(hit.face == front, "x = \(x)")
            let expectedFrom = front == 0 ? SIMD2(x / 2, y) : SIMD2(0.5 + x / 2, y)
            #expect(HitSupport.maxDiff(hit.from, expectedFrom) <= 1e-9)
            #expect(abs(hit.depth - screen.z) <= 1e-9)
        }
    }

    @Test func rayHitReportsFaceParametersDistanceAndNormal() throws {
        let mesh = try MeshTransform.identity(rows: 2, columns: 2, depthNormalization: .none)
        let document = MeshDocument(mesh: mesh, layer: LayerProperties(size: SIMD2(200, 100)))
        let tester = try HitTester(document: document, options: TessellationOptions(steps: .fixed(2)))
        // Straight down onto (50, 30): t = 5 with a direction of length 2.
        let hit = try #require(tester.intersect(Ray(origin: SIMD3(50, 30, 10), direction: SIMD3(0, 0, -2))))
        #expect(abs(hit.t - 5) <= 1e-12)
        #expect(HitSupport.maxDiff(hit.position, SIMD3(50, 30, 0)) <= 1e-12)
        #expect(HitSupport.maxDiff(hit.from, SIMD2(0.25, 0.3)) <= 1e-12)
        #expect(HitSupport.maxDiff(hit.normal, SIMD3(0, 0, 1)) <= 1e-12)
        #expect(abs(abs(hit.geometricNormal.z) - 1) <= 1e-12)
        #expect(hit.face == 0)
        #expect(abs(hit.barycentric.sum() - 1) <= 1e-12)
        #expect(hit.barycentric.min() >= -1e-12)
        // The barycentric weights reproduce the position from the triangle's corners.
        let tri = tester.mesh.triangles[hit.triangle]
        let p =
            hit.barycentric.x * tester.mesh.positions[Int(tri.x)] + hit.barycentric.y * tester.mesh.positions[Int(tri.y)]
            + hit.barycentric.z * tester.mesh.positions[Int(tri.z)]
        #expect(HitSupport.maxDiff(p, hit.position) <= 1e-12)
        #expect(!hit.isExact)
        // The valid interval is respected, and a ray pointing away misses.
        #expect(tester.intersect(Ray(origin: SIMD3(50, 30, 10), direction: SIMD3(0, 0, -2), tmin: 0, tmax: 4.9)) == nil)
        #expect(tester.intersect(Ray(origin: SIMD3(50, 30, 10), direction: SIMD3(0, 0, 2))) == nil)
        #expect(tester.intersect(Ray(origin: SIMD3(50, 30, 10), direction: SIMD3(0, 0, 2), tmin: -10, tmax: 0))?.t == -5)
        // An oblique ray into the face at (150, 80), bottom-right face (index 3).
        let target = SIMD3(150.0, 80, 0), origin = SIMD3(120.0, 10, 30)
        let oblique = try #require(tester.intersect(Ray(origin: origin, direction: target - origin)))
        #expect(abs(oblique.t - 1) <= 1e-12)
        #expect(HitSupport.maxDiff(oblique.from, SIMD2(0.75, 0.8)) <= 1e-12)
        #expect(oblique.face == 3)
        // Beside the layer: a miss.
        #expect(tester.intersect(Ray(origin: SIMD3(250, 30, 10), direction: SIMD3(0, 0, -1))) == nil)
    }

    @Test func nearestOfSeveralHitsAlongARayIsReported() throws {
        // A cylinder-like closed-ish surface: a ray through it crosses twice; the nearer wins.
        let document = ExampleMesh.cylinder.document
        let tester = try HitTester(document: document, options: TessellationOptions(steps: .fixed(2)))
        let geometry = document.geometry
        guard let bounds = tester.mesh.bounds else { Issue.record("empty mesh"); return }
        let c = (bounds.min + bounds.max) / 2
        let front = SIMD3(c.x, c.y, bounds.max.z + 100), back = SIMD3(c.x, c.y, bounds.min.z - 100)
        let down = try #require(tester.intersect(Ray(origin: front, direction: SIMD3(0, 0, -1))))
        let up = try #require(tester.intersect(Ray(origin: back, direction: SIMD3(0, 0, 1))))
        #expect(down.position.z >= up.position.z)
        _ = geometry
    }

    @Test func batchesMatchSingleQueries() throws {
        let m = HitSupport.multiply(HitSupport.rotationX(-0.5), HitSupport.perspective(400))
        let tester = try HitTester(document: Self.document(matrix: m))
        var rng = HitSupport.Random(seed: 11)
        let points = (0..<10_000).map { _ in SIMD2(rng.uniform(-20...220), rng.uniform(-20...120)) }
        let batch = tester.hitTest(points)
        #expect(batch.count == points.count)
        for (k, p) in points.enumerated() where k % 7 == 0 {
            #expect(batch[k] == tester.hitTest(p))
        }
        #expect(batch.contains { $0 != nil } && batch.contains { $0 == nil })
        let rays = points.map { Ray(origin: SIMD3($0.x, $0.y, 100), direction: SIMD3(0, 0, -1)) }
        let rayBatch = tester.intersect(rays)
        for (k, r) in rays.enumerated() where k % 7 == 0 {
            #expect(rayBatch[k] == tester.intersect(r))
        }
    }

    @Test func singularTransformHitsInScreenSpace() throws {
        // Scale z to 0 (the layer flattened; no inverse) with a shear in x: screen = (x + 0.2·y, y, 0).
        let matrix: [Double] = [1, 0, 0, 0, 0.2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]
        let tester = try HitTester(document: Self.document(matrix: matrix))
        let mesh = tester.mesh
        let anchor = SIMD3(100.0, 50, 0)
        var rng = HitSupport.Random(seed: 5)
        for _ in 0..<100 {
            let t = Int(rng.next() % UInt64(mesh.triangleCount))
            var w = SIMD3(rng.uniform(0.05...1), rng.uniform(0.05...1), rng.uniform(0.05...1))
            w /= w.sum()
            let tri = mesh.triangles[t]
            let p = w.x * mesh.positions[Int(tri.x)] + w.y * mesh.positions[Int(tri.y)] + w.z * mesh.positions[Int(tri.z)]
            let from = w.x * mesh.from[Int(tri.x)] + w.y * mesh.from[Int(tri.y)] + w.z * mesh.from[Int(tri.z)]
            let s = HitSupport.project(p, matrix: matrix, anchor: anchor).screen
            let hit = try #require(tester.hitTest(SIMD2(s.x, s.y)))
            #expect(HitSupport.maxDiff(hit.from, from) <= 1e-9)
            #expect(hit.depth == 0)
        }
        #expect(tester.hitTest(SIMD2(-100, 50)) == nil)
    }

    /// `exact` against the rational bicubic B-spline of an interior control face's 4 × 4
    /// neighbourhood (a regular grid with NURBS weights), evaluated here, for steps 1 and 3.
    @Test(arguments: [1, 3])
    func exactHitsMatchTheRationalBSplinePatch(steps: Int) throws {
        let rows = 6, columns = 6
        let (base, weights) = try HitSupport.grid(rows: rows, columns: columns, seed: 21, depth: 0.1, weights: 0.5...2)
        var mesh = base
        mesh.subdivisionSteps = .fixed(steps)
        let size = SIMD2(300.0, 200.0)
        let matrix = HitSupport.multiply(HitSupport.rotationX(-0.35), HitSupport.perspective(600))
        let transform = try #require(Transform3D(elements: matrix))
        let document = MeshDocument(mesh: mesh, layer: LayerProperties(size: size, transform: transform))
        let exact = try HitTester(document: document, precision: .exact)
        let plain = try HitTester(document: document)
        let anchor = SIMD3(150.0, 100, 0)
        let scale = SIMD3(size.x, size.y, 1)
        var rng = HitSupport.Random(seed: UInt64(steps))
        var worstTriangleError = 0.0
        for (i0, j0) in [(2, 2), (3, 2), (2, 3), (1, 1), (4, 4)] {
            var control: [[MeshVertex]] = []
            var w: [[Double]] = []
            for a in 0..<4 {
                control.append((0..<4).map { b in mesh.vertices[(i0 - 1 + b) * (columns + 1) + (j0 - 1 + a)] })
                w.append((0..<4).map { b in weights[(i0 - 1 + b) * (columns + 1) + (j0 - 1 + a)] })
            }
            let face = i0 * columns + j0
            let topLeft: Int = i0 * (columns + 1) + j0
            let corners: SIMD4<Int> = SIMD4(topLeft, topLeft + 1, topLeft + columns + 2, topLeft + columns + 1)
            #expect(mesh.faces[face].indices == corners)
            for _ in 0..<12 {
                let u = rng.uniform(0.02...0.98), v = rng.uniform(0.02...0.98)
                let expected = HitSupport.patchPoint(control: control, weights: w, u: u, v: v)
                let p = expected.to * scale
                // Through the screen (perspective) …
                let s = HitSupport.project(p, matrix: matrix, anchor: anchor).screen
                let hit = try #require(exact.hitTest(SIMD2(s.x, s.y)))
                #expect(hit.isExact)
                #expect(hit.face == face)
                #expect(HitSupport.maxDiff(hit.from, expected.from) <= 1e-9, "steps \(steps) face \(face) (\(u), \(v))")
                #expect(HitSupport.maxDiff(hit.to, expected.to) <= 1e-9)
                #expect(abs(hit.depth - s.z) <= 1e-9)
                if let approximate = plain.hitTest(SIMD2(s.x, s.y)) {
                    worstTriangleError = max(worstTriangleError, HitSupport.maxDiff(approximate.from, expected.from))
                }
                // … and along an oblique points-space ray.
                let origin = p + SIMD3(7, -5, 40)
                let rayHit = try #require(exact.intersect(Ray(origin: origin, direction: p - origin)))
                #expect(rayHit.isExact)
                #expect(HitSupport.maxDiff(rayHit.from, expected.from) <= 1e-9)
                #expect(abs(rayHit.t - 1) <= 1e-9)
                // The exact normal is the patch's Tu × Tv, against a central difference here.
                let h = 1e-5
                let du =
                    (HitSupport.patchPoint(control: control, weights: w, u: u + h, v: v).to
                        - HitSupport.patchPoint(control: control, weights: w, u: u - h, v: v).to) * scale
                let dv =
                    (HitSupport.patchPoint(control: control, weights: w, u: u, v: v + h).to
                        - HitSupport.patchPoint(control: control, weights: w, u: u, v: v - h).to) * scale
                let n = HitSupport.cross(du, dv)
                let nn = n / (n * n).sum().squareRoot()
                #expect(HitSupport.maxDiff(rayHit.normal, nn) <= 1e-6)
            }
        }
        // The triangles alone are not that close: exact mode is doing the work.
        #expect(worstTriangleError > 1e-7)
    }

    @Test func exactModeReportsWhereItFallsBackToTheTriangle() throws {
        // The cube-like example with extraordinary vertices: hits near them stay on the triangle
        // and say so; everything that is reported exact lies on a patch.
        let document = ExampleMesh.curl.document
        let tester = try HitTester(document: document, options: TessellationOptions(steps: .fixed(1)), precision: .exact)
        var rng = HitSupport.Random(seed: 9)
        var exactCount = 0
        for _ in 0..<200 {
            let p = SIMD2(rng.uniform(0...document.layer.size.x), rng.uniform(0...document.layer.size.y))
            guard let hit = tester.hitTest(p) else { continue }
            if hit.isExact {
                exactCount += 1
                #expect(hit.hit.patchParameter != nil && hit.hit.quad != nil)
            } else {
                #expect(hit.hit.patchParameter == nil)
            }
        }
        #expect(exactCount > 0)
    }

    @Test func aMeshInAnotherSpaceIsRefused() throws {
        let document = MeshDocument(mesh: try MeshTransform.identity(rows: 1, columns: 1, depthNormalization: .none))
        let unit = try Tessellator.tessellate(document, space: .unit)
        #expect(throws: MeshError.self) { try HitTester(mesh: unit, geometry: document.geometry) }
        let points = try Tessellator.tessellate(document, space: .points)
        let tester = try HitTester(mesh: points, geometry: document.geometry)
        #expect(tester.hitTest(SIMD2(0.25, 0.75)).map { HitSupport.maxDiff($0.from, SIMD2(0.25, 0.75)) <= 1e-12 } == true)
    }
}
