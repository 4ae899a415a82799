import Foundation
import SurfaceKit
import Testing

@testable import MeshTessellate

// Tests of automatic steps (Docs/automatic-steps.md). The limit surface is evaluated here, independently: on a
// grid mesh every face is a uniform (rational) bicubic B-spline patch of the grid's control points,
// extended beyond the border by P₋₁ = 2P₀ − P₁, and `from` (an affine grid with equal weights)
// gives each output vertex's parameters. Deviation is measured at several barycentric points of
// every triangle, against the surface point at the same parameters.

private typealias S = TessSupport

@Suite struct AutomaticStepsTests {
    /// A rows × columns grid over the unit square, vertex (i, j) at index i·(C+1)+j with
    /// from = (j/C, i/R) and to = (from, height(from)).
    static func grid(rows: Int, columns: Int, height: (SIMD2<Double>) -> Double) throws -> MeshTransform {
        var vertices: [MeshVertex] = []
        for i in 0...rows {
            for j in 0...columns {
                let p = SIMD2(Double(j) / Double(columns), Double(i) / Double(rows))
                vertices.append(MeshVertex(from: p, to: SIMD3(p.x, p.y, height(p))))
            }
        }
        var faces: [MeshFace] = []
        for i in 0..<rows {
            for j in 0..<columns {
                let a = i * (columns + 1) + j
                faces.append(MeshFace(a, a + 1, a + columns + 2, a + columns + 1))
            }
        }
        return try MeshTransform(vertices: vertices, faces: faces, depthNormalization: .width)
    }

    /// The article's ripple on a grid: z = 0.05·sin(2π·4·r), r the distance from the centre.
    static func ripple(rows: Int, columns: Int) throws -> MeshTransform {
        try grid(rows: rows, columns: columns) { p in
            let d = p - SIMD2(0.5, 0.5)
            return 0.05 * sin(2 * Double.pi * 4 * (d * d).sum().squareRoot())
        }
    }

    /// The limit surface of a grid mesh with equal weights, written out: the control net extended
    /// by one phantom row and column on every side, then the B-spline basis both ways.
    struct GridSurface {
        let rows: Int, columns: Int
        /// (rows + 3) × (columns + 3) control points, index (i + 1)·(columns + 3) + (j + 1).
        let net: [SIMD3<Double>]

        init(mesh: MeshTransform, rows: Int, columns: Int) {
            self.rows = rows
            self.columns = columns
            let width = columns + 3
            var net = [SIMD3<Double>](repeating: .zero, count: (rows + 3) * width)
            for i in 0...rows {
                for j in 0...columns { net[(i + 1) * width + j + 1] = mesh.vertices[i * (columns + 1) + j].to }
                net[(i + 1) * width] = 2 * net[(i + 1) * width + 1] - net[(i + 1) * width + 2]
                net[(i + 1) * width + columns + 2] = 2 * net[(i + 1) * width + columns + 1] - net[(i + 1) * width + columns]
            }
            for j in 0..<width {
                net[j] = 2 * net[width + j] - net[2 * width + j]
                net[(rows + 2) * width + j] = 2 * net[(rows + 1) * width + j] - net[rows * width + j]
            }
            self.net = net
        }

        /// The surface point at layer point `p` (unit `to`).
        func point(at p: SIMD2<Double>) -> SIMD3<Double> {
            let x = min(max(p.x * Double(columns), 0), Double(columns)), y = min(max(p.y * Double(rows), 0), Double(rows))
            let j = min(Int(x), columns - 1), i = min(Int(y), rows - 1)
            let bu = HitSupport.basis(x - Double(j)), bv = HitSupport.basis(y - Double(i))
            var s = SIMD3<Double>.zero
            for a in 0..<4 {
                for b in 0..<4 {
                    s += bv[a] * bu[b] * net[(i + a) * (columns + 3) + j + b]
                }
            }
            return s
        }

