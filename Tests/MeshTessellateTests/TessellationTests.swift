import Foundation
import SurfaceKit
import Testing

@testable import MeshTessellate

// Tests of tessellation (Docs/surface.md, Docs/automatic-steps.md, Docs/command-line.md): counts, spaces, clipping, diagonal policies,
// OBJ export, the triangle budget and refine-once-evaluate-many. Expected values come from
// mathematics written here (grid combinatorics, hand-written 4 × 4 matrices, closed-form areas),
// never from values the code under test produced on another path.

private typealias S = TessSupport

/// The tessellation suites, nested so that their names all contain "TessellationTests".
@Suite struct TessellationTests {}

// MARK: - 1. Identity grids

extension TessellationTests {
    @Suite struct IdentityGrid {
        /// An R × C identity grid at steps n: (R·2ⁿ+1)(C·2ⁿ+1) vertices on the uniform grid, 2·4ⁿ·R·C
        /// triangles, interior edges used twice and boundary edges once, positive orientation, normals
        /// (0,0,1), and each triangle's centroid inside its control face's rectangle.
        @Test(arguments: zip([1, 2, 3, 1, 4], [1, 3, 2, 5, 1]))
        func identityGrid(rows: Int, columns: Int) throws {
            for n in 0...3 {
                try checkIdentityGrid(rows: rows, columns: columns, steps: n, diagonal: .shortest)
            }
        }

        /// The same with every diagonal policy (`center` adds one vertex and two triangles per quad).
        @Test(arguments: DiagonalPolicy.allCases)
        func identityGridPolicies(diagonal: DiagonalPolicy) throws {
            for n in 0...2 {
                try checkIdentityGrid(rows: 2, columns: 3, steps: n, diagonal: diagonal)
            }
        }

        func checkIdentityGrid(rows R: Int, columns C: Int, steps n: Int, diagonal: DiagonalPolicy) throws {
            let mesh = try MeshTransform.identity(rows: R, columns: C)
            let document = MeshDocument(mesh: mesh, layer: LayerProperties(size: SIMD2(120, 80)))
            let options = TessellationOptions(steps: .fixed(n), diagonal: diagonal)
            let out = try Tessellator.tessellate(document, options: options, space: .unit)
            let context = Comment(rawValue: "\(R)×\(C), steps \(n), \(diagonal)")

            let side = 1 << n // sub-quads per face side
            let nx = C * side, ny = R * side // sub-quads along x and y
            let quads = R * C * (1 << (2 * n))
            let gridVertices = (nx + 1) * (ny + 1)
            let centerVertices = diagonal == .center ? quads : 0
            #expect(out.vertexCount == gridVertices + centerVertices, context)
            #expect(out.triangleCount == (diagonal == .center ? 4 : 2) * quads, context)
            #expect(out.triangleCount == (diagonal == .center ? 4 : 2) * (1 << (2 * n)) * R * C, context)
            #expect(out.from.count == out.vertexCount && out.normals.count == out.vertexCount, context)
            #expect(out.sourceFaces.count == out.triangleCount, context)
            #expect(out.space == .unit)

            // Every vertex sits on the uniform grid (or at a sub-quad centre), with to = (from, 0).
            var gridHits = Set<SIMD2<Int>>()
            var centerHits = Set<SIMD2<Int>>()
            for i in 0..<out.vertexCount {
                let p = out.positions[i], f = out.from[i]
                #expect(abs(p.x - f.x) <= 1e-12 && abs(p.y - f.y) <= 1e-12 && abs(p.z) <= 1e-12, context)
                #expect(S.close(out.normals[i], SIMD3(0, 0, 1), relative: 1e-12), context)
                let gx = f.x * Double(nx), gy = f.y * Double(ny)
                let ix = gx.rounded(), iy = gy.rounded()
                if abs(gx - ix) <= 1e-9 && abs(gy - iy) <= 1e-9 {
                    gridHits.insert(SIMD2(Int(ix), Int(iy)))
                } else {
                    let cx = (gx - 0.5).rounded(), cy = (gy - 0.5).rounded()
                    #expect(abs(gx - 0.5 - cx) <= 1e-9 && abs(gy - 0.5 - cy) <= 1e-9, "vertex \(i) at \(f) is off the grid; \(context)")
                    centerHits.insert(SIMD2(Int(cx), Int(cy)))
                }
            }
            #expect(gridHits.count == gridVertices, context)
            #expect(centerHits.count == centerVertices, context)

            // Edges: count them from the triangles.
            let use = S.edgeUse(out.triangles)
            func onBoundary(_ e: SIMD2<Int32>) -> Bool {
                let a = out.from[Int(e.x)], b = out.from[Int(e.y)]
                for (u, v) in [(a.x, b.x), (a.y, b.y)] {
                    if abs(u) <= 1e-12 && abs(v) <= 1e-12 { return true }
                    if abs(u - 1) <= 1e-12 && abs(v - 1) <= 1e-12 { return true }
                }
                return false
            }
            var boundaryEdges = 0
            for (edge, count) in use {
                if onBoundary(edge) {
                    boundaryEdges += 1
                    #expect(count == 1, "boundary edge \(edge) used \(count) times; \(context)")
                } else {
                    #expect(count == 2, "interior edge \(edge) used \(count) times; \(context)")
                }
            }
            #expect(boundaryEdges == 2 * (nx + ny), context)
            // Grid lines plus one diagonal per quad (or four spokes per quad for `center`).
            let gridEdges = (ny + 1) * nx + (nx + 1) * ny
            #expect(use.count == gridEdges + (diagonal == .center ? 4 : 1) * quads, context)
            // A disk: V − E + F = 1.
            #expect(out.vertexCount - use.count + out.triangleCount == 1, context)
            // Consistent orientation: no directed edge twice.
            #expect(S.directedEdgeUse(out.triangles).values.allSatisfy { $0 == 1 }, context)

            // Orientation and coverage: (b − a) × (c − a) has z > 0; the areas sum to the unit square.
            var area = 0.0
            var perFace = [Int](repeating: 0, count: R * C)
            for (t, tri) in out.triangles.enumerated() {
                let a = out.positions[Int(tri.x)], b = out.positions[Int(tri.y)], c = out.positions[Int(tri.z)]
                let normal = S.cross(b - a, c - a)
                #expect(normal.z > 0, "triangle \(t) \(tri) is not positively oriented; \(context)")
                area += 0.5 * normal.z

                // sourceFaces: the centroid's layer point lies in the control face's rectangle.
                let face = Int(out.sourceFaces[t])
                #expect((0..<(R * C)).contains(face), context)
                guard (0..<(R * C)).contains(face) else { continue }
                perFace[face] += 1
                let r = face / C, col = face % C
                let centroid = (out.from[Int(tri.x)] + out.from[Int(tri.y)] + out.from[Int(tri.z)]) / 3
                let x0 = Double(col) / Double(C), x1 = Double(col + 1) / Double(C)
                let y0 = Double(r) / Double(R), y1 = Double(r + 1) / Double(R)
                #expect(
                    centroid.x > x0 && centroid.x < x1 && centroid.y > y0 && centroid.y < y1,
                    "triangle \(t) centroid \(centroid) is not in face \(face); \(context)")
            }
            #expect(abs(area - 1) <= 1e-12, context)
            let perFaceExpected = (diagonal == .center ? 4 : 2) * (1 << (2 * n))
            #expect(perFace.allSatisfy { $0 == perFaceExpected }, context)
        }
    }
}

