public extension SubdivisionPlan {
    /// Refines the control values `steps` times (no limit projection) and keeps them, so that the
    /// limit surface over any sub-quad can be evaluated at any parameter (exact hit-testing).
    /// Throws `.incompatible` when the counts do not match the plan.
    func limitPatches(vertices: [MeshVertex], weights: [Double]) throws -> LimitPatches {
        guard vertices.count == controlVertexCount, weights.count == controlVertexCount else {
            throw MeshError(
                .incompatible, path: "vertices",
                "the plan was built for \(controlVertexCount) vertices, got \(vertices.count) vertices and \(weights.count) weights")
        }
        var data = (0..<vertices.count).map { Homogeneous(vertex: vertices[$0], weight: weights[$0]) }
        for table in storage.refinement {
            data = table.apply(data)
        }
        return LimitPatches(plan: self, refined: data)
    }
}

extension TopologyLevel {
    /// The 4 × 4 control neighbourhood of face `g` as vertex indices, row by row (v), columns (u),
    /// with the face's corners at slots 5 (top-left), 6, 10, 9; −1 marks a phantom point beyond a
    /// boundary. `nil` when a corner is not regular, so the limit patch is not a B-spline.
    func regularNeighbourhood(ofFace g: Int) -> [Int32]? {
        var scratch: [Int32] = []
        for k in 0..<4 {
            let v = Int(faceVertices[4 * g + k])
            let faces = Int(vertexFaceOffsets[v + 1] - vertexFaceOffsets[v])
            switch vertexRule(v, scratch: &scratch) {
            case .smooth(let n) where n == 4: continue
            case .crease where faces == 2: continue
            case .corner where faces == 1 && vertexEdgeOffsets[v + 1] - vertexEdgeOffsets[v] == 2: continue
            default: return nil
            }
        }
        return neighbourhoodOfRegularCorners(ofFace: g).map { grid in (0..<16).map { grid[$0] } }
    }

    /// ``regularNeighbourhood(ofFace:)`` for a face whose four corners are already known to be
    /// regular (``isRegularCorner(_:)``), so that a caller testing every vertex once need not test
    /// each again for every face around it. `nil` when a diagonal face is missing. A value, not an
    /// array: no allocation per face.
    func neighbourhoodOfRegularCorners(ofFace g: Int) -> SIMD16<Int32>? {
        var grid = SIMD16<Int32>(repeating: -1)
        // Grid slots of the face's corners, of the two vertices across each edge k (beyond corner k,
        // beyond corner k+1) and of the vertex diagonally beyond each corner.
        let cornerSlot = SIMD4(5, 6, 10, 9)
        // Across edge k, the vertex beyond corner k and the one beyond corner k+1.
        let edgeOuter = (SIMD4(1, 7, 14, 8), SIMD4(2, 11, 13, 4))
        let diagonalSlot = SIMD4(0, 3, 15, 12)
        for k in 0..<4 { grid[cornerSlot[k]] = faceVertices[4 * g + k] }
        var across = SIMD4<Int>(repeating: -1)
        for k in 0..<4 {
            guard let n = faceAcross(edge: Int(faceEdges[4 * g + k]), from: g) else { continue }
            across[k] = n
            let a = faceVertices[4 * g + k]
            // The neighbour runs b → a → x → y: x lies beyond a, y beyond b.
            let m = corner(of: a, inFace: n)
            grid[edgeOuter.0[k]] = faceVertices[4 * n + (m + 1) % 4]
            grid[edgeOuter.1[k]] = faceVertices[4 * n + (m + 2) % 4]
        }
        for k in 0..<4 {
            // The diagonal face at corner k exists only when both faces across the corner's edges do
            // (an interior vertex of valence 4): it is the face across the neighbour's edge from the
            // corner to the vertex beyond it.
            let n = across[k], previous = across[(k + 3) % 4]
            guard n >= 0, previous >= 0 else { continue }
            let a = faceVertices[4 * g + k]
            let m = corner(of: a, inFace: n)
            guard let d = faceAcross(edge: Int(faceEdges[4 * n + m]), from: n) else { return nil }
            grid[diagonalSlot[k]] = faceVertices[4 * d + (corner(of: a, inFace: d) + 2) % 4]
        }
        return grid
    }

    func faceAcross(edge e: Int, from f: Int) -> Int? {
        let a = Int(edgeFaces[2 * e]), b = Int(edgeFaces[2 * e + 1])
        let other = a == f ? b : a
        return other >= 0 ? other : nil
    }

    /// Fills the slots marked −1 by mirroring across the boundary, `P₋₁ = 2P₀ − P₁` (the
    /// edge-and-corner rule's B-spline boundary), first the middle of each row and column, then
    /// the grid corners (which mirroring either way gives equally).
    static func fillPhantoms(_ c: inout [SIMD8<Double>], indices: [Int32]) {
        var known = indices.map { $0 >= 0 }
        func mirror(_ target: Int, _ p0: Int, _ p1: Int) {
            guard !known[target] else { return }
            c[target] = 2 * c[p0] - c[p1]
            known[target] = true
        }
        // Middles: top, bottom, left, right.
        mirror(1, 5, 9); mirror(2, 6, 10)
        mirror(13, 9, 5); mirror(14, 10, 6)
        mirror(4, 5, 6); mirror(8, 9, 10)
        mirror(7, 6, 5); mirror(11, 10, 9)
        // Grid corners: across the boundary that makes them phantom. When the corner's row is real
        // (a neighbour across the top or bottom edge), the boundary runs down the side: mirror
        // along the row; otherwise mirror along the column.
        if indices[1] >= 0 { mirror(0, 1, 2) } else { mirror(0, 4, 8) }
        if indices[2] >= 0 { mirror(3, 2, 1) } else { mirror(3, 7, 11) }
        if indices[13] >= 0 { mirror(12, 13, 14) } else { mirror(12, 8, 4) }
        if indices[14] >= 0 { mirror(15, 14, 13) } else { mirror(15, 11, 7) }
    }
}
