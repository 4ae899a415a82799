/// Building meshes: the identity grid and generators, as BCMeshTransform's convenience methods.
public extension MeshTransform {
    /// A grid of `rows × columns` faces whose vertices leave the layer as it is (`to = (from, 0)`).
    ///
    /// Vertex (i, j), row i and column j, is at index `i · (columns + 1) + j` with
    /// `from = (j / columns, i / rows)`; face (r, c) is at index `r · columns + c`.
    /// Throws `.limitExceeded` when either count is below 1 or the grid would exceed
    /// `maximumFaces` faces.
    static func identity(
        rows: Int, columns: Int, depthNormalization: DepthNormalization = .none,
        subdivisionSteps: SubdivisionSteps = .automatic, maximumFaces: Int = 16_000_000
    ) throws -> MeshTransform {
        guard rows >= 1, columns >= 1 else {
            throw MeshError(.invalidValue, path: "", "a grid needs at least one row and one column of faces (got \(rows) × \(columns))")
        }
        let (faceCount, overflow) = rows.multipliedReportingOverflow(by: columns)
        guard !overflow, faceCount <= maximumFaces else {
            throw MeshError(.limitExceeded, path: "", "a \(rows) × \(columns) grid exceeds the limit of \(maximumFaces) faces")
        }
        var vertices = [MeshVertex]()
        vertices.reserveCapacity((rows + 1) * (columns + 1))
        for i in 0...rows {
            for j in 0...columns {
                vertices.append(MeshVertex(identityAt: LayerPoint(Double(j) / Double(columns), Double(i) / Double(rows))))
            }
        }
        var faces = [MeshFace]()
        faces.reserveCapacity(faceCount)
        let stride = columns + 1
        for r in 0..<rows {
            for c in 0..<columns {
                let tl = r * stride + c
                faces.append(MeshFace(tl, tl + 1, tl + stride + 1, tl + stride))
            }
        }
        return MeshTransform(
            unchecked: vertices, faces: faces, depthNormalization: depthNormalization,
            subdivisionSteps: subdivisionSteps)
    }

    /// A mesh from generators called `vertexCount` and `faceCount` times, validated.
    init(
        vertexCount: Int, vertex: (Int) throws -> MeshVertex,
        faceCount: Int, face: (Int) throws -> MeshFace,
        depthNormalization: DepthNormalization = .none,
        subdivisionSteps: SubdivisionSteps = .automatic
    ) throws {
        try self.init(
            vertices: (0..<max(0, vertexCount)).map(vertex),
            faces: (0..<max(0, faceCount)).map(face),
            depthNormalization: depthNormalization,
            subdivisionSteps: subdivisionSteps)
    }
}
