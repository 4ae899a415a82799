import SurfaceKit

/// An indexed triangle mesh: the tessellated surface, ready to draw or export.
///
/// Every vertex carries its position and unit normal (both in ``space``) and its layer point
/// (`from`, unit coordinates, the texture coordinate). Every triangle carries the control face it
/// came from. Triangles wind counter-clockwise around the normal (`(b − a) × (c − a)` points the way
/// of the vertex normals of a surface without folds).
public struct TriangleMesh: Hashable, Sendable {
    public var space: CoordinateSpace
    public var positions: [Point3D]
    public var from: [LayerPoint]
    public var normals: [Point3D]
    /// Three vertex indices per triangle, in draw order.
    public var triangles: [SIMD3<Int32>]
    /// The control face of each triangle.
    public var sourceFaces: [Int32]

    public init(
        space: CoordinateSpace, positions: [Point3D], from: [LayerPoint], normals: [Point3D],
        triangles: [SIMD3<Int32>], sourceFaces: [Int32]
    ) {
        self.space = space
        self.positions = positions
        self.from = from
        self.normals = normals
        self.triangles = triangles
        self.sourceFaces = sourceFaces
    }

    public var vertexCount: Int { positions.count }
    public var triangleCount: Int { triangles.count }

    /// The smallest box holding every vertex, or `nil` for an empty mesh.
    public var bounds: (min: Point3D, max: Point3D)? {
        guard var lo = positions.first else { return nil }
        var hi = lo
        for p in positions {
            lo = pointwiseMin(lo, p)
            hi = pointwiseMax(hi, p)
        }
        return (lo, hi)
    }
}
