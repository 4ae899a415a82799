public extension MeshTransform {
    /// The limit surface as rational bicubic B-spline (NURBS) surfaces in points space, for a layer
    /// of `size` points (depth scaled by the mesh's ``depthNormalization``).
    ///
    /// - A mesh that is a rows × columns grid (any numbering) becomes one surface, exactly.
    /// - Otherwise each face gets its own surfaces: one exact surface for a regular face; a face at
    ///   an extraordinary or non-manifold vertex is refined locally, its regular sub-faces become
    ///   exact surfaces and the sub-faces at the vertex bicubic approximations within `tolerance`
    ///   (points; default 0.001 × the larger side), refined up to
    ///   10 levels (a sub-face 1/1024 of its face across). ``NURBSPatches/maximumDeviation``
    ///   reports the largest deviation found.
    ///
    /// Throws `.invalidValue` for a mesh without faces, a size or tolerance that is not a finite
    /// positive number, and `.limitExceeded` where the homogeneous values leave the range of doubles.
    func nurbsPatches(tolerance: Double? = nil, size: SIMD2<Double> = SIMD2(1, 1)) throws -> NURBSPatches {
        guard !faces.isEmpty else {
            throw MeshError(.invalidValue, path: "faces", "the mesh has no faces, so there is no surface to export")
        }
        guard size.x.isFinite, size.y.isFinite, size.x > 0, size.y > 0 else {
            throw MeshError(.invalidValue, path: "layer.size", "the layer size must be finite and above zero")
        }
        let tolerance = tolerance ?? 0.001 * max(size.x, size.y)
        guard tolerance.isFinite, tolerance > 0 else {
            throw MeshError(.invalidValue, path: "", "the tolerance must be a finite number of points above zero")
        }
        let scale = SIMD3(size.x, size.y, depthNormalization.depthScale(for: size))
        let topology = try SurfaceTopology(faces: faces, vertexCount: vertices.count)
        let weights = topology.vertexWeights(faces: faces)
        let control = FaceSurfaces.homogeneous(vertices: vertices, weights: weights)
        if let grid = GridLayout(level: topology.level) {
            let net = ClampedGridSurface.net(layout: grid, control: control.map { HomogeneousNet.points($0, scale: scale) })
            guard let surface = net.surface(face: nil, exact: true, deviation: 0) else {
                throw MeshError(
                    .limitExceeded, path: "vertices",
                    "the surface has no rational B-spline form in the range of doubles (extreme weights or coordinates)")
            }
            return NURBSPatches(
                surfaces: [surface], layout: .grid(rows: grid.rows, columns: grid.columns, faces: grid.faces), tolerance: tolerance)
        }
        let faceSurfaces = FaceSurfaces(topology: topology)
        let local = ExtraordinaryFacePatches(topology: topology, control: control, pointScale: scale, tolerance: tolerance)
        // Each face's regular patch, worked out once (nil at an extraordinary vertex).
        let regular = (0..<faces.count).map { faceSurfaces.patch(ofFace: $0, control: control) }
        let irregular = regular.indices.filter { regular[$0] == nil }
        let levels = try local.vertexLevels(faces: irregular)
        var surfaces: [NURBSSurface] = []
        for f in 0..<faces.count {
            if let patch = regular[f] {
                let net = HomogeneousNet.bezier(
                    uniform: patch.control.map { HomogeneousNet.points($0, scale: scale) }, u0: 0, v0: 0, size: 1)
                surfaces.append(try local.surface(net, face: f, exact: true, deviation: 0))
            } else {
                surfaces += try local.patches(face: f, levels: levels)
            }
        }
        return NURBSPatches(surfaces: surfaces, layout: .perFace, tolerance: tolerance)
    }
}

public extension MeshDocument {
    /// ``MeshTransform/nurbsPatches(tolerance:size:)`` for this document's layer size.
    func nurbsPatches(tolerance: Double? = nil) throws -> NURBSPatches {
        try mesh.nurbsPatches(tolerance: tolerance, size: layer.size)
    }
}
