/// A mesh's limit surface as rational bicubic B-spline surfaces, from
/// ``MeshTransform/nurbsPatches(tolerance:size:)``.
public struct NURBSPatches: Hashable, Sendable {
    /// How the surfaces cover the mesh.
    public enum Layout: Hashable, Sendable {
        /// One surface for a rows × columns grid: u ∈ [0, columns], v ∈ [0, rows], face (i, j)
        /// covering [j, j+1] × [i, i+1] in its own corner-0→1 (u) and corner-0→3 (v) directions.
        case grid(rows: Int, columns: Int, faces: [Int])
        /// Surfaces per control face (``NURBSSurface/face``), each over part of that face's
        /// parameter square [0, 1]² (u from corner 0 to 1, v from corner 0 to 3); together they
        /// tile it. A regular face is one surface.
        case perFace
    }

    public let surfaces: [NURBSSurface]
    public let layout: Layout
    /// The tolerance (points) the approximations were made to.
    public let tolerance: Double
    /// The largest deviation of any approximated surface (0 when every surface is exact).
    public var maximumDeviation: Double { surfaces.reduce(0) { max($0, $1.deviation) } }
    /// Whether every surface is the limit surface exactly.
    public var isExact: Bool { surfaces.allSatisfy(\.isExact) }
}

public extension NURBSPatches {
    /// The point of the limit surface at (u, v) of control face `face` (parameters in [0, 1]²), as
    /// these surfaces give it; `nil` for a face the surfaces do not cover.
    func evaluate(face: Int, u: Double, v: Double) -> Point3D? {
        switch layout {
        case .grid(_, let columns, let faces):
            guard let slot = faces.firstIndex(of: face), let surface = surfaces.first else { return nil }
            return surface.evaluate(u: Double(slot % columns) + u, v: Double(slot / columns) + v)
        case .perFace:
            let candidates = surfaces.filter { $0.face == face }
            let inside = candidates.first { $0.domainU.contains(u) && $0.domainV.contains(v) }
            return inside?.evaluate(u: u, v: v)
        }
    }
}
