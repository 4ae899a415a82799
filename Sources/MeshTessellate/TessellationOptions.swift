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

    /// The steps a uniform ``Tessellator`` made for automatic steps uses: it has no layer to
    /// measure a tolerance in. ``Tessellator/tessellate(_:options:space:)``, ``HitTester`` and
    /// `meshgeo` use the ``AdaptiveTessellator`` for automatic steps instead.
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

    /// The fixed number of steps these options give a uniform ``Tessellator`` for a mesh
    /// (``provisionalAutomaticSteps`` for automatic).
    public func resolvedSteps(for mesh: MeshTransform) -> Int {
        switch steps ?? mesh.subdivisionSteps {
        case .automatic: TessellationOptions.provisionalAutomaticSteps
        case .fixed(let n): n
        }
    }
}