        /// The largest distance, in points, between a triangle point and the surface point with
        /// the same parameters, over 10 barycentric points of every triangle.
        func deviation(of mesh: TriangleMesh, scale: SIMD3<Double>) -> Double {
            let weights: [SIMD3<Double>] = [
                SIMD3(1, 1, 1) / 3, SIMD3(0.5, 0.5, 0), SIMD3(0, 0.5, 0.5), SIMD3(0.5, 0, 0.5),
                SIMD3(2, 1, 1) / 4, SIMD3(1, 2, 1) / 4, SIMD3(1, 1, 2) / 4,
                SIMD3(0.25, 0.75, 0), SIMD3(0, 0.25, 0.75), SIMD3(0.75, 0, 0.25),
            ]
            var worst = 0.0
            for t in mesh.triangles {
                let k = [Int(t.x), Int(t.y), Int(t.z)]
                for w in weights {
                    let from = w.x * mesh.from[k[0]] + w.y * mesh.from[k[1]] + w.z * mesh.from[k[2]]
                    let linear = w.x * mesh.positions[k[0]] + w.y * mesh.positions[k[1]] + w.z * mesh.positions[k[2]]
                    worst = max(worst, S.norm(point(at: from) * scale - linear))
                }
            }
            return worst
        }
    }

    /// Edge use by vertex pairs: every edge inside the layer used by exactly two triangles, edges on
    /// the layer's border by one (so no crack and no T-junction), and no triangle degenerate.
    /// The triangles of the fewest uniform steps (0 to 4) whose tessellation lies within
    /// `tolerance` of `surface` at every measured point; `nil` when none of them does.
    static func fewestUniformTriangles(_ document: MeshDocument, surface: GridSurface, tolerance: Double) throws -> Int? {
        let scale = document.geometry.pointScale
        for n in 0...4 {
            let uniform = try Tessellator.tessellate(document, options: TessellationOptions(steps: .fixed(n)), space: .points)
            if surface.deviation(of: uniform, scale: scale) <= tolerance { return uniform.triangleCount }
        }
        return nil
    }

    static func checkWatertight(_ mesh: TriangleMesh) {
        var uses: [SIMD2<Int32>: Int] = [:]
        for t in mesh.triangles {
            #expect(t.x != t.y && t.y != t.z && t.z != t.x)
            for (a, b) in [(t.x, t.y), (t.y, t.z), (t.z, t.x)] {
                uses[SIMD2(min(a, b), max(a, b)), default: 0] += 1
            }
        }
        var bad = 0
        for (edge, count) in uses {
            let onBorder = S.onSameBorder(mesh.from[Int(edge.x)], mesh.from[Int(edge.y)])
            if count != (onBorder ? 1 : 2) { bad += 1 }
        }
        #expect(bad == 0, "\(bad) edges are not used twice inside or once on the border")
    }

    static func document(_ mesh: MeshTransform, size: Double) -> MeshDocument {
        MeshDocument(mesh: mesh, layer: LayerProperties(size: SIMD2(size, size)))
    }

    // MARK: - Deviation and watertightness

    /// On the ripple, every triangle is within τ of the surface at every tolerance, and the mesh is
    /// watertight; every policy.
    @Test(arguments: [8.0, 2.0, 0.5])
    func rippleWithinTolerance(tolerance: Double) throws {
        let mesh = try AutomaticStepsTests.ripple(rows: 12, columns: 12)
        let document = AutomaticStepsTests.document(mesh, size: 1000)
        let surface = GridSurface(mesh: mesh, rows: 12, columns: 12)
        for policy in DiagonalPolicy.allCases {
            let tessellator = try AdaptiveTessellator(mesh: mesh, options: TessellationOptions(diagonal: policy))
            let result = try tessellator.tessellate(mesh, geometry: document.geometry, space: .points, tolerance: tolerance)
            let deviation = surface.deviation(of: result.mesh, scale: document.geometry.pointScale)
            #expect(deviation <= tolerance, "\(policy): \(deviation) > \(tolerance)")
            #expect(result.report.worstDeviation <= tolerance)
            #expect(result.report.triangleCount == result.mesh.triangleCount)
            AutomaticStepsTests.checkWatertight(result.mesh)
            // Densities differ from face to face (that is the point), so stitching was exercised.
            #expect(result.report.smallestRate < result.report.largestRate)
        }
    }

