import SurfaceKit

/// The frontmost surface under a screen point (Docs/hit-testing.md): the layer point it shows, the surface
/// point, the control face and the screen depth.
public struct ScreenHit: Hashable, Sendable {
    /// The layer point shown at the screen point (unit coordinates).
    public var from: LayerPoint
    /// The surface point (unit coordinates, as mesh.json's `to`).
    public var to: Point3D
    /// The control face hit.
    public var face: Int
    /// Screen z after the perspective divide; larger is nearer the viewer.
    public var depth: Double
    /// The points-space hit: triangle, barycentric weights, position, normals. Its `t` is the
    /// parameter along the points-space preimage ray of the screen point (when the layer transform
    /// is singular there is no such ray; `t` is then minus the depth).
    public var hit: RayHit

    /// Whether the hit was refined on the limit surface.
    public var isExact: Bool { hit.isExact }
}
