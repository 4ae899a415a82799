import SurfaceKit

/// The nearest hit of a ray on a tessellated mesh (points space).
public struct RayHit: Hashable, Sendable {
    /// The ray parameter of the hit: `ray.origin + t · ray.direction` is ``position``.
    public var t: Double
    /// The hit triangle (index into the mesh's triangles).
    public var triangle: Int
    /// The control face the triangle came from.
    public var face: Int
    /// Barycentric weights of the triangle's three vertices at the hit (they sum to 1). In exact
    /// mode they are those of the triangle hit the refinement started from.
    public var barycentric: SIMD3<Double>
    /// The hit point, points space.
    public var position: Point3D
    /// The layer point shown there (unit coordinates).
    public var from: LayerPoint
    /// The unit surface normal, points space: the triangle's vertex normals interpolated, or the
    /// exact limit normal in exact mode.
    public var normal: Point3D
    /// The unit normal of the hit triangle's plane, `(b − a) × (c − a)` normalized.
    public var geometricNormal: Point3D
    /// The sub-quad the hit lies in and its (u, v) in [0, 1]² (u along the control face's corner
    /// 0 → 1, v along 0 → 3), when the hit was refined on the limit surface.
    public var quad: Int?
    public var patchParameter: SIMD2<Double>?
    /// Whether the hit lies on the limit surface (exact mode succeeded) rather than on the triangle.
    public var isExact: Bool
}
