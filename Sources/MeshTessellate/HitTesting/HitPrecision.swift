/// How a hit is located.
public enum HitPrecision: String, CaseIterable, Hashable, Sendable {
    /// On the tessellated triangles: `from` is the barycentric interpolation on the hit triangle in
    /// points space (perspective-correct for screen queries).
    case triangles
    /// Refined on the limit surface itself (Newton on the sub-quad's rational bicubic patch, from
    /// the triangle hit), so `from` is the surface's own to about 1e-12, whatever the steps. Where
    /// the sub-quad touches an extraordinary vertex, or the refinement would leave the control
    /// face, the triangle hit is kept and the result says so (`isExact == false`).
    case exact
}