    /// Rational faces (weights that differ from vertex to vertex, all faces agreeing): within τ of
    /// the rational patch written out here.
    @Test func rationalGridWithinTolerance() throws {
        let (mesh, weights) = try HitSupport.grid(rows: 3, columns: 4, seed: 7, depth: 0.2, weights: 0.5...3)
        let document = AutomaticStepsTests.document(mesh, size: 400)
        let scale = document.geometry.pointScale
        let tolerance = 0.2
        let result = try AdaptiveTessellator(mesh: mesh).tessellate(
            mesh, geometry: document.geometry, space: .points, tolerance: tolerance)
        AutomaticStepsTests.checkWatertight(result.mesh)
        // Parameters of each output vertex: find them by Newton on `from` (rational, so not affine).
        var worst = 0.0
        for (t, face) in zip(result.mesh.triangles, result.mesh.sourceFaces) {
            let i = Int(face) / 4, j = Int(face) % 4
            var control: [[MeshVertex]] = [], w: [[Double]] = []
            for a in 0..<4 {
                var column: [MeshVertex] = [], cw: [Double] = []
                for b in 0..<4 {
                    let (vertex, weight) = AutomaticStepsTests.extended(mesh, weights, rows: 3, columns: 4, i: i + b - 1, j: j + a - 1)
                    column.append(vertex)
                    cw.append(weight)
                }
                control.append(column)
                w.append(cw)
            }
            func parameters(of from: SIMD2<Double>) -> SIMD2<Double> {
                var uv = SIMD2(from.x * 4 - Double(j), from.y * 3 - Double(i))
                for _ in 0..<30 {
                    let f0 = HitSupport.patchPoint(control: control, weights: w, u: uv.x, v: uv.y).from - from
                    if abs(f0.x) + abs(f0.y) < 1e-15 { break }
                    let h = 1e-7
                    let fu = (HitSupport.patchPoint(control: control, weights: w, u: uv.x + h, v: uv.y).from - from - f0) / h
                    let fv = (HitSupport.patchPoint(control: control, weights: w, u: uv.x, v: uv.y + h).from - from - f0) / h
                    let det = fu.x * fv.y - fu.y * fv.x
                    uv -= SIMD2(fv.y * f0.x - fv.x * f0.y, -fu.y * f0.x + fu.x * f0.y) / det
                }
                return uv
            }
            let k = [Int(t.x), Int(t.y), Int(t.z)]
            let uv = k.map { parameters(of: result.mesh.from[$0]) }
            for b in [SIMD3(1.0, 1, 1) / 3, SIMD3(0.5, 0.5, 0), SIMD3(0, 0.5, 0.5), SIMD3(0.5, 0, 0.5)] {
                let p = b.x * uv[0] + b.y * uv[1] + b.z * uv[2]
                let linear = b.x * result.mesh.positions[k[0]] + b.y * result.mesh.positions[k[1]] + b.z * result.mesh.positions[k[2]]
                let surface = HitSupport.patchPoint(control: control, weights: w, u: p.x, v: p.y).to * scale
                worst = max(worst, S.norm(surface - linear))
            }
        }
        #expect(worst <= tolerance, "\(worst)")
        #expect(result.report.largestRate > 1)
    }

    /// Control vertex (i, j) of a grid, extended past the border by P₋₁ = 2P₀ − P₁ on homogeneous
    /// values (W·P, W), with its weight.
    static func extended(_ mesh: MeshTransform, _ w: [Double], rows: Int, columns: Int, i: Int, j: Int) -> (MeshVertex, Double) {
        func homogeneous(_ i: Int, _ j: Int) -> (SIMD2<Double>, SIMD3<Double>, Double) {
            if i < 0 { let (a, b, c) = homogeneous(0, j), (d, e, f) = homogeneous(1, j); return (2 * a - d, 2 * b - e, 2 * c - f) }
            if i > rows {
                let (a, b, c) = homogeneous(rows, j), (d, e, f) = homogeneous(rows - 1, j); return (2 * a - d, 2 * b - e, 2 * c - f)
            }
            if j < 0 { let (a, b, c) = homogeneous(i, 0), (d, e, f) = homogeneous(i, 1); return (2 * a - d, 2 * b - e, 2 * c - f) }
            if j > columns {
                let (a, b, c) = homogeneous(i, columns), (d, e, f) = homogeneous(i, columns - 1); return (2 * a - d, 2 * b - e, 2 * c - f)
            }
            let k = i * (columns + 1) + j
            return (w[k] * mesh.vertices[k].from, w[k] * mesh.vertices[k].to, w[k])
        }
        let (from, to, weight) = homogeneous(i, j)
        return (MeshVertex(from: from / weight, to: to / weight), weight)
    }

