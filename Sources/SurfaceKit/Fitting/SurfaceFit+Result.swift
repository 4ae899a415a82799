public extension SurfaceFit {
    /// A fitted mesh and what the solve found out.
    struct Result: Sendable {
        /// The mesh with the fitted control points; faces, weights and settings unchanged.
        public var mesh: MeshTransform
        /// The solver that ran: ``SurfaceFit/Solver/banded`` or ``SurfaceFit/Solver/tensorGrid``.
        public var solver: Solver
        /// LAPACK's estimate of 1 / (‖S‖₁ ‖S⁻¹‖₁) for the limit operator S: near 1 is well
        /// conditioned (a grid's is above 1/10).
        public var reciprocalCondition: Double
        /// The band of the LU factorization (below, above the diagonal) on the banded path.
        public var bandwidths: (lower: Int, upper: Int)?
    }
}
