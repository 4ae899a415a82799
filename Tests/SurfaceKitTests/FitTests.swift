import Foundation
import TestSupport
import Testing

@testable import SurfaceKit

// Tests of fitting (Docs/fitting.md): control points whose limit surface passes through given points.
// The property checked is the definition itself: the surface, evaluated by the subdivision plan
// (refinement, then the limit masks of the refined level, a different path from the control-level
// masks the fit inverts), passes through every given vertex. The tensor-product structure and the
// singular cube are checked against the limit masks of Docs/surface.md written out here.

// MARK: - Fixtures

private enum FitFixtures {
    /// An R × C identity grid, then `to.z` a ripple 0.05·sin(2π·4·r) (r the distance from the
    /// centre, as the W4 benchmark, Docs/performance.md), `from` and `to.xy` jittered, and weights from `weight`
    /// per face corner (faces agree when it depends on the vertex only).
    static func grid(
        rows: Int, columns: Int, seed: UInt64 = 1, jitter: Double = 0.2,
        weight: (_ vertex: Int, _ face: Int, _ rng: inout SplitMix64) -> Double = { _, _, _ in 1 }
    ) throws -> MeshTransform {
        var rng = SplitMix64(seed: seed)
        let identity = try MeshTransform.identity(rows: rows, columns: columns)
        let cell = SIMD2(1 / Double(columns), 1 / Double(rows))
        var vertices: [MeshVertex] = []
        for v in identity.vertices {
            let p = v.from
            let r = ((p - SIMD2(0.5, 0.5)) * (p - SIMD2(0.5, 0.5))).sum().squareRoot()
            let from = p + jitter * cell * SIMD2(rng.uniform(-1...1), rng.uniform(-1...1))
            let xy = p + jitter * cell * SIMD2(rng.uniform(-1...1), rng.uniform(-1...1))
            vertices.append(MeshVertex(from: from, to: SIMD3(xy.x, xy.y, 0.05 * sin(2 * Double.pi * 4 * r))))
        }
        var faces: [MeshFace] = []
        for (f, face) in identity.faces.enumerated() {
            var w = SIMD4<Double>()
            for k in 0..<4 { w[k] = weight(face.indices[k], f, &rng) }
            faces.append(MeshFace(indices: face.indices, weights: w))
        }
        return try MeshTransform(vertices: vertices, faces: faces)
    }

    /// n quads around a centre vertex (an interior vertex of valence n), refined once on indices
    /// so that the centre keeps valence n among regular interior, boundary and corner vertices.
    /// Positions: the refined points of the plain (linear) subdivision of a star, then a bump in
    /// z and a jitter, so nothing is planar or symmetric.
    static func refinedFan(valence n: Int, seed: UInt64) throws -> MeshTransform {
        var faces: [MeshFace] = []
        var points: [SIMD2<Double>] = [SIMD2(0, 0)]
        for i in 0..<n {
            let a = 2 * Double.pi * Double(i) / Double(n), b = 2 * Double.pi * (Double(i) + 0.5) / Double(n)
            points.append(SIMD2(cos(a), sin(a)))
            points.append(1.4 * SIMD2(cos(b), sin(b)))
        }
        for i in 0..<n {
            faces.append(MeshFace(0, 1 + 2 * i, 2 + 2 * i, 1 + 2 * ((i + 1) % n)))
        }
        let level = try SurfaceTopology(faces: faces, vertexCount: points.count).level
        let child = level.refined()
        for e in 0..<level.edgeCount {
            points.append((points[Int(level.edgeVertices[2 * e])] + points[Int(level.edgeVertices[2 * e + 1])]) / 2)
        }
        for f in 0..<level.faceCount {
            var sum = SIMD2<Double>()
            for k in 0..<4 { sum += points[Int(level.faceVertices[4 * f + k])] }
            points.append(sum / 4)
        }
        var rng = SplitMix64(seed: seed)
        let vertices = points.map { p -> MeshVertex in
            let from = SIMD2(0.5, 0.5) + 0.3 * p + 0.02 * SIMD2(rng.uniform(-1...1), rng.uniform(-1...1))
            let z = 0.2 * exp(-(p * p).sum()) + 0.03 * rng.uniform(-1...1)
            return MeshVertex(from: from, to: SIMD3(0.5 + 0.35 * p.x, 0.5 + 0.3 * p.y, z))
        }
        let childFaces = (0..<child.faceCount).map { f -> MeshFace in
            MeshFace(
                Int(child.faceVertices[4 * f]), Int(child.faceVertices[4 * f + 1]),
                Int(child.faceVertices[4 * f + 2]), Int(child.faceVertices[4 * f + 3]),
                weights: SIMD4(rng.uniform(0.5...2), rng.uniform(0.5...2), rng.uniform(0.5...2), rng.uniform(0.5...2)))
        }
        return try MeshTransform(vertices: vertices, faces: childFaces)
    }

    /// The unit cube's corners, vertex x + 2y + 4z at (x, y, z), and its six faces oriented
    /// consistently; `open` leaves out the top (z = 1), making the four bottom corners interior
    /// vertices of valence 3.
    static let cubeFaces: [MeshFace] = [
        MeshFace(0, 2, 3, 1), MeshFace(0, 1, 5, 4), MeshFace(0, 4, 6, 2),
        MeshFace(1, 3, 7, 5), MeshFace(2, 6, 7, 3), MeshFace(4, 5, 7, 6),
    ]