    // MARK: - Extraordinary vertices

    /// A cube whose faces are n × n grids, pushed halfway to the sphere through its corners: the
    /// eight cube corners have valence 3, every other vertex valence 4. Grid point g ∈ {0…n}³ on
    /// the cube's surface is one vertex.
    static func roundedCube(divisions n: Int) throws -> MeshTransform {
        var index: [SIMD3<Int>: Int] = [:]
        var vertices: [MeshVertex] = []
        func vertex(_ g: SIMD3<Int>) -> Int {
            if let k = index[g] { return k }
            let p = SIMD3<Double>(Double(g.x), Double(g.y), Double(g.z)) / Double(n) - 0.5
            let onSphere = p / (p * p).sum().squareRoot() * 0.5
            let to = 0.5 * p + 0.5 * onSphere + 0.5
            index[g] = vertices.count
            vertices.append(MeshVertex(from: SIMD2(to.x, to.y), to: to))
            return vertices.count - 1
        }
        var faces: [MeshFace] = []
        for axis in 0..<3 {
            for side in 0..<2 {
                let b = (axis + 1) % 3, c = (axis + 2) % 3
                for i in 0..<n {
                    for j in 0..<n {
                        var quad: [SIMD3<Int>] = []
                        for (x, y) in [(0, 0), (1, 0), (1, 1), (0, 1)] {
                            var g = SIMD3<Int>(repeating: 0)
                            g[axis] = side * n
                            g[b] = i + x
                            g[c] = j + y
                            quad.append(g)
                        }
                        // (b, c, axis) is right-handed, so this winding faces +axis: flip on side 0.
                        if side == 0 { quad = [quad[0], quad[3], quad[2], quad[1]] }
                        faces.append(MeshFace(vertex(quad[0]), vertex(quad[1]), vertex(quad[2]), vertex(quad[3])))
                    }
                }
            }
        }
        return try MeshTransform(vertices: vertices, faces: faces, depthNormalization: .width)
    }

    /// Faces next to valence-3 vertices (isolated pieces) stitched to B-spline faces: a closed
    /// surface whose every edge is used by exactly two triangles, whose cube corners are at the
    /// limit position (n²v + 4Σe + Σd)/(n(n + 5)) with n = 3, within τ as measured.
    @Test func roundedCubeIsClosedAndHitsTheLimitAtItsCorners() throws {
        let mesh = try AutomaticStepsTests.roundedCube(divisions: 3)
        let document = AutomaticStepsTests.document(mesh, size: 200)
        let scale = document.geometry.pointScale
        let tolerance = 0.5
        let result = try AdaptiveTessellator(mesh: mesh).tessellate(
            mesh, geometry: document.geometry, space: .points, tolerance: tolerance)
        #expect(result.report.irregularFaces == 24)
        #expect(result.report.largestRate > 1)
        #expect(result.report.worstDeviation <= tolerance)
        var uses: [SIMD2<Int32>: Int] = [:]
        for t in result.mesh.triangles {
            #expect(t.x != t.y && t.y != t.z && t.z != t.x)
            for (a, b) in [(t.x, t.y), (t.y, t.z), (t.z, t.x)] { uses[SIMD2(min(a, b), max(a, b)), default: 0] += 1 }
        }
        #expect(uses.values.allSatisfy { $0 == 2 }, "\(uses.values.filter { $0 != 2 }.count) edges not used twice")
        // The limit mask at each cube corner, from the control vertices around it.
        var checked = 0
        for (v, vertex) in mesh.vertices.enumerated() {
            let around = mesh.faces.map { [$0.indices.x, $0.indices.y, $0.indices.z, $0.indices.w] }.filter { $0.contains(v) }
            guard around.count == 3 else { continue }
            var edges = SIMD3<Double>.zero, diagonals = SIMD3<Double>.zero
            for face in around {
                let k = try #require(face.firstIndex(of: v))
                edges += mesh.vertices[face[(k + 1) % 4]].to / 2 + mesh.vertices[face[(k + 3) % 4]].to / 2
                diagonals += mesh.vertices[face[(k + 2) % 4]].to
            }
            let limit = (9 * vertex.to + 4 * edges + diagonals) / 24 * scale
            let nearest = result.mesh.positions.map { S.norm($0 - limit) }.min() ?? .infinity
            #expect(nearest <= 1e-9 * 200, "corner \(v): \(nearest)")
            checked += 1
        }
        #expect(checked == 8)
    }

