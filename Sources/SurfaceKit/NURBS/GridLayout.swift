/// Where each face and vertex of a mesh sits when the mesh is a rows × columns grid whose faces
/// all share one frame: face (i, j) has corners vertex (i, j), (i, j+1), (i+1, j+1), (i+1, j) in
/// its own order 0, 1, 2, 3, so its corner-0→1 direction is +u and its corner-0→3 direction +v.
///
/// Recognised from the topology alone: any vertex and face numbering. A grid closed on itself
/// (a cylinder or torus) or with faces turned against their neighbours is not one.
struct GridLayout: Hashable, Sendable {
    let rows: Int
    let columns: Int
    /// The control vertex at grid vertex (i, j): `vertices[i · (columns + 1) + j]`.
    let vertices: [Int]
    /// The control face at grid face (i, j): `faces[i · columns + j]`.
    let faces: [Int]

    /// `nil` unless the faces of `level` form such a grid.
    init?(level: TopologyLevel) {
        let faceCount = level.faceCount
        guard faceCount > 0 else { return nil }
        func across(_ f: Int, _ k: Int) -> Int? { level.faceAcross(edge: Int(level.faceEdges[4 * f + k]), from: f) }
        func corner(_ f: Int, _ k: Int) -> Int { Int(level.faceVertices[4 * f + k]) }
        // The face at grid (0, 0): nothing across its edges 3 (corner 3→0) and 0 (corner 0→1).
        guard let start = (0..<faceCount).first(where: { across($0, 3) == nil && across($0, 0) == nil }) else { return nil }
        var columns = 1
        var f = start
        while let g = across(f, 1), columns <= faceCount {
            f = g
            columns += 1
        }
        var rows = 1
        f = start
        while let g = across(f, 2), rows <= faceCount {
            f = g
            rows += 1
        }
        guard rows * columns == faceCount else { return nil }
        var faces = [Int](repeating: -1, count: faceCount)
        var vertices = [Int](repeating: -1, count: (rows + 1) * (columns + 1))
        var usedFaces = Set<Int>(), usedVertices = Set<Int>()
        for i in 0..<rows {
            for j in 0..<columns {
                let face: Int
                if i == 0 && j == 0 {
                    face = start
                } else if j == 0 {
                    // Below the face above: it must share its top edge (corners 0, 1) with that face's
                    // bottom edge (corners 3, 2).
                    let above = faces[(i - 1) * columns]
                    guard let g = across(above, 2), corner(g, 0) == corner(above, 3) else { return nil }
                    face = g
                } else {
                    let left = faces[i * columns + j - 1]
                    guard let g = across(left, 1), corner(g, 0) == corner(left, 1) else { return nil }
                    face = g
                }
                guard usedFaces.insert(face).inserted else { return nil }
                faces[i * columns + j] = face
                let slots = [
                    i * (columns + 1) + j, i * (columns + 1) + j + 1, (i + 1) * (columns + 1) + j + 1, (i + 1) * (columns + 1) + j,
                ]
                for k in 0..<4 {
                    let v = corner(face, k)
                    if vertices[slots[k]] < 0 {
                        guard usedVertices.insert(v).inserted else { return nil }
                        vertices[slots[k]] = v
                    } else if vertices[slots[k]] != v {
                        return nil
                    }
                }
            }
        }
        self.rows = rows
        self.columns = columns
        self.vertices = vertices
        self.faces = faces
    }
}