// MARK: - 2. Spaces and Transform3D

/// The layer of the spaces test: 100 × 200 points, anchor (0.3, 0.6), depth normalization
/// `average` (D = 150), and the transform "rotate −45° about x, then translate (12.5, −30, 40) with
/// perspective m34 = −1/800", written out by hand in CATransform3D's row-vector layout.
enum TessSpacesFixture {
    static let size = SIMD2<Double>(100, 200)
    static let depth = (100.0 + 200.0) / 2 // average
    static let anchor = LayerPoint(0.3, 0.6)
    static let anchorPoints = SIMD3<Double>(30, 120, 0)
    /// cos(−45°) = √2/2 and sin(−45°) = −√2/2.
    static let c = 0.5.squareRoot()
    static let s = -0.5.squareRoot()
    static let t = SIMD3<Double>(12.5, -30, 40)
    static let p = -1.0 / 800

    /// R_x(−45°) = rows (1,0,0,0), (0,c,s,0), (0,−s,c,0), (0,0,0,1);
    /// T = rows (1,0,0,0), (0,1,0,0), (0,0,1,p), (tx,ty,tz,1);
    /// R·T (row vectors: R first) = rows (1,0,0,0), (0,c,s,s·p), (0,−s,c,c·p), (tx,ty,tz,1).
    static let elements: [Double] = [
        1, 0, 0, 0,
        0, c, s, s * p,
        0, -s, c, c * p,
        t.x, t.y, t.z, 1,
    ]

    static var transform: Transform3D { Transform3D(elements: elements)! }

    /// The screen point of a points-space point, computed by hand: q = P − anchor,
    /// h = [q 1]·M, screen = h.xyz / h.w + anchor.
    static func project(_ P: SIMD3<Double>) -> (SIMD3<Double>, Double) {
        let q = P - anchorPoints
        let hx = q.x + t.x
        let hy = c * q.y - s * q.z + t.y
        let hz = s * q.y + c * q.z + t.z
        let hw = s * p * q.y + c * p * q.z + 1
        return (SIMD3(hx, hy, hz) / hw + anchorPoints, hw)
    }

    /// A points-space normal through the linear part A of M (rows (1,0,0), (0,c,s), (0,−s,c), a
    /// rotation, so its inverse transpose is itself): n·A, normalized.
    static func screenNormal(_ n: SIMD3<Double>) -> SIMD3<Double> {
        S.unit(SIMD3(n.x, c * n.y - s * n.z, s * n.y + c * n.z))
    }

    static func document() throws -> MeshDocument {
        let mesh = try S.jitteredGrid(
            rows: 3, columns: 3, seed: 0x5EED_0002, jitter: 0.25, depth: 0.3, depthNormalization: .average)
        return MeshDocument(mesh: mesh, layer: LayerProperties(size: size, anchor: anchor, transform: transform))
    }
}

extension TessellationTests {
    @Suite struct Spaces {
        @Test func pointsScreenAndUnitSpaces() throws {
            typealias F = TessSpacesFixture
            let document = try F.document()
            #expect(document.mesh.depthNormalization == .average)
            let tessellator = try Tessellator(mesh: document.mesh, options: TessellationOptions(steps: .fixed(3)))
            let unit = try tessellator.tessellate(document.mesh, geometry: document.geometry, space: .unit)
            let points = try tessellator.tessellate(document.mesh, geometry: document.geometry, space: .points)
            let screen = try tessellator.tessellate(document.mesh, geometry: document.geometry, space: .screen)
            #expect(unit.space == .unit && points.space == .points && screen.space == .screen)

            // The same vertices in the same order whatever the space (nothing is clipped here: w ≥ 0.8).
            #expect(points.vertexCount == unit.vertexCount && screen.vertexCount == unit.vertexCount)
            #expect(points.from == unit.from && screen.from == unit.from)
            #expect(points.triangles == unit.triangles && screen.triangles == unit.triangles)
            #expect(points.sourceFaces == unit.sourceFaces && screen.sourceFaces == unit.sourceFaces)
            #expect(unit.triangleCount == 2 * 64 * 9)
            guard points.vertexCount == unit.vertexCount, screen.vertexCount == unit.vertexCount else { return }

            let scale = SIMD3(F.size.x, F.size.y, F.depth)
            var minW = Double.infinity
            for i in 0..<unit.vertexCount {
                // points = unit × (W, H, D) with D = (W + H)/2 = 150.
                #expect(S.close(points.positions[i], unit.positions[i] * scale, relative: 1e-14), "vertex \(i)")
                // screen = the hand projection of points.
                let (expected, w) = F.project(points.positions[i])
                minW = min(minW, w)
                #expect(
                    S.close(screen.positions[i], expected, relative: 1e-9),
                    "vertex \(i): screen \(screen.positions[i]), expected \(expected)")
                // Unit normals.
                for n in [unit.normals[i], points.normals[i], screen.normals[i]] {
                    #expect(abs(S.norm(n) - 1) <= 1e-12, "vertex \(i) normal \(n)")
                }
                // Normals between spaces: unit ∝ (W, H, D)·n (the inverse transpose of the unit → points
                // scale), screen ∝ n·A.
                #expect(S.close(unit.normals[i], S.unit(points.normals[i] * scale), relative: 1e-12), "vertex \(i)")
                #expect(S.close(screen.normals[i], F.screenNormal(points.normals[i]), relative: 1e-12), "vertex \(i)")
            }
            #expect(minW > 0.5)