    static func corner(_ v: Int) -> SIMD3<Double> { SIMD3(Double(v & 1), Double((v >> 1) & 1), Double((v >> 2) & 1)) }

    /// (−1)^(x + y + z): +1 and −1 on alternate corners.
    static func checkerboard(_ v: Int) -> Double { (v & 1) ^ ((v >> 1) & 1) ^ ((v >> 2) & 1) == 0 ? 1 : -1 }

    static func cube(open: Bool, checkerboardDepth: Bool) throws -> MeshTransform {
        let vertices = (0..<8).map { v -> MeshVertex in
            let c = corner(v)
            return MeshVertex(
                from: SIMD2(0.2 + 0.6 * c.x, 0.2 + 0.6 * c.y - 0.1 * c.z),
                to: SIMD3(c.x, c.y, checkerboardDepth ? checkerboard(v) : c.z))
        }
        return try MeshTransform(vertices: vertices, faces: open ? Array(cubeFaces.dropLast()) : cubeFaces)
    }
}

/// The limit points at the control vertices, by tessellating at `steps`: control vertex i is
/// point i of the evaluation (refined points start with the vertex points in control order).
private func limitPoints(_ mesh: MeshTransform, steps: Int) throws -> SurfaceSamples {
    let topology = try SurfaceTopology(faces: mesh.faces, vertexCount: mesh.vertices.count)
    let plan = try SubdivisionPlan(topology: topology, steps: steps)
    return try plan.evaluate(
        vertices: mesh.vertices, weights: topology.vertexWeights(faces: mesh.faces),
        pointScale: SIMD3(1, 1, 1)
    ).points
}

/// Expects the fitted mesh's surface at steps 1 and 2 to pass through every vertex of `target`
/// (from and to) within `tolerance`, and the faces and weights to be kept.
private func expectInterpolates(
    _ fitted: MeshTransform, _ target: MeshTransform, tolerance: Double = 1e-9,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    #expect(fitted.faces == target.faces, sourceLocation: sourceLocation)
    #expect(fitted.depthNormalization == target.depthNormalization, sourceLocation: sourceLocation)
    for steps in [1, 2] {
        let points = try limitPoints(fitted, steps: steps)
        var worst = 0.0
        for i in target.vertices.indices {
            let t = target.vertices[i]
            let dFrom = points.from[i] - t.from, dTo = points.to[i] - t.to
            worst = max(worst, abs(dFrom.x), abs(dFrom.y), abs(dTo.x), abs(dTo.y), abs(dTo.z))
        }
        #expect(worst <= tolerance, "steps \(steps): the surface misses a vertex by \(worst)", sourceLocation: sourceLocation)
    }
}

private func maxVertexDifference(_ a: MeshTransform, _ b: MeshTransform) -> Double {
    zip(a.vertices, b.vertices).reduce(0.0) { worst, pair in
        let dFrom = pair.0.from - pair.1.from, dTo = pair.0.to - pair.1.to
        return max(worst, abs(dFrom.x), abs(dFrom.y), abs(dTo.x), abs(dTo.y), abs(dTo.z))
    }
}

// MARK: - Tests

@Suite struct FitTests {
    // MARK: The surface passes through the given vertices

    /// The ripple with weights that vary smoothly over the grid (the faces agree on each vertex's
    /// weight), by both solvers.
    @Test(arguments: [SurfaceFit.Solver.automatic, .banded])
    func weightedRippleIsInterpolated(solver: SurfaceFit.Solver) throws {
        let mesh = try FitFixtures.grid(rows: 16, columns: 16) { v, _, _ in 1 + 0.8 * sin(Double(v) * 0.37) * sin(Double(v) * 0.11) }
        let result = try SurfaceFit(solver: solver).fit(mesh)
        #expect(result.solver == (solver == .automatic ? .tensorGrid : .banded))
        try expectInterpolates(result.mesh, mesh)
        // The fit is not the input: the ripple's control points must overshoot its crests.
        #expect(maxVertexDifference(result.mesh, mesh) > 1e-3)
    }

    /// A 5 × 9 grid whose faces give each shared vertex different weights (0.3 to 3).
    @Test(arguments: [SurfaceFit.Solver.automatic, .banded])
    func nonSquareGridWithDisagreeingWeightsIsInterpolated(solver: SurfaceFit.Solver) throws {
        let mesh = try FitFixtures.grid(rows: 5, columns: 9, seed: 7) { _, _, rng in rng.uniform(0.3...3) }
        #expect(mesh.faces[0].weights[2] != mesh.faces[1].weights[3], "faces 0 and 1 should disagree on vertex 11")
        try expectInterpolates(try mesh.fitted(SurfaceFit(solver: solver)), mesh)
    }

    /// Interior vertices of valence 3 and 5 (and 6), each among regular interior, boundary and
    /// corner vertices, with disagreeing weights: only the banded solver applies.
    @Test(arguments: [3, 5, 6])
    func meshWithExtraordinaryInteriorVertexIsInterpolated(valence: Int) throws {
        let mesh = try FitFixtures.refinedFan(valence: valence, seed: UInt64(valence))
        let kinds = try SurfaceTopology(faces: mesh.faces, vertexCount: mesh.vertices.count).vertexKinds
        #expect(kinds[0] == .interior(valence: valence))
        #expect(kinds.contains(.interior(valence: 4)) && kinds.contains(.boundary(faces: 2)) && kinds.contains(.corner))
        let result = try SurfaceFit().fit(mesh)
        #expect(result.solver == .banded)
        try expectInterpolates(result.mesh, mesh)
    }

