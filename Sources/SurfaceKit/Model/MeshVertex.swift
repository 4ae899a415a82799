/// A vertex of a mesh transform: "take the layer point `from` and move it to `to`".
///
/// Both are unit coordinates of the layer (see ``DepthNormalization`` for how `to.z` maps to points).
/// With subdivision steps above zero the vertex is a control point: the surface is pulled toward it
/// but does not pass through it.
public struct MeshVertex: Hashable, Sendable {
    /// The point of the flat layer, in unit coordinates.
    public var from: LayerPoint
    /// Where that point goes, in unit coordinates (x, y) and normalized depth (z).
    public var to: Point3D

    public init(from: LayerPoint, to: Point3D) {
        self.from = from
        self.to = to
    }

    /// A vertex that leaves its layer point where it is (`to = (from, 0)`).
    public init(identityAt point: LayerPoint) {
        self.init(from: point, to: Point3D(point.x, point.y, 0))
    }
}
