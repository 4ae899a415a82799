/// Surfaces through given points (Docs/fitting.md).
public extension MeshTransform {
    /// The mesh whose limit surface passes through this mesh's vertices: same faces, weights,
    /// depth normalization and steps; new `from` and `to` for every vertex, such that the limit
    /// point at vertex i (from and to) is this mesh's vertex i. See ``SurfaceFit`` for the
    /// mathematics, the solvers and the errors (a singular system, such as a closed cube's, is an
    /// `.invalidValue` error saying so).
    func fitted(_ fit: SurfaceFit = SurfaceFit()) throws -> MeshTransform {
        try fit.fit(self).mesh
    }
}