    /// The open box: four interior vertices of valence 3 next to each other, four boundary ones.
    @Test func openBoxIsInterpolated() throws {
        let mesh = try FitFixtures.cube(open: true, checkerboardDepth: false)
        let kinds = try SurfaceTopology(faces: mesh.faces, vertexCount: mesh.vertices.count).vertexKinds
        #expect(kinds[0] == .interior(valence: 3))
        try expectInterpolates(try mesh.fitted(), mesh)
    }

    /// A vertex that no face uses, and a corner of one face, are interpolated by the surface
    /// already (Docs/surface.md), so the fit leaves them exactly where they are.
    @Test func pinnedVerticesStayWhereTheyAre() throws {
        var mesh = try FitFixtures.grid(rows: 3, columns: 4, seed: 3) { _, _, rng in rng.uniform(0.5...2) }
        try mesh.addVertex(MeshVertex(from: SIMD2(0.25, 0.75), to: SIMD3(0.1, 0.2, 0.3)))
        let fitted = try mesh.fitted()
        #expect(fitted.vertices.last == mesh.vertices.last)
        #expect(fitted.vertices[0] == mesh.vertices[0])
        try expectInterpolates(fitted, mesh)
    }

    // MARK: Identity and agreement of the solvers

    /// The identity's surface is the identity (B-splines reproduce linear functions), so every
    /// vertex is already on it and the fit must return it unchanged, by both solvers and also
    /// when the face order hides the grid.
    @Test(arguments: [SurfaceFit.Solver.automatic, .banded, .tensorGrid])
    func identityMeshIsItsOwnFit(solver: SurfaceFit.Solver) throws {
        let identity = try MeshTransform.identity(rows: 6, columns: 11)
        let fitted = try identity.fitted(SurfaceFit(solver: solver))
        #expect(maxVertexDifference(fitted, identity) <= 1e-12)
        var shuffled = identity
        for f in 0..<identity.faces.count / 2 { try shuffled.replaceFace(at: f, with: identity.faces[identity.faces.count - 1 - f]) }
        for f in identity.faces.count / 2..<identity.faces.count {
            try shuffled.replaceFace(at: f, with: identity.faces[identity.faces.count - 1 - f])
        }
        #expect(RegularGrid(vertexCount: shuffled.vertices.count, faces: shuffled.faces) == nil)
        #expect(maxVertexDifference(try shuffled.fitted(), identity) <= 1e-12)
    }

    /// A grid with its vertices renumbered at random, its faces listed in shuffled order, each
    /// face starting at a random corner (weights rotated with it) and, with `mirrored`, every face
    /// listed the other way round: the same faces and weights as far as the surface goes. The
    /// second result is the new index of each original vertex.
    private static func renumbered(_ mesh: MeshTransform, seed: UInt64, mirrored: Bool) throws -> (MeshTransform, [Int]) {
        var rng = SplitMix64(seed: seed)
        let newIndex = Array(mesh.vertices.indices).shuffled(using: &rng)
        var vertices = mesh.vertices
        for (old, new) in newIndex.enumerated() { vertices[new] = mesh.vertices[old] }
        var faces: [MeshFace] = []
        for face in mesh.faces.shuffled(using: &rng) {
            let start = Int(rng.next() % 4)
            var indices = SIMD4<Int>(), weights = SIMD4<Double>()
            for k in 0..<4 {
                let from = mirrored ? (start + 4 - k) % 4 : (start + k) % 4
                indices[k] = newIndex[face.indices[from]]
                weights[k] = face.weights[from]
            }
            faces.append(MeshFace(indices: indices, weights: weights))
        }
        return (try MeshTransform(vertices: vertices, faces: faces), newIndex)
    }

    /// Renumbering a grid changes nothing but the numbering: it takes the tensor path, its fit
    /// is the ordered grid's fit moved to the new numbers (to 1e-12), and the fitted surface,
    /// evaluated by refinement, passes through the renumbered targets.
    @Test(arguments: [false, true])
    func renumberedGridFitsAsTheOrderedGrid(mirrored: Bool) throws {
        let ordered = try FitFixtures.grid(rows: 17, columns: 23, seed: 5) { _, _, rng in rng.uniform(0.3...3) }
        let (shuffled, newIndex) = try FitTests.renumbered(ordered, seed: mirrored ? 9 : 8, mirrored: mirrored)
        #expect(RegularGrid(vertexCount: shuffled.vertices.count, faces: shuffled.faces) == nil)
        let reference = try SurfaceFit().fit(ordered)
        let result = try SurfaceFit().fit(shuffled)
        #expect(reference.solver == .tensorGrid && result.solver == .tensorGrid)
        var worst = 0.0
        for (old, new) in newIndex.enumerated() {
            let a = reference.mesh.vertices[old], b = result.mesh.vertices[new]
            let dFrom = a.from - b.from, dTo = a.to - b.to
            worst = max(worst, abs(dFrom.x), abs(dFrom.y), abs(dTo.x), abs(dTo.y), abs(dTo.z))
        }
        #expect(worst <= 1e-12, "the renumbered fit differs by \(worst)")
        try expectInterpolates(result.mesh, shuffled)
        // The banded solver, which never looks for a grid, solves the same system.
        let banded = try SurfaceFit(solver: .banded).fit(shuffled)
        #expect(maxVertexDifference(banded.mesh, result.mesh) <= 1e-11)
    }

