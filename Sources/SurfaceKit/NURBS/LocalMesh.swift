/// A small mesh around one target face (its face 0) with homogeneous control values: what the
/// limit surface over the target depends on, refined without the rest of the mesh.
///
/// The target's ring (the faces sharing a vertex with it) holds every control value the rules
/// reach for the target and for one layer of faces around it at each finer level, and the
/// vertices of the target keep all their faces, so each level of the small mesh agrees with the
/// whole mesh's refinement over the target's children and their one-face neighbourhoods. Child q
/// of the target (the one at its corner q) is face q after one refinement.
struct LocalMesh {
    var level: TopologyLevel
    var data: [Homogeneous]

    /// The ring of face `g` of `level`, with `g` as face 0 and every face keeping its corner order.
    init(ringOf g: Int, in level: TopologyLevel, data: [Homogeneous]) throws {
        var faces = [g]
        var seen: Set<Int> = [g]
        for k in 0..<4 {
            let v = Int(level.faceVertices[4 * g + k])
            for slot in Int(level.vertexFaceOffsets[v])..<Int(level.vertexFaceOffsets[v + 1]) {
                let h = Int(level.vertexFaces[slot])
                if seen.insert(h).inserted { faces.append(h) }
            }
        }
        var local: [Int32: Int] = [:]
        var localData: [Homogeneous] = []
        var localFaces: [MeshFace] = []
        for h in faces {
            var indices = SIMD4<Int>()
            for k in 0..<4 {
                let v = level.faceVertices[4 * h + k]
                if let i = local[v] {
                    indices[k] = i
                } else {
                    local[v] = localData.count
                    indices[k] = localData.count
                    localData.append(data[Int(v)])
                }
            }
            localFaces.append(MeshFace(indices: indices))
        }
        self.level = try SurfaceTopology(faces: localFaces, vertexCount: localData.count).level
        self.data = localData
    }

    init(level: TopologyLevel, data: [Homogeneous]) {
        self.level = level
        self.data = data
    }

    /// One Catmull–Clark step of topology and values.
    func refined() -> LocalMesh {
        LocalMesh(level: level.refined(), data: level.refinementStencils().apply(data))
    }

    /// The 16 uniform B-spline control values of face `f` (phantoms mirrored across boundaries),
    /// or `nil` when a corner of `f` is not regular.
    func regularControl(ofFace f: Int) -> [Homogeneous]? {
        guard let indices = level.regularNeighbourhood(ofFace: f) else { return nil }
        var values = indices.map { $0 >= 0 ? data[Int($0)] : Homogeneous() }
        TopologyLevel.fillPhantoms(&values, indices: indices)
        return values
    }

    /// Homogeneous limit values of face 0 on the (2ˢ + 1)² grid of parameters (i/2ˢ, j/2ˢ), sample
    /// (i, j) at index j·(2ˢ + 1) + i: refine s times, then apply the limit masks.
    func limitGrid(steps s: Int) -> [Homogeneous] {
        var mesh = self
        for _ in 0..<s { mesh = mesh.refined() }
        let n = 1 << s, side = n + 1
        // Face 0's descendants after s steps are faces 0 ..< 4ˢ, in the plan's quadrant order.
        let (quads, _) = SubdivisionPlan.quadOrder(level: mesh.level, controlFaces: 1, steps: s)
        let limit = LimitStencilTable(level: mesh.level)
        var grid = [Homogeneous](repeating: .zero, count: side * side)
        mesh.data.withUnsafeBufferPointer { src in
            limit.withView { view in
                for q in 0..<(n * n) {
                    let i = q % n, j = q / n
                    let slots = [j * side + i, j * side + i + 1, (j + 1) * side + i + 1, (j + 1) * side + i]
                    for k in 0..<4 {
                        let v = Int(quads[4 * q + k])
                        grid[slots[k]] = view.frame(at: v, data: src)?.position ?? src[v]
                    }
                }
            }
        }
        return grid
    }
}