    // MARK: - Fewer triangles than uniform

    /// On the reference ripple (Docs/performance.md: 100 × 100 faces) on a 1000 × 1000 pt layer with depth
    /// scaled by the width, at τ = 0.5 pt: at most half the triangles of the smallest uniform steps
    /// that meet τ (the uniform deviation measured here with the same surface), for the default
    /// policy and for a fixed diagonal.
    @Test(arguments: [DiagonalPolicy.shortest, .first])
    func rippleUsesAtMostHalfOfUniform(policy: DiagonalPolicy) throws {
        let mesh = try AutomaticStepsTests.ripple(rows: 100, columns: 100)
        let document = AutomaticStepsTests.document(mesh, size: 1000)
        let surface = GridSurface(mesh: mesh, rows: 100, columns: 100)
        let scale = document.geometry.pointScale
        let tolerance = 0.5
        let options = TessellationOptions(diagonal: policy)
        let adaptive = try AdaptiveTessellator(mesh: mesh, options: options).tessellate(
            mesh, geometry: document.geometry, space: .points, tolerance: tolerance)
        #expect(surface.deviation(of: adaptive.mesh, scale: scale) <= tolerance)
        var uniformTriangles: Int?
        for n in 0...3 {
            var stepOptions = options
            stepOptions.steps = .fixed(n)
            let uniform = try Tessellator.tessellate(document, options: stepOptions, space: .points)
            if surface.deviation(of: uniform, scale: scale) <= tolerance {
                uniformTriangles = uniform.triangleCount
                break
            }
        }
        let uniform = try #require(uniformTriangles)
        #expect(2 * adaptive.mesh.triangleCount <= uniform, "\(adaptive.mesh.triangleCount) adaptive vs \(uniform) uniform")
    }

    // MARK: - Held-out ripples

    /// A ripple other than the reference one: z = amplitude·sin(2π·frequency·|p − centre|).
    struct HeldOutRipple: Sendable, CustomTestStringConvertible {
        var rows: Int, columns: Int
        var frequency: Double, amplitude: Double
        var centre: SIMD2<Double>
        var side: Double
        var tolerance: Double
        /// The most of the fewest uniform steps' triangles that automatic steps may take.
        var mostOfUniform = 0.35

        var testDescription: String {
            "\(rows)×\(columns), f \(frequency), a \(amplitude), centre \(centre), \(side) pt, τ \(tolerance)"
        }

        func mesh() throws -> MeshTransform {
            try AutomaticStepsTests.grid(rows: rows, columns: columns) { p in
                let d = p - centre
                return amplitude * sin(2 * Double.pi * frequency * (d * d).sum().squareRoot())
            }
        }
    }