            // In points space the normal is (nearly) perpendicular to the edges of the triangle fan around
            // each vertex, and each triangle winds counter-clockwise around its vertices' normals.
            var worst = 0.0
            var neighbours = [Set<Int32>](repeating: [], count: points.vertexCount)
            for tri in points.triangles {
                for k in 0..<3 {
                    neighbours[Int(tri[k])].insert(tri[(k + 1) % 3])
                    neighbours[Int(tri[k])].insert(tri[(k + 2) % 3])
                }
                let a = points.positions[Int(tri.x)], b = points.positions[Int(tri.y)], c = points.positions[Int(tri.z)]
                let faceNormal = S.unit(S.cross(b - a, c - a))
                let vertexNormals = points.normals[Int(tri.x)] + points.normals[Int(tri.y)] + points.normals[Int(tri.z)]
                #expect(S.dot(faceNormal, S.unit(vertexNormals)) > 0.9, "triangle \(tri)")
            }
            for i in 0..<points.vertexCount {
                for j in neighbours[i] {
                    let e = S.unit(points.positions[Int(j)] - points.positions[i])
                    worst = max(worst, abs(S.dot(points.normals[i], e)))
                }
            }
            // A chord of length h on a surface of curvature κ leaves the tangent plane by about κh/2.
            #expect(worst < 0.15, "largest |n·ê| over the fans: \(worst)")
        }
    }
}

extension TessellationTests {
    @Suite struct Transform3DAPI {
        static func expectElements(
            _ m: Transform3D, _ expected: [Double], tolerance: Double = 1e-15,
            sourceLocation: SourceLocation = #_sourceLocation
        ) {
            let e = m.elements
            #expect(e.count == 16, sourceLocation: sourceLocation)
            for k in 0..<16 where !(abs(e[k] - expected[k]) <= tolerance) {
                Issue.record("m\(k / 4 + 1)\(k % 4 + 1) = \(e[k]), expected \(expected[k])", sourceLocation: sourceLocation)
            }
        }

        /// (A·B)ᵢⱼ = Σₖ AᵢₖBₖⱼ, written out on element arrays (m11…m44).
        static func product(_ a: [Double], _ b: [Double]) -> [Double] {
            var r = [Double](repeating: 0, count: 16)
            for i in 0..<4 {
                for j in 0..<4 {
                    var sum = 0.0
                    for k in 0..<4 { sum += a[4 * i + k] * b[4 * k + j] }
                    r[4 * i + j] = sum
                }
            }
            return r
        }

        static let identity: [Double] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]

