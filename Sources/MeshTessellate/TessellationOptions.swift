import SurfaceKit

/// Options that change only the approximation of the surface, never its shape.
public struct TessellationOptions: Hashable, Sendable {
    /// Overrides the mesh's own `subdivisionSteps` when set.
    public var steps: SubdivisionSteps?
    /// How quads become triangles.
    public var diagonal: DiagonalPolicy
    /// A request that would make more triangles than this is refused before anything is allocated.
    public var maximumTriangles: Int

    /// The default triangle budget: 20 million.
    public static let defaultMaximumTriangles = 20_000_000

    /// The steps automatic mode uses until tolerance-driven automatic steps exist.
    public static let provisionalAutomaticSteps = 2

    public init(
        steps: SubdivisionSteps? = nil, diagonal: DiagonalPolicy = .shortest,
        maximumTriangles: Int = TessellationOptions.defaultMaximumTriangles
    ) {
        self.steps = steps
        self.diagonal = diagonal
        self.maximumTriangles = maximumTriangles
    }

    /// The fixed number of steps these options give for a mesh.
    public func resolvedSteps(for mesh: MeshTransform) -> Int {
        switch steps ?? mesh.subdivisionSteps {
        case .automatic: TessellationOptions.provisionalAutomaticSteps
        case .fixed(let n): n
        }
    }
}
