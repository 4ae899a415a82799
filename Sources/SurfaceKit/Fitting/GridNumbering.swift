/// A mesh whose faces are an R × C grid under some numbering of its vertices, whatever order its
/// faces are listed in and whichever corner each face starts at: the map from grid positions to
/// the mesh's vertices, which lets the tensor-product solver fit it.
///
/// The limit operator depends only on which vertices share faces (the masks of a regular grid
/// are the same for every numbering), so a renumbered grid has the operator of the row-major
/// grid with its rows and columns permuted: solving in grid order and scattering the result back
/// gives the same control points as the row-major grid, to rounding.
struct GridNumbering: Sendable {
    let grid: RegularGrid
    /// `vertexAt[r·(C + 1) + c]` is the mesh's vertex at grid position (r, c); `nil` when the
    /// mesh is already the row-major grid (``RegularGrid``'s own numbering).
    let vertexAt: [Int]?

    /// Recognises the grid, or returns `nil`: first the row-major pattern (a check of every face,
    /// cheap), then by topology.
    ///
    /// By topology: a grid has exactly four vertices in one face only (its corners). Breadth-first
    /// distances along the mesh's edges from one corner are r + c, and from the nearest other
    /// corner (0, C) they are r + C − c, which gives every vertex a proposed position. The proposal
    /// is then checked, not trusted: every vertex at its own position, and every face exactly one
    /// unit cell of the grid, all of one orientation, each cell once. Those checks make the faces
    /// the grid's faces, so nothing the search assumed needs to hold for the answer to be right.
    /// Cost: linear in the mesh (two searches and one pass over the faces).
    init?(vertexCount n: Int, faces: [MeshFace]) {
        if let grid = RegularGrid(vertexCount: n, faces: faces) {
            self.grid = grid
            self.vertexAt = nil
            return
        }
        guard n >= 4, n <= Int(Int32.max), !faces.isEmpty, faces.count <= n else { return nil }
        // Edges of the mesh, at most four distinct neighbours a vertex (a grid has no more).
        let slots = GridNumbering.maximumNeighbours
        var neighbours = [Int32](repeating: -1, count: slots * n)
        var faceCount = [Int32](repeating: 0, count: n)
        for face in faces {
            for k in 0..<4 {
                let v = face.indices[k]
                guard v >= 0, v < n else { return nil }
                faceCount[v] += 1
                guard faceCount[v] <= 4 else { return nil }
            }
            for k in 0..<4 {
                let a = face.indices[k], b = face.indices[(k + 1) % 4]
                guard a != b, GridNumbering.link(a, b, in: &neighbours), GridNumbering.link(b, a, in: &neighbours) else { return nil }
            }
        }
        var corners: [Int] = []
        for v in 0..<n {
            guard faceCount[v] > 0 else { return nil }
            if faceCount[v] == 1 { corners.append(v) }
        }
        guard corners.count == 4 else { return nil }
        guard let fromFirst = GridNumbering.distances(from: corners[0], neighbours: neighbours, count: n) else { return nil }
        // The other corners lie at distances C, R and R + C from the first.
        let others = corners.dropFirst().sorted { (fromFirst[$0], $0) < (fromFirst[$1], $1) }
        let columns = Int(fromFirst[others[0]]), rows = Int(fromFirst[others[1]])
        guard columns >= 1, rows >= 1, Int(fromFirst[others[2]]) == rows + columns else { return nil }
        let (vertices, overflow) = (rows + 1).multipliedReportingOverflow(by: columns + 1)
        guard !overflow, vertices == n, rows * columns == faces.count else { return nil }
        guard let fromSecond = GridNumbering.distances(from: others[0], neighbours: neighbours, count: n) else { return nil }

        // Proposed positions: r = (d₀ + d₁ − C) / 2, c = d₀ − r; each grid point taken once.
        var row = [Int32](repeating: 0, count: n), column = [Int32](repeating: 0, count: n)
        var vertexAt = [Int](repeating: -1, count: n)
        for v in 0..<n {
            let twice = Int(fromFirst[v]) + Int(fromSecond[v]) - columns
            guard twice >= 0, twice % 2 == 0 else { return nil }
            let r = twice / 2, c = Int(fromFirst[v]) - r
            guard r <= rows, c >= 0, c <= columns else { return nil }
            let g = r * (columns + 1) + c
            guard vertexAt[g] < 0 else { return nil }
            vertexAt[g] = v
            row[v] = Int32(r)
            column[v] = Int32(c)
        }
        // Every face one unit cell, corners in cyclic order, one orientation, each cell once.
        var covered = [Bool](repeating: false, count: faces.count)
        var orientation: Int32 = 0
        for face in faces {
            let i = face.indices
            let r0 = row[i[0]], c0 = column[i[0]]
            let e1 = (row[i[1]] - r0, column[i[1]] - c0), e2 = (row[i[3]] - r0, column[i[3]] - c0)
            guard abs(e1.0) + abs(e1.1) == 1, abs(e2.0) + abs(e2.1) == 1 else { return nil }
            let turn = e1.0 * e2.1 - e1.1 * e2.0
            guard turn != 0, orientation == 0 || turn == orientation else { return nil }
            orientation = turn
            guard row[i[2]] == r0 + e1.0 + e2.0, column[i[2]] == c0 + e1.1 + e2.1 else { return nil }
            let cell = Int(min(r0, r0 + e1.0 + e2.0)) * columns + Int(min(c0, c0 + e1.1 + e2.1))
            guard !covered[cell] else { return nil }
            covered[cell] = true
        }
        self.grid = RegularGrid(rows: rows, columns: columns)
        self.vertexAt = vertexAt
    }

    /// A grid vertex has at most four neighbours along edges.
    static let maximumNeighbours = 4

    /// Records b among a's neighbours; false when a would have more than a grid vertex can.
    private static func link(_ a: Int, _ b: Int, in neighbours: inout [Int32]) -> Bool {
        let base = a * maximumNeighbours
        for k in base..<(base + maximumNeighbours) {
            if neighbours[k] == Int32(b) { return true }
            if neighbours[k] < 0 {
                neighbours[k] = Int32(b)
                return true
            }
        }
        return false
    }

    /// Breadth-first distances along edges from `root`; `nil` when a vertex cannot be reached
    /// (a grid is connected).
    private static func distances(from root: Int, neighbours: [Int32], count n: Int) -> [Int32]? {
        var distance = [Int32](repeating: -1, count: n)
        var queue = [Int32]()
        queue.reserveCapacity(n)
        queue.append(Int32(root))
        distance[root] = 0
        var head = 0
        while head < queue.count {
            let v = Int(queue[head])
            head += 1
            for k in (v * maximumNeighbours)..<((v + 1) * maximumNeighbours) {
                let w = Int(neighbours[k])
                guard w >= 0 else { break }
                if distance[w] < 0 {
                    distance[w] = distance[v] + 1
                    queue.append(Int32(w))
                }
            }
        }
        return queue.count == n ? distance : nil
    }
}
