/// Fitting: new control points, for the same faces and weights, whose surface passes through the
/// given vertices (Docs/fitting.md).
///
/// The limit point at control vertex i is (S H)ᵢ divided by its weight, where S is the limit
/// operator (each vertex's limit mask over its ring) and H the homogeneous control values
/// (W·from, W·to, W). Asking it to equal the target Tᵢ with the weights W held fixed gives, row by
/// row, Σⱼ Sᵢⱼ Qⱼ = Tᵢ · Σⱼ Sᵢⱼ Wⱼ: linear in Q = W·P, with the same matrix S for all five
/// coordinates (from.x, from.y, to.x, to.y, to.z). The control points are then P = Q / W.
///
/// S is solved with LAPACK: banded LU after reverse Cuthill–McKee for any quad mesh, or, on a
/// regular grid with edge-and-corner boundaries (recognised by its faces' topology, whatever the
/// numbering), as the tensor product of one tridiagonal matrix per direction. A singular or ill-conditioned S is an error, never a wrong surface: a closed
/// cube is one (its limit operator sends the ±1 checkerboard on its corners to zero).
public struct SurfaceFit: Hashable, Sendable {
    /// How the linear system is solved.
    public enum Solver: String, CaseIterable, Hashable, Sendable {
        /// The tensor-product solver when the faces form a grid (in any vertex or face order), else
        /// banded LU.
        case automatic
        /// Banded LU after reverse Cuthill–McKee, for any quad mesh.
        case banded
        /// The tensor-product solver; a mesh whose faces do not form a grid is an `.unsupported` error.
        case tensorGrid
    }

    public var solver: Solver
    /// The most band storage banded LU may allocate, in bytes; larger systems are refused with
    /// `.limitExceeded` before any allocation. (A 100 × 100-face grid needs about 25 MB.)
    public var maximumBandBytes: Int
    /// Systems whose reciprocal condition estimate (LAPACK's, in the 1-norm) is below this are
    /// refused as singular: their control points would keep fewer than about
    /// 16 + log₁₀(threshold) correct digits.
    public var minimumReciprocalCondition: Double

    public init(solver: Solver = .automatic, maximumBandBytes: Int = 1 << 30, minimumReciprocalCondition: Double = 1e-12) {
        self.solver = solver
        self.maximumBandBytes = maximumBandBytes
        self.minimumReciprocalCondition = minimumReciprocalCondition
    }
}

public extension SurfaceFit {
    /// Fits `mesh`: the result has the same faces, weights, depth normalization and steps, and
    /// control points whose limit surface passes through `mesh`'s vertices (from and to).
    ///
    /// Throws a ``MeshError``: `.invalidValue` for a non-finite number or a bad weight (with its
    /// path) and for a singular or ill-conditioned system (the message says so and gives the
    /// condition estimate); `.topology` / `.indexOutOfRange` as ``SurfaceTopology`` does;
    /// `.limitExceeded` when banded storage would exceed ``maximumBandBytes`` (the message states
    /// the size); `.unsupported` when ``Solver/tensorGrid`` is asked of a mesh that is not a grid.
    func fit(_ mesh: MeshTransform) throws -> Result {
        // Nothing to solve: an empty mesh is its own fit (and LAPACK rejects zero-order systems).
        guard !mesh.vertices.isEmpty else {
            return Result(mesh: mesh, solver: solver == .tensorGrid ? .tensorGrid : .banded, reciprocalCondition: 1, bandwidths: nil)
        }
        // A row-major grid checks its numbers and faces inside the fit's own passes; on any bad
        // number the checks below run in order and name the first.
        if solver != .banded, mesh.faces.count > 0 {
            let outcome = try GridFit.rowMajor(mesh, minimumReciprocalCondition: minimumReciprocalCondition)
            if case .fitted(let vertices, let rcond) = outcome { return fitted(mesh, vertices, reciprocalCondition: rcond) }
        }
        for (i, v) in mesh.vertices.enumerated() { try MeshTransform.checkVertex(v, index: i) }
        for (f, face) in mesh.faces.enumerated() { try MeshTransform.checkWeights(face, index: f) }
        let numbering = solver == .banded ? nil : GridNumbering(vertexCount: mesh.vertices.count, faces: mesh.faces)
        if solver == .tensorGrid, numbering == nil {
            throw MeshError(
                .unsupported, path: "faces",
                "the tensor-product solver needs faces that form an R × C grid (as 'identity' makes, in any vertex or face order)")
        }
        let weights = SurfaceFit.vertexWeights(faces: mesh.faces, vertexCount: mesh.vertices.count)
        var result = mesh
        if let numbering {
            let grid = GridFit(grid: numbering.grid, vertexAt: numbering.vertexAt)
            let outcome = try grid.fit(mesh, vertexWeights: weights, minimumReciprocalCondition: minimumReciprocalCondition)
            if case .fitted(let vertices, let rcond) = outcome { return fitted(mesh, vertices, reciprocalCondition: rcond) }
        }
        let topology = try SurfaceTopology(faces: mesh.faces, vertexCount: mesh.vertices.count)
        let limit = LimitOperator(level: topology.level)
        var planes = FitPlanes(targets: mesh.vertices, rowWeights: limit.apply(weights))
        let banded = BandedSolver(
            limit: limit, maximumBandBytes: maximumBandBytes, minimumReciprocalCondition: minimumReciprocalCondition)
        let outcome = try banded.solve(&planes)
        result.vertices = try planes.controlVertices(weights: weights)
        return Result(
            mesh: result, solver: .banded, reciprocalCondition: outcome.reciprocalCondition,
            bandwidths: (outcome.lowerBandwidth, outcome.upperBandwidth))
    }
}