        @Test func rotationAboutZ() {
            for theta in [0.3, -1.2, Double.pi / 2, 2.5] {
                let c = cos(theta), s = sin(theta)
                // CATransform3DMakeRotation(θ, 0, 0, 1): m11 = cos, m12 = sin, m21 = −sin, m22 = cos.
                Self.expectElements(
                    Transform3D.rotation(angle: theta, axis: SIMD3(0, 0, 1)),
                    [c, s, 0, 0, -s, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
            }
            // Right-handed: +90° about z takes the x axis to the y axis ([1 0 0 1]·M = row 1).
            let m = Transform3D.rotation(angle: Double.pi / 2, axis: SIMD3(0, 0, 5))
            let x = m.applyHomogeneous(SIMD3(1, 0, 0))
            #expect(abs(x.x) < 1e-15 && abs(x.y - 1) < 1e-15 && x.z == 0 && x.w == 1)
        }

        @Test func rotationAboutXAndY() {
            let theta = -Double.pi / 4
            let c = cos(theta), s = sin(theta)
            Self.expectElements(
                Transform3D.rotation(angle: theta, axis: SIMD3(1, 0, 0)),
                [1, 0, 0, 0, 0, c, s, 0, 0, -s, c, 0, 0, 0, 0, 1])
            let phi = 0.7
            let cp = cos(phi), sp = sin(phi)
            // About y: z → x (right-handed), so [0 0 1]·M = (sin φ, 0, cos φ).
            Self.expectElements(
                Transform3D.rotation(angle: phi, axis: SIMD3(0, 2, 0)),
                [cp, 0, -sp, 0, 0, 1, 0, 0, sp, 0, cp, 0, 0, 0, 0, 1])
            // A zero axis gives the identity (Core Animation's behaviour).
            Self.expectElements(Transform3D.rotation(angle: 1, axis: SIMD3(0, 0, 0)), Self.identity, tolerance: 0)
        }

        /// About an arbitrary axis u: u is fixed, the matrix is orthonormal with determinant 1, and a
        /// vector v ⟂ u goes to cos θ·v + sin θ·(u × v).
        @Test func rotationAboutAnyAxis() {
            var rng = S.Random(seed: 0xA815)
            for _ in 0..<50 {
                let axis = SIMD3(rng.uniform(-1...1), rng.uniform(-1...1), rng.uniform(-1...1))
                guard S.norm(axis) > 0.1 else { continue }
                let u = S.unit(axis)
                let theta = rng.uniform(-4...4)
                let m = Transform3D.rotation(angle: theta, axis: axis)
                let e = m.elements
                #expect(e[3] == 0 && e[7] == 0 && e[11] == 0 && e[12] == 0 && e[13] == 0 && e[14] == 0 && e[15] == 1)
                func apply(_ v: SIMD3<Double>) -> SIMD3<Double> {
                    let h = m.applyHomogeneous(v)
                    return SIMD3(h.x, h.y, h.z)
                }
                #expect(S.close(apply(u), u, relative: 1e-14))
                let v = S.unit(S.cross(u, SIMD3(0.3, -0.9, 0.2)))
                let expected = cos(theta) * v + sin(theta) * S.cross(u, v)
                #expect(S.close(apply(v), expected, relative: 1e-14))
                #expect(abs(m.determinant - 1) < 1e-13)
            }
        }

        @Test func translationScalePerspective() {
            Self.expectElements(Transform3D.translation(3, -4, 5.5), [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 3, -4, 5.5, 1], tolerance: 0)
            Self.expectElements(Transform3D.scale(2, -3, 0.5), [2, 0, 0, 0, 0, -3, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 1], tolerance: 0)
            let d = 800.0
            let perspective = Transform3D.perspective(eyeDistance: d)
            Self.expectElements(perspective, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -1 / d, 0, 0, 0, 1], tolerance: 0)
            #expect(perspective.m34 == -1 / d)
            // The eye at z = d: w = 1 − z/d, so half way there everything is twice as large.
            let h = perspective.applyHomogeneous(SIMD3(10, 20, 400))
            #expect(h == SIMD4(10, 20, 400, 0.5))
            #expect(perspective.applyHomogeneous(SIMD3(1, 1, d)).w == 0)
            #expect(Transform3D.identity.elements == Self.identity)
            #expect(Transform3D(elements: [1, 2, 3]) == nil)
        }

        /// `a.concatenating(b)` is the matrix product a·b: a applies first, then b.
        @Test func concatenation() {
            let a = Transform3D.translation(1, 2, 3)
            let b = Transform3D.rotation(angle: Double.pi / 2, axis: SIMD3(0, 0, 1))
            // Translate, then rotate +90° about z: (1, 2, 3) → (−2, 1, 3).
            Self.expectElements(a.concatenating(b), [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, -2, 1, 3, 1])
            // Rotate, then translate.
            Self.expectElements(b.concatenating(a), [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1])
            let origin = a.concatenating(b).applyHomogeneous(SIMD3(0, 0, 0))
            #expect(abs(origin.x + 2) < 1e-15 && abs(origin.y - 1) < 1e-15 && origin.z == 3 && origin.w == 1)

            // The spaces fixture: R_x(−45°) then translation with perspective, by the API, equals the
            // hand-written matrix.
            typealias F = TessSpacesFixture
            var t = Transform3D.translation(F.t.x, F.t.y, F.t.z)
            t.m34 = F.p
            let composed = Transform3D.rotation(angle: -Double.pi / 4, axis: SIMD3(1, 0, 0)).concatenating(t)
            Self.expectElements(composed, F.elements, tolerance: 1e-15)

            // General matrices: the product written out here.
            var rng = S.Random(seed: 0xC0CA7)
            for _ in 0..<20 {
                let x = (0..<16).map { _ in rng.uniform(-2...2) }
                let y = (0..<16).map { _ in rng.uniform(-2...2) }
                let m = Transform3D(elements: x)!.concatenating(Transform3D(elements: y)!)
                Self.expectElements(m, Self.product(x, y), tolerance: 1e-13)
                // Applying the product is applying x, then y.
                let v = SIMD3(rng.uniform(-1...1), rng.uniform(-1...1), rng.uniform(-1...1))
                let once = m.applyHomogeneous(v)
                let twice = Transform3D(elements: y)!.apply(Transform3D(elements: x)!.applyHomogeneous(v))
                for k in 0..<4 { #expect(abs(once[k] - twice[k]) <= 1e-12) }
            }
        }

        @Test func inverse() throws {
            var rng = S.Random(seed: 0x1417)
            var matrices = [TessSpacesFixture.transform]
            for _ in 0..<20 {
                // Diagonally dominant, so well conditioned.
                var e = (0..<16).map { _ in rng.uniform(-1...1) }
                for k in 0..<4 { e[5 * k] += 5 }
                matrices.append(Transform3D(elements: e)!)
            }
            for m in matrices {
                let inverse = try #require(m.inverse)
                Self.expectElements(inverse.concatenating(m), Self.identity, tolerance: 1e-13)
                Self.expectElements(m.concatenating(inverse), Self.identity, tolerance: 1e-13)
                Self.expectElements(Transform3D(elements: Self.product(inverse.elements, m.elements))!, Self.identity, tolerance: 1e-13)
            }
            // Hand inverses.
            Self.expectElements(try #require(Transform3D.translation(1, -2, 3).inverse), Transform3D.translation(-1, 2, -3).elements)
            Self.expectElements(try #require(Transform3D.scale(2, 4, -8).inverse), Transform3D.scale(0.5, 0.25, -0.125).elements)
            #expect(Transform3D.scale(1, 0, 1).inverse == nil)
        }
    }
}

// MARK: - 3. Clipping at the eye

/// A flat-in-`from` layer (identity `from`) whose points position is an affine function of `from`,
/// so every output vertex's points position, clip w and screen position follow from its `from`.
struct TessClipCase: CustomTestStringConvertible, Sendable {
    var name: String
    var size: SIMD2<Double>
    /// `to.z` (unit) as a function of `from`; depth normalization `none`, so this is points.
    var zOf: @Sendable (LayerPoint) -> Double
    /// CATransform3D elements, by hand.
    var elements: [Double]
    /// The area of { from ∈ [0,1]² : w(from) ≥ clipW }, in closed form.
    var frontArea: Double

    var testDescription: String { name }

    var anchorPoints: SIMD3<Double> { SIMD3(size.x / 2, size.y / 2, 0) }

    func pointsOf(_ f: LayerPoint) -> SIMD3<Double> { SIMD3(f.x * size.x, f.y * size.y, zOf(f)) }

    /// [P − a, 1]·M.
    func clip(_ P: SIMD3<Double>) -> SIMD4<Double> {
        let q = P - anchorPoints
        var h = SIMD4<Double>(0, 0, 0, 0)
        for j in 0..<4 {
            h[j] = q.x * elements[j] + q.y * elements[4 + j] + q.z * elements[8 + j] + elements[12 + j]
        }
        return h
    }

    static let eps = 1e-6

    static let cases: [TessClipCase] = [
        // Eye at z = 100; the surface rises to z = 200y + 40x, so w = 1 − 2y − 0.4x and the front
        // part is y < (1 − ε − 0.4x)/2: area ∫₀¹ (1 − ε − 0.4x)/2 dx = (0.8 − ε)/2.
        TessClipCase(
            name: "rising surface, eye at 100",
            size: SIMD2(100, 100),
            zOf: { f in 200 * f.y + 40 * f.x },
            elements: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -1.0 / 100, 0, 0, 0, 1],
            frontArea: (0.8 - eps) / 2),
        // A flat layer tilted +60° about x (its bottom comes toward the viewer) with the eye at 30:
        // w = 1 − sin60°·(y − ½)·100/30, front part y < ½ + 0.3(1 − ε)/sin60°.
        TessClipCase(
            name: "flat layer tilted 60° toward an eye at 30",
            size: SIMD2(100, 100),
            zOf: { _ in 0 },
            elements: {
                let c = 0.5, s = 0.75.squareRoot(), p = -1.0 / 30
                // R_x(60°) then perspective: rows (1,0,0,0), (0,c,s,s·p), (0,−s,c,c·p), (0,0,0,1).
                return [1, 0, 0, 0, 0, c, s, s * p, 0, -s, c, c * p, 0, 0, 0, 1]
            }(),
            frontArea: 0.5 + 0.3 * (1 - eps) / 0.75.squareRoot()),
    ]
}

extension TessellationTests {
    @Suite struct Clipping {
        @Test(arguments: TessClipCase.cases)
        func clipping(_ setup: TessClipCase) throws {
            for steps in [0, 1, 3] {
                for diagonal in DiagonalPolicy.allCases {
                    try check(setup, steps: steps, diagonal: diagonal)
                }
            }
        }

        func check(_ setup: TessClipCase, steps: Int, diagonal: DiagonalPolicy) throws {
            let context = Comment(rawValue: "\(setup.name), steps \(steps), \(diagonal)")
            let grid = try MeshTransform.identity(rows: 2, columns: 3)
            let mesh = try grid.mappingVertices { v, _ in
                MeshVertex(from: v.from, to: Point3D(v.from.x, v.from.y, setup.zOf(v.from)))
            }
            let layer = LayerProperties(size: setup.size, transform: Transform3D(elements: setup.elements)!)
            let document = MeshDocument(mesh: mesh, layer: layer)
            let options = TessellationOptions(steps: .fixed(steps), diagonal: diagonal)
            let points = try Tessellator.tessellate(document, options: options, space: .points)
            let screen = try Tessellator.tessellate(document, options: options, space: .screen)
            let eps = TessClipCase.eps
            #expect(LayerGeometry.clipW == eps)

            // Part of the surface is behind the eye, part in front.
            let ws = points.positions.map { setup.clip($0).w }
            #expect(ws.contains { $0 < 0 } && ws.contains { $0 > eps }, context)

            // The original vertices keep their indices; new (cut) vertices follow.
            #expect(screen.vertexCount > points.vertexCount, context)
            #expect(Array(screen.from.prefix(points.vertexCount)) == points.from, context)
            #expect(screen.sourceFaces.count == screen.triangleCount, context)
            #expect(screen.positions.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }, context)
            #expect(screen.normals.allSatisfy { abs(S.norm($0) - 1) <= 1e-12 }, context)

            var used = Set<Int32>()
            for tri in screen.triangles { used.formUnion([tri.x, tri.y, tri.z]) }
            for v in used.sorted() {
                let i = Int(v)
                let f = screen.from[i]
                // The points position follows from `from` (to is affine in from, and subdivision is affine
                // invariant); its w must be in front of the eye.
                let h = setup.clip(setup.pointsOf(f))
                #expect(h.w >= eps - 1e-12, "vertex \(i) (from \(f)) has w = \(h.w); \(context)")
                if i >= points.vertexCount {
                    // A cut vertex: on the plane w = clipW, up to rounding.
                    #expect(abs(h.w - eps) <= 1e-12, "cut vertex \(i) has w = \(h.w); \(context)")
                    // Its screen position is the projection of that point; compare (s − a)·w with h.xyz.
                    let scaled = (screen.positions[i] - setup.anchorPoints) * h.w
                    #expect(S.close(scaled, SIMD3(h.x, h.y, h.z), relative: 1e-6), "cut vertex \(i); \(context)")
                } else {
                    let expected = SIMD3(h.x, h.y, h.z) / h.w + setup.anchorPoints
                    #expect(S.close(screen.positions[i], expected, relative: 1e-9), "vertex \(i); \(context)")
                }
            }

            // The remaining triangles tile exactly the front part of the layer: positive areas in `from`
            // (so nothing is drawn inverted) that sum to the closed-form area.
            var area = 0.0
            for (t, tri) in screen.triangles.enumerated() {
                let a = S.signedArea(screen.from[Int(tri.x)], screen.from[Int(tri.y)], screen.from[Int(tri.z)])
                #expect(a >= 0, "triangle \(t) is inverted in from; \(context)")
                area += a
            }
            #expect(abs(area - setup.frontArea) <= 1e-12, "area \(area), expected \(setup.frontArea); \(context)")

            // Watertight: an edge used by one triangle lies on the layer's border or on the clip plane.
            for (edge, count) in S.edgeUse(screen.triangles) {
                #expect(count <= 2, context)
                guard count == 1 else { continue }
                let a = screen.from[Int(edge.x)], b = screen.from[Int(edge.y)]
                let onBorder = S.onSameBorder(a, b)
                let wa = setup.clip(setup.pointsOf(a)).w, wb = setup.clip(setup.pointsOf(b)).w
                let onPlane = abs(wa - eps) <= 1e-12 && abs(wb - eps) <= 1e-12
                #expect(onBorder || onPlane, "open edge \(edge) from \(a) to \(b); \(context)")
            }
        }
    }
}

// MARK: - 4. Diagonal policies

extension TessellationTests {
    @Suite struct DiagonalPolicies {
        /// One face with its top-right corner pulled in: TL (0,0), TR → (0.8, 0.2), BR (1,1), BL (0,1).
        static func pulledQuad() throws -> MeshDocument {
            let vertices = [
                MeshVertex(from: LayerPoint(0, 0), to: Point3D(0, 0, 0)),
                MeshVertex(from: LayerPoint(1, 0), to: Point3D(0.8, 0.2, 0)),
                MeshVertex(from: LayerPoint(1, 1), to: Point3D(1, 1, 0)),
                MeshVertex(from: LayerPoint(0, 1), to: Point3D(0, 1, 0)),
            ]
            return try document(vertices)
        }

        /// The mirror image (x → 1 − x of from and to). Vertex k of the mirror is the image of vertex
        /// σ(k) of the original, σ = (1, 0, 3, 2), so the face's order stays TL, TR, BR, BL.
        static let sigma = [1, 0, 3, 2]

        static func mirroredQuad() throws -> MeshDocument {
            let original = try pulledQuad().mesh.vertices
            let vertices = sigma.map { k -> MeshVertex in
                let v = original[k]
                return MeshVertex(from: LayerPoint(1 - v.from.x, v.from.y), to: Point3D(1 - v.to.x, v.to.y, v.to.z))
            }
            return try document(vertices)
        }

        static func document(_ vertices: [MeshVertex]) throws -> MeshDocument {
            let mesh = try MeshTransform(vertices: vertices, faces: [MeshFace(0, 1, 2, 3)], subdivisionSteps: .fixed(0))
            return MeshDocument(mesh: mesh, layer: LayerProperties(size: SIMD2(100, 100)))
        }

        /// Triangles labelled by control vertex (matched by `from`), a centre vertex labelled 4.
        static func labelledTriangles(
            _ document: MeshDocument, _ diagonal: DiagonalPolicy, sourceLocation: SourceLocation = #_sourceLocation
        ) throws -> (triangles: [[Int]], mesh: TriangleMesh) {
            let out = try Tessellator.tessellate(
                document, options: TessellationOptions(steps: .fixed(0), diagonal: diagonal), space: .points)
            let corners = document.mesh.vertices.map(\.from)
            var label = [Int]()
            for f in out.from {
                if let k = corners.firstIndex(where: { S.close($0, f, tolerance: 1e-12) }) {
                    label.append(k)
                } else {
                    label.append(4)
                }
            }
            let triangles = out.triangles.map { [label[Int($0.x)], label[Int($0.y)], label[Int($0.z)]] }
            // Every triangle winds positively ((b − a) × (c − a) has z > 0 in points, y down).
            for tri in out.triangles {
                let a = out.positions[Int(tri.x)], b = out.positions[Int(tri.y)], c = out.positions[Int(tri.z)]
                #expect(S.cross(b - a, c - a).z > 0, "\(diagonal): triangle \(tri)", sourceLocation: sourceLocation)
            }
            return (triangles, out)
        }

        static func vertexSets(_ triangles: [[Int]]) -> Set<Set<Int>> { Set(triangles.map { Set($0) }) }
        static func mirrored(_ triangles: [[Int]]) -> Set<Set<Int>> {
            Set(triangles.map { Set($0.map { $0 < 4 ? sigma[$0] : 4 }) })
        }

        static let along02: [[Int]] = S.canonicalSet([[0, 1, 2], [0, 2, 3]])
        static let along13: [[Int]] = S.canonicalSet([[0, 1, 3], [1, 2, 3]])

        @Test func shortestFollowsThePulledVertex() throws {
            // Original: 0–2 has length √2·100, 1–3 has length 0.8·√2·100: split along 1–3.
            let (a, _) = try Self.labelledTriangles(Self.pulledQuad(), .shortest)
            #expect(S.canonicalSet(a) == Self.along13)
            // Mirror: the pulled vertex is now TL, so 0–2 is the shorter diagonal.
            let (b, _) = try Self.labelledTriangles(Self.mirroredQuad(), .shortest)
            #expect(S.canonicalSet(b) == Self.along02)
            // Mirrored triangulations.
            #expect(Self.mirrored(a) == Self.vertexSets(b))
            // A square is a tie: `first`.
            let square = try Self.document([
                MeshVertex(identityAt: LayerPoint(0, 0)), MeshVertex(identityAt: LayerPoint(1, 0)),
                MeshVertex(identityAt: LayerPoint(1, 1)), MeshVertex(identityAt: LayerPoint(0, 1)),
            ])
            #expect(S.canonicalSet(try Self.labelledTriangles(square, .shortest).triangles) == Self.along02)
        }

        @Test func centerIsSymmetric() throws {
            let (a, meshA) = try Self.labelledTriangles(Self.pulledQuad(), .center)
            let (b, meshB) = try Self.labelledTriangles(Self.mirroredQuad(), .center)
            let fan = S.canonicalSet([[0, 1, 4], [1, 2, 4], [2, 3, 4], [3, 0, 4]])
            #expect(S.canonicalSet(a) == fan)
            #expect(S.canonicalSet(b) == fan)
            #expect(Self.mirrored(a) == Self.vertexSets(b))
            // The centre: the mean of the corners, (0 + 0.8 + 1 + 0, 0 + 0.2 + 1 + 1)/4 = (0.45, 0.55) and
            // its mirror (0.55, 0.55), in points on a 100 × 100 layer; from (0.5, 0.5).
            #expect(meshA.vertexCount == 5 && meshB.vertexCount == 5)
            let centerA = try #require(meshA.from.indices.first { !Self.isCorner(meshA.from[$0]) })
            let centerB = try #require(meshB.from.indices.first { !Self.isCorner(meshB.from[$0]) })
            #expect(S.close(meshA.positions[centerA], SIMD3(45, 55, 0), relative: 1e-14))
            #expect(S.close(meshB.positions[centerB], SIMD3(55, 55, 0), relative: 1e-14))
            #expect(S.close(meshA.from[centerA], SIMD2(0.5, 0.5), tolerance: 1e-15))
            #expect(S.close(meshB.from[centerB], SIMD2(0.5, 0.5), tolerance: 1e-15))
        }

        static func isCorner(_ f: LayerPoint) -> Bool {
            (f.x == 0 || f.x == 1) && (f.y == 0 || f.y == 1)
        }

        @Test func firstAndSecondIgnoreTheShape() throws {
            let (a1, _) = try Self.labelledTriangles(Self.pulledQuad(), .first)
            let (b1, _) = try Self.labelledTriangles(Self.mirroredQuad(), .first)
            #expect(S.canonicalSet(a1) == Self.along02)
            #expect(S.canonicalSet(b1) == Self.along02)
            // So they are not mirror images of each other.
            #expect(Self.mirrored(a1) != Self.vertexSets(b1))
            let (a2, _) = try Self.labelledTriangles(Self.pulledQuad(), .second)
            let (b2, _) = try Self.labelledTriangles(Self.mirroredQuad(), .second)
            #expect(S.canonicalSet(a2) == Self.along13)
            #expect(S.canonicalSet(b2) == Self.along13)
        }

        /// `surface` at steps 1 on a bent surface: each sub-quad is split along the diagonal whose
        /// midpoint is nearer the surface point at the quad's centre (evaluated from the plan with
        /// `includeCenters`, and equal to the `center` policy's centre vertices).
        @Test func surfacePicksTheDiagonalNearerTheCentre() throws {
            let mesh = try S.jitteredGrid(rows: 3, columns: 3, seed: 0xBE27, jitter: 0.3, depth: 0.4, depthNormalization: .min)
            let document = MeshDocument(mesh: mesh, layer: LayerProperties(size: SIMD2(160, 120)))
            let geometry = document.geometry
            let scale = geometry.pointScale
            #expect(scale == SIMD3(160, 120, 120))

            let surface = try Tessellator.tessellate(
                document, options: TessellationOptions(steps: .fixed(1), diagonal: .surface), space: .points)
            let center = try Tessellator.tessellate(
                document, options: TessellationOptions(steps: .fixed(1), diagonal: .center), space: .points)
            let shortest = try Tessellator.tessellate(
                document, options: TessellationOptions(steps: .fixed(1), diagonal: .shortest), space: .points)

            let tessellator = try Tessellator(mesh: mesh, options: TessellationOptions(steps: .fixed(1), diagonal: .surface))
            let plan = tessellator.plan
            let topology = try SurfaceTopology(faces: mesh.faces, vertexCount: mesh.vertices.count)
            let evaluation = try plan.evaluate(
                vertices: mesh.vertices, weights: topology.vertexWeights(faces: mesh.faces),
                pointScale: scale, includeCenters: true)
            let centers = try #require(evaluation.centers).to.map { $0 * scale }
            #expect(plan.quadCount == 9 * 4)
            #expect(surface.triangleCount == 2 * plan.quadCount)
            #expect(center.vertexCount == plan.pointCount + plan.quadCount)
            guard surface.triangleCount == 2 * plan.quadCount, centers.count == plan.quadCount else { return }

            var chosenSecond = 0, differsFromShortest = 0
            for q in 0..<plan.quadCount {
                let c = plan.quad(q)
                let corner = (0..<4).map { surface.positions[Int(c[$0])] }
                let centre = centers[q]
                // The `center` policy's centre vertex of quad q is the same surface point.
                // (Its four triangles are 4q…4q+3; the one vertex all four share is the centre.)
                let shared = center.triangles[4 * q..<4 * q + 4]
                    .map { Set([$0.x, $0.y, $0.z]) }
                    .reduce(Set([center.triangles[4 * q].x, center.triangles[4 * q].y, center.triangles[4 * q].z])) { $0.intersection($1) }
                #expect(shared.count == 1, "quad \(q)")
                if let m = shared.first {
                    #expect(S.close(center.positions[Int(m)], centre, relative: 1e-12), "quad \(q)")
                }

                let d02 = S.norm((corner[0] + corner[2]) / 2 - centre)
                let d13 = S.norm((corner[1] + corner[3]) / 2 - centre)
                let pair = S.canonicalSet(
                    [2 * q, 2 * q + 1].map { t in
                        let tri = surface.triangles[t]
                        return [tri.x, tri.y, tri.z].map { v in (0..<4).first { c[$0] == v } ?? -1 }
                    })
                let usesFirst = pair == Self.along02
                let usesSecond = pair == Self.along13
                #expect(usesFirst || usesSecond, "quad \(q): \(pair)")
                #expect(abs(d02 - d13) > 1e-9 * max(d02, d13), "quad \(q) is (nearly) a tie; choose another mesh")
                #expect(usesFirst == (d02 < d13), "quad \(q): d02 = \(d02), d13 = \(d13), triangles \(pair)")
                if usesSecond { chosenSecond += 1 }

                let shortestPair = S.canonicalSet(
                    [2 * q, 2 * q + 1].map { t in
                        let tri = shortest.triangles[t]
                        return [tri.x, tri.y, tri.z].map { v in (0..<4).first { c[$0] == v } ?? -1 }
                    })
                if shortestPair != pair { differsFromShortest += 1 }
            }
            // The case is not trivial: both diagonals occur, and `surface` differs from `shortest` somewhere.
            #expect(chosenSecond > 0 && chosenSecond < plan.quadCount)
            #expect(differsFromShortest > 0)
        }
    }
}

// MARK: - 5. OBJ

extension TessellationTests {
    @Suite struct OBJ {
        @Test(arguments: CoordinateSpace.allCases)
        func objReadsBack(space: CoordinateSpace) throws {
            let document = try TessSpacesFixture.document()
            let mesh = try Tessellator.tessellate(document, options: TessellationOptions(steps: .fixed(2)), space: space)
            try checkOBJ(mesh)
        }

        @Test func objOfAClippedMesh() throws {
            let setup = TessClipCase.cases[0]
            let grid = try MeshTransform.identity(rows: 2, columns: 2)
            let mesh = try grid.mappingVertices { v, _ in MeshVertex(from: v.from, to: Point3D(v.from.x, v.from.y, setup.zOf(v.from))) }
            let document = MeshDocument(
                mesh: mesh, layer: LayerProperties(size: setup.size, transform: Transform3D(elements: setup.elements)!))
            let out = try Tessellator.tessellate(document, options: TessellationOptions(steps: .fixed(1)), space: .screen)
            try checkOBJ(out)
        }

        func checkOBJ(_ mesh: TriangleMesh, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let bytes = mesh.objBytes()
            var pieces: [[UInt8]] = []
            mesh.writeOBJ { pieces.append($0) }
            #expect(pieces.flatMap { $0 } == bytes, sourceLocation: sourceLocation)
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(!text.contains("-0.0 ") && !text.contains("-0.0\n"), "negative zero is written as 0.0", sourceLocation: sourceLocation)
            #expect(text.hasSuffix("\n"), sourceLocation: sourceLocation)
            var v: [SIMD3<Double>] = [], vt: [SIMD2<Double>] = [], vn: [SIMD3<Double>] = []
            var faces: [SIMD3<Int32>] = []
            var other = 0
            for fields in S.objLines(bytes) {
                guard let tag = fields.first else { continue }
                let numbers = fields.dropFirst().map { Double(String($0)) }
                switch tag {
                case "v":
                    #expect(numbers.count == 3 && numbers.allSatisfy { $0 != nil }, "\(fields)", sourceLocation: sourceLocation)
                    v.append(SIMD3(numbers[0] ?? .nan, numbers[1] ?? .nan, numbers[2] ?? .nan))
                case "vt":
                    #expect(numbers.count == 2 && numbers.allSatisfy { $0 != nil }, "\(fields)", sourceLocation: sourceLocation)
                    vt.append(SIMD2(numbers[0] ?? .nan, numbers[1] ?? .nan))
                case "vn":
                    #expect(numbers.count == 3 && numbers.allSatisfy { $0 != nil }, "\(fields)", sourceLocation: sourceLocation)
                    vn.append(SIMD3(numbers[0] ?? .nan, numbers[1] ?? .nan, numbers[2] ?? .nan))
                case "f":
                    #expect(fields.count == 4, "\(fields)", sourceLocation: sourceLocation)
                    var tri = SIMD3<Int32>(-1, -1, -1)
                    for k in 0..<min(3, fields.count - 1) {
                        let parts = fields[k + 1].split(separator: "/", omittingEmptySubsequences: false)
                        #expect(
                            parts.count == 3 && parts[0] == parts[1] && parts[1] == parts[2],
                            "face vertex \(fields[k + 1]) is not a/a/a", sourceLocation: sourceLocation)
                        let index = Int(String(parts[0])) ?? 0
                        #expect(index >= 1 && index <= mesh.vertexCount, sourceLocation: sourceLocation)
                        tri[k] = Int32(index - 1)
                    }
                    faces.append(tri)
                default:
                    if !tag.hasPrefix("#") { other += 1 }
                }
            }
            #expect(other == 0, "unexpected lines", sourceLocation: sourceLocation)
            #expect(
                v.count == mesh.vertexCount && vt.count == mesh.vertexCount && vn.count == mesh.vertexCount,
                sourceLocation: sourceLocation)
            #expect(faces.count == mesh.triangleCount, sourceLocation: sourceLocation)
            guard v.count == mesh.vertexCount, vt.count == mesh.vertexCount, vn.count == mesh.vertexCount,
                faces.count == mesh.triangleCount
            else { return }
            for i in 0..<mesh.vertexCount {
                // Exact read-back (== also accepts 0.0 for −0.0).
                #expect(v[i] == mesh.positions[i], "v \(i)", sourceLocation: sourceLocation)
                #expect(vt[i] == SIMD2(mesh.from[i].x, 1 - mesh.from[i].y), "vt \(i)", sourceLocation: sourceLocation)
                #expect(vn[i] == mesh.normals[i], "vn \(i)", sourceLocation: sourceLocation)
            }
            #expect(faces == mesh.triangles, sourceLocation: sourceLocation)
        }

        /// The fast formatter writes exactly `Double.description`, except that −0.0 is `0.0`.
        @Test func shortestFormattingMatchesDescription() {
            var rng = S.Random(seed: 0xF0F0_1234)
            var values: [Double] = [
                0, -0.0, 1, -1, 0.1, -0.1, 0.5, 1.5, 100, 1e15, 1e16, 1e17, 9_007_199_254_740_992, 9_007_199_254_740_994,
                1e-4, 1e-5, 0.0001, 0.00001, 123456789.125, 1e22, 1e23, -1e300,
                .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude, -.leastNormalMagnitude,
                Double.leastNormalMagnitude.nextDown, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
                Double(Float.leastNonzeroMagnitude), 1.0 / 3, 2.0 / 3, .pi, -.pi, 0.30000000000000004,
            ]
            // Powers of two and of ten, and their neighbours.
            for e in -1074...1023 where e % 7 == 0 {
                let x = Double(sign: .plus, exponent: e, significand: 1)
                values += [x, x.nextUp, -x.nextDown]
            }
            for e in -323...308 where e % 3 == 0 {
                if let x = Double("1e\(e)") { values += [x, x.nextUp, x.nextDown] }
            }
            // Random bit patterns (every magnitude), subnormals, and decimal-looking numbers.
            while values.count < 4_000 {
                let x = Double(bitPattern: rng.next())
                if x.isFinite { values.append(x) }
            }
            while values.count < 6_000 {
                let mantissa = rng.next() & ((1 << 52) - 1)
                let sign: UInt64 = rng.next() & 1 == 0 ? 0 : 1 << 63
                values.append(Double(bitPattern: sign | mantissa))
            }
            while values.count < 8_000 {
                let digits = Int.random(in: 1...17, using: &rng)
                let mantissa = Int64.random(in: 1...Int64(pow(10.0, Double(digits)) - 1), using: &rng)
                let exponent = Int.random(in: -330...300, using: &rng)
                if let x = Double("\(rng.next() & 1 == 0 ? "" : "-")\(mantissa)e\(exponent)"), x.isFinite { values.append(x) }
            }
            while values.count < 10_000 {
                values.append(rng.uniform(-1e6...1e6) * pow(10, Double(Int.random(in: -20...20, using: &rng))))
            }
            #expect(values.count >= 10_000)
            #expect(values.contains { $0.isSubnormal && $0 < 0 } && values.contains { $0.isSubnormal && $0 > 0 })

            var mismatches: [String] = []
            for x in values {
                var bytes: [UInt8] = []
                bytes.appendShortest(x)
                let text = String(decoding: bytes, as: UTF8.self)
                let expected = x == 0 ? "0.0" : x.description
                if text != expected { mismatches.append("\(x.bitPattern): wrote \(text), expected \(expected)") }
                #expect(Double(text) == x, "\(text) does not read back to \(x)")
            }
            #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, e.g. \(mismatches.prefix(5))")
            // Appending keeps what is there.
            var bytes = Array("v ".utf8)
            bytes.appendShortest(-0.0)
            bytes.appendShortest(2.5)
            #expect(String(decoding: bytes, as: UTF8.self) == "v 0.02.5")
        }
    }
}

