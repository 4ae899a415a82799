/// A mesh transform: vertices that move layer points to 3D points, and quad faces over them.
///
/// This is the open counterpart of `CAMeshTransform`. The vertices are control points of a
/// rational Catmull–Clark surface (see ``SurfaceTopology``); `subdivisionSteps` says how finely it
/// is tessellated. The public initialiser validates everything (indices, weights, numbers,
/// topology); editing methods check what they touch.
public struct MeshTransform: Hashable, Sendable {
    public internal(set) var vertices: [MeshVertex]
    public internal(set) var faces: [MeshFace]
    public var depthNormalization: DepthNormalization
    public var subdivisionSteps: SubdivisionSteps

    /// A validated mesh. Throws a ``MeshError`` naming the path (`faces[3].indices[1]`) of the first
    /// problem found, including topology errors.
    public init(
        vertices: [MeshVertex],
        faces: [MeshFace],
        depthNormalization: DepthNormalization = .none,
        subdivisionSteps: SubdivisionSteps = .automatic
    ) throws {
        self.init(
            unchecked: vertices, faces: faces, depthNormalization: depthNormalization,
            subdivisionSteps: subdivisionSteps)
        try validate()
    }

    /// No checks: for code that builds meshes known to be valid. ``validate()`` checks later.
    init(
        unchecked vertices: [MeshVertex],
        faces: [MeshFace],
        depthNormalization: DepthNormalization,
        subdivisionSteps: SubdivisionSteps
    ) {
        self.vertices = vertices
        self.faces = faces
        self.depthNormalization = depthNormalization
        self.subdivisionSteps = subdivisionSteps
    }

    /// An empty mesh (valid: it tessellates to nothing).
    public init() {
        self.init(unchecked: [], faces: [], depthNormalization: .none, subdivisionSteps: .automatic)
    }
}
