/// Points of the surface with their layer coordinates and normals.
public struct SurfaceSamples: Sendable, Equatable {
    /// Layer points (the smoothed `from`), unit coordinates.
    public var from: [LayerPoint]
    /// Surface points (the smoothed `to`), unit coordinates.
    public var to: [Point3D]
    /// Unit normals in points space, `normalize(Tu × Tv)`.
    public var normals: [Point3D]

    public init(from: [LayerPoint] = [], to: [Point3D] = [], normals: [Point3D] = []) {
        self.from = from
        self.to = to
        self.normals = normals
    }

    public var count: Int { to.count }
}