// MARK: - 6. Budget

extension TessellationTests {
    @Suite struct Budget {
        /// The message with digit-group separators removed, so "2,199,023,255,552" matches too.
        static func digits(_ message: String) -> String {
            String(message.filter { !",_\u{2009}\u{202F}'".contains($0) })
        }

        @Test(arguments: [(1, 1), (2, 3)] as [(Int, Int)])
        func twentyStepsIsRefusedWithTheCount(rows: Int, columns: Int) throws {
            let mesh = try MeshTransform.identity(rows: rows, columns: columns)
            // 2 triangles per sub-quad, 4²⁰ sub-quads per face.
            let needed = 2 * (1 << 40) * rows * columns
            do {
                _ = try Tessellator(mesh: mesh, options: TessellationOptions(steps: .fixed(20)))
                Issue.record("steps 20 was accepted")
            } catch let error as MeshError {
                #expect(error.kind == .limitExceeded)
                #expect(
                    Self.digits(error.message).contains(String(needed)),
                    "the message should state the \(needed) triangles needed: \(error.message)")
                #expect(error.message.contains("triangle"), "\(error.message)")
            }
        }

        @Test func smallBudgetStatesTheNeededCount() throws {
            let mesh = try MeshTransform.identity(rows: 2, columns: 3)
            for (diagonal, perQuad) in [(DiagonalPolicy.shortest, 2), (.first, 2), (.center, 4)] {
                let needed = perQuad * 16 * 6 // steps 2: 4² sub-quads per face, 6 faces
                do {
                    _ = try Tessellator(
                        mesh: mesh, options: TessellationOptions(steps: .fixed(2), diagonal: diagonal, maximumTriangles: needed - 1))
                    Issue.record("a budget of \(needed - 1) was accepted for \(needed) triangles")
                } catch let error as MeshError {
                    #expect(error.kind == .limitExceeded)
                    #expect(Self.digits(error.message).contains(String(needed)), "\(error.message)")
                }
                // Exactly the budget is fine.
                let tessellator = try Tessellator(
                    mesh: mesh, options: TessellationOptions(steps: .fixed(2), diagonal: diagonal, maximumTriangles: needed))
                let out = try tessellator.tessellate(mesh, geometry: MeshDocument(mesh: mesh).geometry, space: .unit)
                #expect(out.triangleCount == needed)
            }
            // Through the one-call API too.
            #expect(throws: MeshError.self) {
                _ = try Tessellator.tessellate(
                    MeshDocument(mesh: mesh), options: TessellationOptions(steps: .fixed(1), maximumTriangles: 47))
            }
        }
    }
}