    /// Ripples the rates were not tuned on. The first, with `shortest`, once stopped after five
    /// rounds at 0.526 pt over τ = 0.5 pt: densifying a cell adds samples to its neighbours' sides,
    /// which reshapes their joining rings, and the miss moved from cell to cell.
    static let heldOutRipples: [HeldOutRipple] = [
        HeldOutRipple(rows: 24, columns: 24, frequency: 2, amplitude: 0.04, centre: SIMD2(0.45, 0.55), side: 1000, tolerance: 0.5),
        HeldOutRipple(
            rows: 30, columns: 20, frequency: 3, amplitude: 0.03, centre: SIMD2(0.45, 0.55), side: 800, tolerance: 0.3),
        HeldOutRipple(rows: 16, columns: 20, frequency: 2.5, amplitude: 0.05, centre: SIMD2(0.3, 0.6), side: 600, tolerance: 0.25),
        HeldOutRipple(rows: 20, columns: 20, frequency: 1.5, amplitude: 0.06, centre: SIMD2(0.62, 0.41), side: 1000, tolerance: 0.8),
        HeldOutRipple(rows: 24, columns: 24, frequency: 2, amplitude: 0.04, centre: SIMD2(0.45, 0.55), side: 1000, tolerance: 0.35),
    ]

    /// On every held-out ripple and diagonal, every triangle is within τ of the B-spline surface
    /// written out here (10 points a triangle), the report agrees, and the mesh is watertight.
    @Test(arguments: heldOutRipples)
    func heldOutRippleWithinTolerance(ripple: HeldOutRipple) throws {
        let mesh = try ripple.mesh()
        let document = AutomaticStepsTests.document(mesh, size: ripple.side)
        let surface = GridSurface(mesh: mesh, rows: ripple.rows, columns: ripple.columns)
        for policy in [DiagonalPolicy.shortest, .first, .second] {
            let result = try AdaptiveTessellator(mesh: mesh, options: TessellationOptions(diagonal: policy)).tessellate(
                mesh, geometry: document.geometry, space: .points, tolerance: ripple.tolerance)
            let deviation = surface.deviation(of: result.mesh, scale: document.geometry.pointScale)
            #expect(deviation <= ripple.tolerance, "\(policy): \(deviation) pt over τ after \(result.report.rounds) rounds")
            #expect(result.report.worstDeviation <= ripple.tolerance)
            AutomaticStepsTests.checkWatertight(result.mesh)
        }
    }

