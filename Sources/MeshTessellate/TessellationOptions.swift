import SurfaceKit

/// Options that change only the approximation of the surface, never its shape.
public struct TessellationOptions: Hashable, Sendable {
    /// Overrides the mesh's own `subdivisionSteps` when set.
    public var steps: SubdivisionSteps?
    /// How quads become triangles.
    public var diagonal: DiagonalPolicy
    /// A request that would make more triangles than this is refused before anything is allocated.
    public var maximumTriangles: Int
    /// Automatic steps: the largest distance, in points, between the triangles and the surface.
    /// `nil` is 0.001 × the larger side of the layer.
    public var tolerance: Double?

    /// The default triangle budget: 20 million.
    public static let defaultMaximumTriangles = 20_000_000

    /// What ``resolvedSteps(for:)`` answers for automatic steps. No tessellation uses it: every
    /// entry point, ``Tessellator/init(mesh:options:)`` included, makes automatic steps with the
    /// ``AdaptiveTessellator``. Kept for source compatibility.
    public static let provisionalAutomaticSteps = 2

    public init(
        steps: SubdivisionSteps? = nil, diagonal: DiagonalPolicy = .shortest,
        maximumTriangles: Int = TessellationOptions.defaultMaximumTriangles, tolerance: Double? = nil
    ) {
        self.steps = steps
        self.diagonal = diagonal
        self.maximumTriangles = maximumTriangles
        self.tolerance = tolerance
    }

    /// The fixed number of steps these options ask of a mesh (``provisionalAutomaticSteps`` for
    /// automatic, which a ``Tessellator`` does not use: it tessellates adaptively).
    public func resolvedSteps(for mesh: MeshTransform) -> Int {
        switch steps ?? mesh.subdivisionSteps {
        case .automatic: TessellationOptions.provisionalAutomaticSteps
        case .fixed(let n): n
        }
    }
}