// MARK: - 7. Refine once, evaluate many

extension TessellationTests {
    @Suite struct RefineOnce {
        @Test(arguments: DiagonalPolicy.allCases)
        func movedMeshMatchesAFreshTessellator(diagonal: DiagonalPolicy) throws {
            let grid = try MeshTransform.identity(rows: 4, columns: 4, depthNormalization: .average)
            let moved = try S.jitteredGrid(rows: 4, columns: 4, seed: 0x0A11_E7, jitter: 0.3, depth: 0.2, depthNormalization: .average)
            #expect(moved.faces == grid.faces)
            #expect(moved.vertices != grid.vertices)
            var layer = LayerProperties(size: SIMD2(200, 100), anchor: LayerPoint(0.4, 0.5))
            layer.transform = TessSpacesFixture.transform
            let geometry = MeshDocument(mesh: moved, layer: layer).geometry
            for steps in [0, 2, 3] {
                let options = TessellationOptions(steps: .fixed(steps), diagonal: diagonal)
                let reused = try Tessellator(mesh: grid, options: options)
                let fresh = try Tessellator(mesh: moved, options: options)
                for space in CoordinateSpace.allCases {
                    let before = try reused.tessellate(grid, geometry: geometry, space: space)
                    let a = try reused.tessellate(moved, geometry: geometry, space: space)
                    let b = try fresh.tessellate(moved, geometry: geometry, space: space)
                    #expect(a == b, "steps \(steps), \(space)")
                    #expect(a.positions == b.positions)
                    #expect(before.positions != a.positions)
                    // And back: the reused tessellator still gives the grid's own result.
                    #expect(try reused.tessellate(grid, geometry: geometry, space: space) == before)
                }
            }
        }
    }
}
