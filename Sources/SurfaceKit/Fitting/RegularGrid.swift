/// A mesh whose faces are exactly an R × C grid in row-major order, as
/// ``MeshTransform/identity(rows:columns:depthNormalization:subdivisionSteps:maximumFaces:)`` makes:
/// vertex (r, c) is index `r·(C + 1) + c` and face (r, c), index `r·C + c`, has corners
/// (r, c), (r, c + 1), (r + 1, c + 1), (r + 1, c).
///
/// On such a mesh every vertex is regular for the edge-and-corner rules (interior with four faces,
/// boundary with two, or a corner of one face), which is what lets the limit operator split into
/// one tridiagonal matrix per direction.
struct RegularGrid: Hashable, Sendable {
    /// Rows of faces (R).
    let rows: Int
    /// Columns of faces (C).
    let columns: Int

    var vertexRows: Int { rows + 1 }
    var vertexColumns: Int { columns + 1 }

    init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
    }

    /// `nil` unless the vertex count and every face match the grid pattern exactly.
    init?(vertexCount: Int, faces: [MeshFace]) {
        guard let first = faces.first, first.indices[0] == 0, first.indices[1] == 1 else { return nil }
        let stride = first.indices[3]
        let columns = stride - 1
        guard columns >= 1, faces.count % columns == 0 else { return nil }
        let rows = faces.count / columns
        let (vertices, overflow) = (rows + 1).multipliedReportingOverflow(by: stride)
        guard !overflow, vertices == vertexCount else { return nil }
        for (f, face) in faces.enumerated() {
            let tl = (f / columns) * stride + f % columns
            guard face.indices == SIMD4(tl, tl + 1, tl + stride + 1, tl + stride) else { return nil }
        }
        self.rows = rows
        self.columns = columns
    }
}
