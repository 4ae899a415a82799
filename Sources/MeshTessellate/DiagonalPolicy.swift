/// How a (sub-)quad with corners 0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left becomes
/// triangles.
public enum DiagonalPolicy: String, CaseIterable, Hashable, Sendable {
    /// Along corners 0–2, as BCMeshTransformView and (by all evidence) Core Animation.
    case first
    /// Along corners 1–3.
    case second
    /// The shorter diagonal in points space; ties go to `first`. Mirrored meshes give mirrored
    /// triangulations: the diagonal runs through a vertex that was pulled in.
    case shortest
    /// The diagonal whose midpoint lies nearer the surface point at the quad's centre; ties go to
    /// `shortest`.
    case surface
    /// Four triangles around the quad's centre (the surface point there), symmetric always.
    case center

    /// Triangles each quad becomes.
    public var trianglesPerQuad: Int { self == .center ? 4 : 2 }

    /// Whether the policy needs the surface point at each quad's centre.
    public var needsCenters: Bool { self == .surface || self == .center }
}

/// The coordinate space of a triangle mesh's positions and normals.
public enum CoordinateSpace: String, CaseIterable, Hashable, Sendable {
    /// Unit coordinates of the layer, as mesh.json's `to`.
    case unit
    /// Points: unit scaled by (W, H, D).
    case points
    /// Points carried through the layer transform about the anchor and divided by w; geometry at or
    /// behind the eye is clipped.
    case screen
}