extension SurfaceFit {
    /// `mesh` with new control points, from the tensor-product path.
    private func fitted(_ mesh: MeshTransform, _ vertices: [MeshVertex], reciprocalCondition: Double) -> Result {
        var result = mesh
        result.vertices = vertices
        return Result(mesh: result, solver: .tensorGrid, reciprocalCondition: reciprocalCondition, bandwidths: nil)
    }

    /// A vertex's weight: the mean of the weights its faces give it, 1 for a vertex of no face
    /// (Docs/surface.md; the same rule as ``SurfaceTopology/vertexWeights(faces:)``, without needing the
    /// topology, which the grid path never builds).
    static func vertexWeights(faces: [MeshFace], vertexCount: Int) -> [Double] {
        var sum = [Double](repeating: 0, count: vertexCount)
        var count = [Int32](repeating: 0, count: vertexCount)
        for face in faces {
            for k in 0..<4 {
                sum[face.indices[k]] += face.weights[k]
                count[face.indices[k]] += 1
            }
        }
        for v in 0..<vertexCount where count[v] > 0 { sum[v] /= Double(count[v]) }
        for v in 0..<vertexCount where count[v] == 0 { sum[v] = 1 }
        return sum
    }

    /// The error for a system without a (trustworthy) solution.
    static func singularSystem(reciprocalCondition rcond: Double, threshold: Double, zeroPivot: Int? = nil) -> MeshError {
        let condition = rcond > 0 ? "condition estimate \(scientific(1 / rcond))" : "condition estimate infinite"
        let cause = zeroPivot.map { "LU found a zero pivot at unknown \($0); " } ?? ""
        return MeshError(
            .invalidValue, path: "",
            "the fitting system is singular (\(cause)\(condition), reciprocal \(scientific(rcond)), refused below \(scientific(threshold))): no control points with these faces and weights have a limit surface through these vertices"
        )
    }

    /// Three significant digits, e.g. `3.08e-17`; exact enough for a message, short enough to read.
    static func scientific(_ x: Double) -> String {
        guard x.isFinite else { return "\(x)" }
        guard x != 0 else { return "0" }
        // x.exponent is the binary exponent; log₁₀ 2 turns it into a first guess the loops correct.
        var exponent = Int((Double(x.exponent) * 0.30102999566398120).rounded(.down))
        var mantissa = x / pow10(exponent)
        while abs(mantissa) >= 10 { mantissa /= 10; exponent += 1 }
        while abs(mantissa) < 1 { mantissa *= 10; exponent -= 1 }
        var rounded = (mantissa * 100).rounded() / 100
        if abs(rounded) >= 10 { rounded /= 10; exponent += 1 }
        return "\(rounded)e\(exponent < 0 ? "-" : "+")\(abs(exponent) < 10 ? "0" : "")\(abs(exponent))"
    }

    private static func pow10(_ e: Int) -> Double {
        var result = 1.0
        let base = e < 0 ? 0.1 : 10.0
        for _ in 0..<abs(e) { result *= base }
        return result
    }

    /// A byte count in the largest binary unit that keeps it at least 1, e.g. `47.8 GiB`.
    static func byteCount(_ bytes: Int) -> String {
        let units = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit + 1 < units.count {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) bytes" : "\((value * 10).rounded() / 10) \(units[unit])"
    }
}