    /// Meshes that are nearly grids are not taken for one: one face turned the other way, two
    /// faces that share no edge, a 2 × 2 grid missing a face, and a fan around a vertex of
    /// valence 3. The fit of each is the banded one (or its error), never the tensor path's.
    @Test func nearGridsAreNotGrids() throws {
        let identity = try MeshTransform.identity(rows: 3, columns: 4)
        var flipped = identity.faces
        flipped[5] = MeshFace(flipped[5].indices[0], flipped[5].indices[3], flipped[5].indices[2], flipped[5].indices[1])
        #expect(GridNumbering(vertexCount: identity.vertices.count, faces: flipped) == nil)
        #expect(GridNumbering(vertexCount: identity.vertices.count, faces: Array(identity.faces.reversed())) != nil)
        let apart = [MeshFace(0, 1, 2, 3), MeshFace(4, 5, 6, 7)]
        #expect(GridNumbering(vertexCount: 8, faces: apart) == nil)
        let small = try MeshTransform.identity(rows: 2, columns: 2)
        #expect(GridNumbering(vertexCount: small.vertices.count, faces: Array(small.faces.dropLast())) == nil)
        let fan = try FitFixtures.refinedFan(valence: 3, seed: 2)
        #expect(GridNumbering(vertexCount: fan.vertices.count, faces: fan.faces) == nil)
        let error = #expect(throws: MeshError.self) {
            try MeshTransform(vertices: identity.vertices, faces: Array(identity.faces.dropLast())).fitted(SurfaceFit(solver: .tensorGrid))
        }
        #expect(error?.kind == .unsupported)
    }

    /// On a grid both solvers solve the same system, so they agree to rounding: with uniform
    /// weights (the case the tensor path is usually stated for) and with disagreeing weights (S
    /// does not depend on the weights, which enter only the right-hand side).
    @Test(arguments: [false, true])
    func bandedAndTensorSolversAgree(disagreeingWeights: Bool) throws {
        let mesh = try FitFixtures.grid(rows: 13, columns: 8, seed: 11) { _, _, rng in
            disagreeingWeights ? rng.uniform(0.3...3) : 1.7
        }
        let tensor = try SurfaceFit(solver: .tensorGrid).fit(mesh)
        let banded = try SurfaceFit(solver: .banded).fit(mesh)
        #expect(tensor.solver == .tensorGrid && banded.solver == .banded)
        #expect(maxVertexDifference(tensor.mesh, banded.mesh) <= 1e-12)
        // Both condition estimates are of the same matrix; LAPACK's estimates agree within a factor.
        #expect(tensor.reciprocalCondition > 0.05 && banded.reciprocalCondition > 0.05)
    }

    // MARK: The tensor product

    /// The interior limit mask of Docs/surface.md, (n² v + 4 Σ e + Σ d) / (n (n + 5)), at n = 4 is
    /// the outer product of the curve mask (1, 4, 1)/6 with itself, and on a grid the whole limit operator is the
    /// Kronecker product of one curve operator per direction (pinned ends, (1, 4, 1)/6 inside):
    /// compared entry by entry with the operator built from the surface's masks.
    @Test func gridLimitOperatorIsTheTensorProductOfCurveOperators() throws {
        let n = 4.0
        let curve = [1.0 / 6, 4.0 / 6, 1.0 / 6]
        #expect(abs(n * n / (n * (n + 5)) - curve[1] * curve[1]) < 1e-16)
        #expect(abs(4 / (n * (n + 5)) - curve[0] * curve[1]) < 1e-16)
        #expect(abs(1 / (n * (n + 5)) - curve[0] * curve[2]) < 1e-16)

        let rows = 4, columns = 5
        let mesh = try MeshTransform.identity(rows: rows, columns: columns)
        let topology = try SurfaceTopology(faces: mesh.faces, vertexCount: mesh.vertices.count)
        let limit = LimitOperator(level: topology.level)
        func curveOperator(_ m: Int) -> [[Double]] {
            (0..<m).map { i in
                (0..<m).map { j in
                    if i == 0 || i == m - 1 { return i == j ? 1 : 0 }
                    return i == j ? 4.0 / 6 : (abs(i - j) == 1 ? 1.0 / 6 : 0)
                }
            }
        }
        let ar = curveOperator(rows + 1), ac = curveOperator(columns + 1)
        let nc = columns + 1
        var worst = 0.0
        for i in 0..<limit.order {
            var row = [Double](repeating: 0, count: limit.order)
            for k in limit.offsets[i]..<limit.offsets[i + 1] { row[Int(limit.columns[k])] += limit.values[k] }
            for j in 0..<limit.order {
                let expected = ar[i / nc][j / nc] * ac[i % nc][j % nc]
                worst = max(worst, abs(row[j] - expected))
            }
        }
        #expect(worst < 1e-15)
        // The solver's own curve operator is the same matrix.
        let solverCurve = TensorGridSolver.curveOperator(points: nc)
        for i in 0..<nc {
            #expect(solverCurve.diagonal[i] == ac[i][i])
            if i + 1 < nc {
                #expect(solverCurve.sup[i] == ac[i][i + 1])
                #expect(solverCurve.sub[i] == ac[i + 1][i])
            }
        }
    }

    /// The tensor solver's own sweeps over LAPACK's `dgttrf` factors give what LAPACKE_dgtsv
    /// gives when called directly on the same grid: along every row (column-major, one right-hand
    /// side per grid row of every plane), then along every column (row-major, per plane).
    /// (130, 3) has more rows than one backward window and its truncation rows; (600, 2) is cut
    /// into two bands, solved in place through the rows copied aside at their edge.
    @Test(arguments: [(1, 1), (1, 6), (7, 12), (40, 3), (5, 70), (130, 3), (600, 2)])
    func tensorSweepsMatchLAPACKDgtsv(rows: Int, columns: Int) throws {
        let mesh = try MeshTransform.identity(rows: rows, columns: columns)
        let grid = try #require(RegularGrid(vertexCount: mesh.vertices.count, faces: mesh.faces))
        var rng = SplitMix64(seed: UInt64(rows * 100 + columns))
        let targets = mesh.vertices.map { _ in
            MeshVertex(
                from: SIMD2(rng.uniform(-1...1), rng.uniform(-1...1)),
                to: SIMD3(rng.uniform(-1...1), rng.uniform(-1...1), rng.uniform(-1...1)))
        }
        let rowWeights = mesh.vertices.map { _ in rng.uniform(0.5...2) }
        var planes = FitPlanes(targets: targets, rowWeights: rowWeights)
        var reference = planes.values
        let nr = rows + 1, nc = columns + 1
        let along = TensorGridSolver.curveOperator(points: nc), across = TensorGridSolver.curveOperator(points: nr)
        try reference.withUnsafeMutableBufferPointer { b in
            let base = try #require(b.baseAddress)
            #expect(along.solve(base, count: 5 * nr, rowMajor: false, leadingDimension: nc) == nil)
            for p in 0..<5 {
                #expect(across.solve(base + p * nr * nc, count: nc, rowMajor: true, leadingDimension: nc) == nil)
            }
        }
        // The out-of-place solve (the benchmark's) leaves its right-hand sides as they were.
        // A copy of its own (an array assigned shares storage until written).
        let rightHandSides = planes.values.map { $0 }
        let outOfPlace = try TensorGridSolver(grid: grid).solved(planes, minimumReciprocalCondition: 1e-12)
        #expect(planes.values == rightHandSides)
        // Into a previous solution's memory (stale values; the same memory is written, not a copy),
        // into planes that share the right-hand sides' storage, and into planes of the wrong
        // size: the same values, B untouched.
        let solver = TensorGridSolver(grid: grid)
        var previous = FitPlanes(count: planes.count, values: rightHandSides.map { _ in .nan })
        let before = previous.values.withUnsafeBufferPointer { $0.baseAddress }
        let rcondInto = try solver.solve(planes, into: &previous, minimumReciprocalCondition: 1e-12)
        #expect(previous.values.withUnsafeBufferPointer { $0.baseAddress } == before)
        #expect(previous.values == outOfPlace.planes.values && rcondInto == outOfPlace.reciprocalCondition)
        var shared = FitPlanes(count: planes.count, values: planes.values)
        _ = try solver.solve(planes, into: &shared, minimumReciprocalCondition: 1e-12)
        #expect(shared.values == outOfPlace.planes.values)
        var wrongSize = FitPlanes(count: 1, values: [1, 2, 3, 4, 5])
        _ = try solver.solve(planes, into: &wrongSize, minimumReciprocalCondition: 1e-12)
        #expect(wrongSize.values == outOfPlace.planes.values && wrongSize.count == planes.count)
        #expect(planes.values == rightHandSides)
        let rcond = try TensorGridSolver(grid: grid).solve(&planes, minimumReciprocalCondition: 1e-12)
        let worst = zip(planes.values, reference).reduce(0.0) { max($0, abs($1.0 - $1.1)) }
        #expect(worst <= 1e-13)
        let worstOutOfPlace = zip(outOfPlace.planes.values, reference).reduce(0.0) { max($0, abs($1.0 - $1.1)) }
        #expect(worstOutOfPlace <= 1e-13)
        #expect(outOfPlace.reciprocalCondition == rcond)
        // (1, 4, 1)/6 with pinned ends: ‖A‖₁ ≤ 1 + 1/6 and, diagonally dominant by 1/3, ‖A⁻¹‖ ≤ 3
        // (in ∞-norm; the 1-norm estimate is of the same order), so the estimate is far from 0.
        #expect(rcond > 0.05 && rcond <= 1)
    }

    /// The sweeps' factors are L U = A for the curve operator, forget a disturbance by 2 − √3 a
    /// step (the root of t² − 4t + 1 that (1, 4, 1) recurrences converge to), and so cut sweeps
    /// after ⌈64 ln 2 / −ln(2 − √3)⌉ = 34 rows.
    @Test func curveOperatorFactorsAreLUWithTheirDecay() throws {
        let m = 40
        let a = TensorGridSolver.curveOperator(points: m)
        let f = try #require(DominantTridiagonalFactors(a))
        // Row i of L U: lᵢ₋₁ uᵢ₋₁,ᵢ₋₁ on the left, lᵢ₋₁ uᵢ₋₁,ᵢ + uᵢᵢ on the diagonal, uᵢ,ᵢ₊₁ on the right.
        let pivot = f.inversePivots.map { 1 / $0 }
        for i in 0..<m {
            let left = i > 0 ? f.multipliers[i - 1] * pivot[i - 1] : 0
            let diagonal = (i > 0 ? f.multipliers[i - 1] * f.backward[i - 1] * pivot[i - 1] : 0) + pivot[i]
            let right = f.backward[i] * pivot[i]
            #expect(abs(left - (i > 0 ? a.sub[i - 1] : 0)) < 1e-15)
            #expect(abs(diagonal - a.diagonal[i]) < 1e-15)
            #expect(abs(right - (i + 1 < m ? a.sup[i] : 0)) < 1e-15)
        }
        #expect(abs(f.decay - (2 - 3.0.squareRoot())) < 1e-12)
        #expect(f.truncationRows == 34)
        // Not diagonally dominant: no factors, so never a truncated sweep.
        #expect(DominantTridiagonalFactors(TridiagonalMatrix(sub: [1], diagonal: [1, 1], sup: [1])) == nil)
    }

    /// A grid large enough that every pass of the fit runs in several bands and the solve in two
    /// bands of rows, with weights that disagree between faces: its limit points, computed from the
    /// surface's own limit masks (the sparse operator of the banded path, not the tensor product),
    /// are the targets.
    @Test func largeGridMeetsItsTargetsThroughTheLimitMasks() throws {
        let mesh = try FitFixtures.grid(rows: 600, columns: 110, seed: 21) { _, _, rng in rng.uniform(0.4...2.5) }
        #expect(TensorSweep.bandCount(rows: 601) == 2)
        let result = try SurfaceFit().fit(mesh)
        #expect(result.solver == .tensorGrid)
        let topology = try SurfaceTopology(faces: mesh.faces, vertexCount: mesh.vertices.count)
        let limit = LimitOperator(level: topology.level)
        let weights = topology.vertexWeights(faces: mesh.faces)
        let denominator = limit.apply(weights)
        var worst = 0.0
        for k in 0..<5 {
            func component(_ v: MeshVertex) -> Double { k < 2 ? v.from[k] : v.to[k - 2] }
            let numerator = limit.apply(zip(result.mesh.vertices, weights).map { component($0.0) * $0.1 })
            for i in mesh.vertices.indices {
                worst = max(worst, abs(numerator[i] / denominator[i] - component(mesh.vertices[i])))
            }
        }
        #expect(worst <= 1e-12, "a limit point misses its target by \(worst)")
        // The bands are fixed by the grid's size, so one thread finds exactly the same points.
        let oneThread = try ParallelLimit.withThreads(1) { try SurfaceFit().fit(mesh) }
        #expect(oneThread.mesh.vertices == result.mesh.vertices)
    }

    /// The grid fit runs as one pass per band (right-hand sides, solve and control points
    /// together), its five coordinates in one piece or in a piece each; it must give exactly what
    /// the separate stages give on one thread: the weights averaged as the general path averages
    /// them, B = T · (S W) in planes, the planes solved by the tensor solver (checked against
    /// LAPACK's `dgtsv` above), and P = Q / W. Grids of three, two and one bands with odd and even
    /// column counts, weights that disagree between faces; the fit on one thread and on all, and
    /// with each way of sharing the coordinates out, whatever the threads would choose.
    @Test(arguments: [(800, 9), (600, 57), (530, 40), (7, 12)])
    func gridFitEqualsItsStagesRunSeparately(rows: Int, columns: Int) throws {
        let mesh = try FitFixtures.grid(rows: rows, columns: columns, seed: UInt64(rows + columns)) { _, _, rng in
            rng.uniform(0.3...3)
        }
        let grid = try #require(RegularGrid(vertexCount: mesh.vertices.count, faces: mesh.faces))
        let staged = try ParallelLimit.withThreads(1) {
            let solver = TensorGridSolver(grid: grid)
            let weights = SurfaceFit.vertexWeights(faces: mesh.faces, vertexCount: mesh.vertices.count)
            var planes = FitPlanes(targets: mesh.vertices, rowWeights: solver.apply(weights))
            _ = try solver.solve(&planes, minimumReciprocalCondition: 1e-12)
            return try planes.controlVertices(weights: weights)
        }
        let result = try SurfaceFit().fit(mesh)
        #expect(result.solver == .tensorGrid)
        #expect(result.mesh.vertices == staged)
        let oneThread = try ParallelLimit.withThreads(1) { try SurfaceFit().fit(mesh) }
        #expect(oneThread.mesh.vertices == staged)
        for sharing in [GridFitSweep.PlaneSharing.together, .apart] {
            for threads in [1, 2] {
                let outcome = try ParallelLimit.withThreads(threads) {
                    try GridFit.rowMajor(mesh, minimumReciprocalCondition: 1e-12, sharing: sharing)
                }
                guard case .fitted(let vertices, _) = outcome else {
                    Issue.record("\(sharing), \(threads) threads: not fitted")
                    continue
                }
                #expect(vertices == staged, "\(sharing), \(threads) threads")
            }
        }
    }

    /// A coordinate a piece costs more work, so it is taken only when the bands leave threads
    /// idle for long enough: on the 1001² grid's 3 bands, 1–6 threads take whole bands in at
    /// most as many rounds as the 15 pieces at 1.7–2 × their work would need, 8 and 16 threads do not.
    @Test func coordinatesGoApartOnlyWhenTheBandsLeaveThreadsIdle() {
        let values = 5 * 1001 * 1001
        #expect(TensorSweep.bandCount(rows: 1001) == 3)
        for threads in [1, 2, 3, 4, 6] {
            #expect(GridFitSweep.PlaneSharing.forThreads(threads, bands: 3, values: values, rowMajor: true) == .together)
        }
        for threads in [8, 16] {
            #expect(GridFitSweep.PlaneSharing.forThreads(threads, bands: 3, values: values, rowMajor: true) == .apart)
        }
        // A renumbered grid's rows are not the output's, and a small grid runs on one thread.
        #expect(GridFitSweep.PlaneSharing.forThreads(16, bands: 3, values: values, rowMajor: false) == .together)
        #expect(GridFitSweep.PlaneSharing.forThreads(16, bands: 1, values: 5 * 8 * 13, rowMajor: true) == .together)
    }

    /// With a coordinate a piece, a target that is not finite is still found, whichever
    /// coordinate and band it is in.
    @Test func coordinatesApartFindATargetThatIsNotFinite() throws {
        let grid = try FitFixtures.grid(rows: 600, columns: 5)
        #expect(TensorSweep.bandCount(rows: 601) == 2)
        for (vertex, component) in [(3, 0), (1500, 3), (3605, 4)] {
            var mesh = grid
            if component < 2 { mesh.vertices[vertex].from[component] = .nan } else { mesh.vertices[vertex].to[component - 2] = .infinity }
            let outcome = try GridFit.rowMajor(mesh, minimumReciprocalCondition: 1e-12, sharing: .apart)
            guard case .invalidNumbers = outcome else {
                Issue.record("vertex \(vertex), coordinate \(component): \(outcome)")
                continue
            }
        }
    }

    /// Finite targets whose fit is not finite: with weight 3 everywhere the weight sums are 3, so a
    /// target coordinate of 1.5 × 10³⁰⁸ makes a right-hand side of 4.5 × 10³⁰⁸, past the largest
    /// `Double`. The row solve spreads that infinity along its whole row (where a multiplier is 0,
    /// 0 × ∞ is NaN), and the column sweeps carry whole rows, so the first control point that is
    /// not finite starts a row, at or above the target's. With a coordinate a piece the error must name the vertex the whole bands name.
    @Test func coordinatesApartNameTheFirstControlPointThatIsNotFinite() throws {
        let grid = try FitFixtures.grid(rows: 600, columns: 5) { _, _, _ in 3 }
        #expect(TensorSweep.bandCount(rows: 601) == 2)
        let columns = 6
        for (vertex, component) in [(40, 1), (1500, 3), (3605, 4)] {
            var mesh = grid
            if component < 2 { mesh.vertices[vertex].from[component] = 1.5e308 } else { mesh.vertices[vertex].to[component - 2] = 1.5e308 }
            #expect(mesh.vertices.allSatisfy(GridFitSweep.isFinite))
            var paths: [String] = []
            for (sharing, threads) in [(GridFitSweep.PlaneSharing.together, 1), (.apart, 1), (.apart, 2)] {
                let error = #expect(throws: MeshError.self, "\(sharing), \(threads) threads") {
                    try ParallelLimit.withThreads(threads) {
                        try GridFit.rowMajor(mesh, minimumReciprocalCondition: 1e-12, sharing: sharing)
                    }
                }
                #expect(error?.kind == .invalidValue)
                paths.append(error?.path ?? "")
            }
            #expect(Set(paths).count == 1, "vertex \(vertex): \(paths)")
            let named = paths.first.flatMap { Int($0.dropFirst("vertices[".count).dropLast()) }
            let first = try #require(named, "vertex \(vertex): \(paths)")
            #expect(first % columns == 0 && first <= vertex, "vertex \(vertex): \(first)")
        }
    }

    /// On the grid path the numbers are checked inside the fit's passes; a bad one is still named
    /// as the checks in order name it: the first bad vertex before any bad weight.
    @Test func badNumbersOfAGridAreNamedInOrder() throws {
        let grid = try FitFixtures.grid(rows: 3, columns: 4)
        var badVertex = grid, badWeight = grid
        badVertex.vertices[7].to.z = .nan
        badVertex.vertices[9].from.x = .infinity
        badWeight.faces[5].weights[2] = -1
        var both = badWeight
        both.vertices[9].from.x = .infinity
        // A bad number in the second band of a grid solved in two bands of rows.
        var tall = try FitFixtures.grid(rows: 600, columns: 3)
        #expect(TensorSweep.bandCount(rows: 601) == 2)
        tall.vertices[1500].to.y = .infinity
        // Weights that are zero (of either sign) are not positive.
        var zeroWeight = grid, negativeZeroWeight = grid
        zeroWeight.faces[2].weights[1] = 0
        negativeZeroWeight.faces[11].weights[3] = -0.0
        let cases = [
            (badVertex, "vertices[7].to[2]"), (badWeight, "faces[5].w[2]"), (both, "vertices[9].from[0]"), (tall, "vertices[1500].to[1]"),
            (zeroWeight, "faces[2].w[1]"), (negativeZeroWeight, "faces[11].w[3]"),
        ]
        for (mesh, path) in cases {
            for solver in [SurfaceFit.Solver.automatic, .tensorGrid] {
                let error = #expect(throws: MeshError.self) { try SurfaceFit(solver: solver).fit(mesh) }
                #expect(error?.kind == .invalidValue)
                #expect(error?.path == path, "\(String(describing: error))")
            }
        }
    }

    // MARK: Meshes without a fit

    /// Every corner of a closed cube has valence 3 and mask (9 v + 4 Σ e + Σ d) / 24; on the
    /// checkerboard its three edge neighbours carry −v and its three diagonal ones +v, so the limit
    /// is (9 − 12 + 3) v / 24 = 0. S is singular, and a cube whose corners carry that pattern
    /// cannot be interpolated: the fit must say so rather than return a surface.
    @Test(arguments: [SurfaceFit.Solver.automatic, .banded])
    func checkerboardCubeIsASingularSystem(solver: SurfaceFit.Solver) throws {
        let cube = try FitFixtures.cube(open: false, checkerboardDepth: true)
        let topology = try SurfaceTopology(faces: cube.faces, vertexCount: 8)
        let limit = LimitOperator(level: topology.level)
        let image = limit.apply((0..<8).map(FitFixtures.checkerboard))
        #expect(image.allSatisfy { abs($0) < 1e-15 }, "S · checkerboard = \(image)")

        do {
            _ = try cube.fitted(SurfaceFit(solver: solver))
            Issue.record("the checkerboard cube was fitted")
        } catch let error as MeshError {
            #expect(error.kind == .invalidValue)
            #expect(error.message.contains("singular"), "\(error)")
            #expect(error.message.contains("condition estimate"), "\(error)")
        }
    }

    /// An ill-conditioned system is refused like a singular one, with the estimate in the message:
    /// asking for a reciprocal condition above the one the solve reports must fail, on both paths.
    /// (For a grid it is about (2/7)²: each curve operator has ‖A‖₁ = 7/6, from the pinned end's
    /// column 1 + 1/6, and ‖A⁻¹‖₁ near 3, its diagonal dominance being 1/3.)
    @Test(arguments: [SurfaceFit.Solver.tensorGrid, .banded])
    func conditionThresholdRefusesWithTheEstimate(solver: SurfaceFit.Solver) throws {
        let mesh = try FitFixtures.grid(rows: 4, columns: 5)
        let estimate = try SurfaceFit(solver: solver).fit(mesh).reciprocalCondition
        #expect(estimate > 0.05 && estimate < 0.5)
        let error = #expect(throws: MeshError.self) {
            try mesh.fitted(SurfaceFit(solver: solver, minimumReciprocalCondition: 2 * estimate))
        }
        #expect(error?.kind == .invalidValue)
        #expect(error?.message.contains("singular") == true)
        #expect(error?.message.contains(SurfaceFit.scientific(estimate)) == true, "\(String(describing: error))")
    }

    @Test func tensorSolverRefusesAMeshThatIsNotAGrid() throws {
        let fan = try FitFixtures.refinedFan(valence: 5, seed: 1)
        let error = #expect(throws: MeshError.self) { try fan.fitted(SurfaceFit(solver: .tensorGrid)) }
        #expect(error?.kind == .unsupported)
    }

    // MARK: Bounds and ordering

    /// Band storage over the limit is refused before it is allocated, stating what it would need.
    @Test func bandStorageOverTheLimitIsRefusedStatingTheSize() throws {
        let mesh = try FitFixtures.grid(rows: 10, columns: 10)
        do {
            _ = try mesh.fitted(SurfaceFit(solver: .banded, maximumBandBytes: 4096))
            Issue.record("a 121-unknown band fitted in 4096 bytes")
        } catch let error as MeshError {
            #expect(error.kind == .limitExceeded)
            #expect(error.message.contains("121 unknowns"), "\(error)")
            #expect(error.message.contains("KiB") && error.message.contains("4.0 KiB"), "\(error)")
        }
    }

    /// Randomly renumbered vertices give a matrix whose band is as wide as the mesh; reverse
    /// Cuthill–McKee must bring it back near a grid's own (about one row of vertices, 11 here: a
    /// breadth-first level of the 9-point stencil is at most about two rows wide), and the fit
    /// still interpolates.
    @Test func reverseCuthillMcKeeNarrowsAShuffledGrid() throws {
        let grid = try FitFixtures.grid(rows: 10, columns: 30, seed: 5) { _, _, rng in rng.uniform(0.5...2) }
        var rng = SplitMix64(seed: 99)
        var permutation = Array(grid.vertices.indices)
        permutation.shuffle(using: &rng)
        var vertices = grid.vertices
        for (old, new) in permutation.enumerated() { vertices[new] = grid.vertices[old] }
        let faces = grid.faces.map { f in
            MeshFace(
                permutation[f.indices[0]], permutation[f.indices[1]], permutation[f.indices[2]], permutation[f.indices[3]],
                weights: f.weights)
        }
        let shuffled = try MeshTransform(vertices: vertices, faces: faces)
        // Banded LU asked for: left to itself the fit recognises the grid and takes the tensor path.
        let result = try SurfaceFit(solver: .banded).fit(shuffled)
        let band = try #require(result.bandwidths)
        #expect(band.lower <= 3 * 11 && band.upper <= 3 * 11, "bandwidths \(band)")
        try expectInterpolates(result.mesh, shuffled)
    }

    @Test func emptyMeshFitsToItself() throws {
        #expect(try MeshTransform().fitted() == MeshTransform())
    }

    @Test func conditionEstimatesAreWrittenWithThreeDigits() {
        #expect(SurfaceFit.scientific(3.0814879110195774e-17) == "3.08e-17")
        #expect(SurfaceFit.scientific(1e12) == "1.0e+12")
        #expect(SurfaceFit.scientific(9.999e5) == "1.0e+06")
        #expect(SurfaceFit.byteCount(4096) == "4.0 KiB")
    }
}