    /// On every held-out ripple, with the default diagonal, automatic steps take at most 0.35 of
    /// the triangles of the fewest uniform steps whose deviation (measured here, 10 points a
    /// triangle) is within τ (Docs/automatic-steps.md).
    @Test(arguments: heldOutRipples)
    func heldOutRippleUsesFewTriangles(ripple: HeldOutRipple) throws {
        let mesh = try ripple.mesh()
        let document = AutomaticStepsTests.document(mesh, size: ripple.side)
        let surface = GridSurface(mesh: mesh, rows: ripple.rows, columns: ripple.columns)
        let scale = document.geometry.pointScale
        let adaptive = try AdaptiveTessellator(mesh: mesh).tessellate(
            mesh, geometry: document.geometry, space: .points, tolerance: ripple.tolerance)
        #expect(surface.deviation(of: adaptive.mesh, scale: scale) <= ripple.tolerance)
        let uniformTriangles = try AutomaticStepsTests.fewestUniformTriangles(
            document, surface: surface, tolerance: ripple.tolerance)
        let uniform = Double(try #require(uniformTriangles))
        let share = Double(adaptive.mesh.triangleCount) / uniform
        #expect(share <= ripple.mostOfUniform, "\(adaptive.mesh.triangleCount) triangles, \(share) of uniform")
    }

    /// A failing cell grows by the square root of how far it missed, at least doubles when
    /// asked to, never shrinks, and stops at the most segments, where densifying reports no growth.
    @Test func densifyGrowsEveryFailingCellUpToTheMost() {
        let cap = AdaptiveTessellator.maximumRate
        var rates = CellRates(u: [3, 5, cap], v: [2, 5, cap])
        // Cell 0 missed by 4×: √4 · 1.15 = 2.3 → 7 and 5; cell 1 is not failing.
        let grew1 = rates.densify([0, 2], deviations: [4, 100, 100], tolerance: 1)
        #expect(grew1)
        #expect(rates.u == [7, 5, cap] && rates.v == [5, 5, cap])
        // Barely over τ: at least one more segment; aggressive: at least double.
        let grew2 = rates.densify([0], deviations: [1.0001, 0, 0], tolerance: 1)
        #expect(grew2)
        #expect(rates.u[0] == 9 && rates.v[0] == 6)
        let grew3 = rates.densify([0], deviations: [1.0001, 0, 0], tolerance: 1, aggressive: true)
        #expect(grew3)
        #expect(rates.u[0] == 18 && rates.v[0] == 12)
        // Unmeasurable and absurd deviations go to the cap; at the cap nothing grows.
        let grew4 = rates.densify([0, 1], deviations: [.nan, .infinity, 0], tolerance: 1)
        #expect(grew4)
        #expect(rates.u == [cap, cap, cap] && rates.v == [cap, cap, cap])
        let grew5 = rates.densify([0, 1, 2], deviations: [9, 9, 9], tolerance: 1, aggressive: true)
        #expect(!grew5)
    }

    // MARK: - Flat meshes

    /// A flat mesh, the identity or any affine map of it, needs no subdivision: one quad a face.
    @Test func flatMeshNeedsNoSubdivision() throws {
        let identity = try MeshTransform.identity(rows: 4, columns: 5)
        var affine = identity
        try affine.mapVertices { vertex, _ in
            let p = vertex.from
            return MeshVertex(from: p, to: SIMD3(0.8 * p.x + 0.3 * p.y + 0.1, -0.2 * p.x + 0.9 * p.y, 0))
        }
        for mesh in [identity, affine] {
            let document = MeshDocument(mesh: mesh, layer: LayerProperties(size: SIMD2(300, 200)))
            let result = try AdaptiveTessellator(mesh: mesh).tessellate(mesh, geometry: document.geometry, space: .unit)
            #expect(result.report.largestRate == 1)
            #expect(result.mesh.triangleCount == 2 * 20)
            #expect(result.mesh.vertexCount == 5 * 6)
            #expect(result.report.worstDeviation <= 1e-9)
            for (p, from) in zip(result.mesh.positions, result.mesh.from) {
                let expected =
                    mesh == identity ? SIMD3(from.x, from.y, 0) : SIMD3(0.8 * from.x + 0.3 * from.y + 0.1, -0.2 * from.x + 0.9 * from.y, 0)
                #expect(S.norm(p - expected) <= 1e-12)
            }
        }
    }

    // MARK: - Budget

    /// A tolerance that would take more triangles than the budget is refused with the count.
    @Test func budgetRefusesWithTheCount() throws {
        let mesh = try AutomaticStepsTests.ripple(rows: 10, columns: 10)
        let document = AutomaticStepsTests.document(mesh, size: 1000)
        let tessellator = try AdaptiveTessellator(mesh: mesh, options: TessellationOptions(maximumTriangles: 1000))
        do {
            _ = try tessellator.tessellate(mesh, geometry: document.geometry, space: .unit, tolerance: 0.5)
            Issue.record("no error")
        } catch let error as MeshError {
            #expect(error.kind == .limitExceeded)
            #expect(error.message.contains("over the budget of 1000"))
            let count = error.message.split(separator: " ").compactMap { Int($0) }.first ?? 0
            #expect(count > 1000)
        }
        // A tolerance no face can reach within the most segments: refused, naming the face.
        do {
            _ = try AdaptiveTessellator(mesh: mesh).tessellate(mesh, geometry: document.geometry, space: .unit, tolerance: 1e-9)
            Issue.record("no error")
        } catch let error as MeshError {
            #expect(error.kind == .limitExceeded)
            #expect(error.path.hasPrefix("faces["))
        }
    }

    /// A tolerance that is not a positive finite number is an error naming `tolerance`.
    @Test(arguments: [0.0, -1.0, Double.nan, Double.infinity])
    func badTolerance(tolerance: Double) throws {
        let mesh = try MeshTransform.identity(rows: 1, columns: 1)
        let document = AutomaticStepsTests.document(mesh, size: 10)
        #expect(throws: MeshError.self) {
            _ = try AdaptiveTessellator(mesh: mesh).tessellate(mesh, geometry: document.geometry, space: .unit, tolerance: tolerance)
        }
    }
}
