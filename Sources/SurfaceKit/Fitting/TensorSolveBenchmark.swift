/// The tensor-product fitting solve alone, for benchmarks (`meshgeo bench`, W4): the right-hand
/// sides are built once, and each run solves them into new planes, leaving them as they were,
/// which is what the peers' banded solvers time (scipy's `solve_banded` also copies its
/// right-hand side).
package struct TensorSolveBenchmark: Sendable {
    let solver: TensorGridSolver
    let planes: FitPlanes

    /// `nil` unless `mesh` is a row-major grid of faces.
    package init?(mesh: MeshTransform) {
        guard let grid = RegularGrid(vertexCount: mesh.vertices.count, faces: mesh.faces) else { return nil }
        solver = TensorGridSolver(grid: grid)
        let weights = SurfaceFit.vertexWeights(faces: mesh.faces, vertexCount: mesh.vertices.count)
        planes = FitPlanes(targets: mesh.vertices, rowWeights: solver.apply(weights))
    }

    /// Unknowns per coordinate (the vertices).
    package var unknownsPerCoordinate: Int { planes.count }

    /// One solve of all five coordinates; returns the reciprocal condition estimate.
    @discardableResult
    package func run() throws -> Double {
        try solver.solved(planes, minimumReciprocalCondition: 1e-12).reciprocalCondition
    }

    /// One solve of all five coordinates into the planes of the previous one (`solution`, any
    /// planes at first), as a fit repeated every frame would; returns the reciprocal condition
    /// estimate.
    @discardableResult
    package func run(into solution: inout Solution) throws -> Double {
        try solver.solve(planes, into: &solution.planes, minimumReciprocalCondition: 1e-12)
    }

    /// The planes a solve is written into by ``run(into:)``.
    package struct Solution: Sendable {
        var planes: FitPlanes
    }

    /// Planes to solve into with ``run(into:)``: a copy of the right-hand sides, already in memory.
    package func solution() -> Solution {
        Solution(planes: FitPlanes(count: planes.count, values: planes.values.map { $0 }))
    }
}
