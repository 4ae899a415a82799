/// The patches of a face that touches an extraordinary (or non-manifold) vertex, where the limit
/// surface is no finite NURBS: the face is refined locally until the sub-faces at such a vertex are
/// small enough that a bicubic patch stays within the tolerance of the limit surface; every other
/// sub-face is regular and becomes an exact patch.
///
/// Each such vertex gets one level for all its faces (the finest any of them needs), so the
/// approximated sub-faces on both sides of an edge from the vertex have the same length along it
/// and fit the same boundary curve: the patches meet without gaps (to rounding).
struct ExtraordinaryFacePatches {
    /// The deepest local refinement: the sub-face at the vertex is then 1/1024 of its face across.
    static let maximumLevel = 10
    /// An approximation is accepted when the deviation measured on its sample grid is within this
    /// fraction of the tolerance, leaving a margin for the points between the samples.
    static let acceptanceFraction = 0.5

    let topology: SurfaceTopology
    let control: [Homogeneous]
    let pointScale: SIMD3<Double>
    let tolerance: Double

    /// The refinement level each irregular vertex needs, from its faces' corner sub-faces.
    func vertexLevels(faces: [Int]) throws -> [Int32: Int] {
        var levels: [Int32: Int] = [:]
        for f in faces {
            let child = try LocalMesh(ringOf: f, in: topology.level, data: control).refined()
            for q in 0..<4 where child.regularControl(ofFace: q) == nil {
                let v = topology.level.faceVertices[4 * f + q]
                let needed = try level(corner: q, child: child)
                levels[v] = max(levels[v] ?? 1, needed)
            }
        }
        return levels
    }

    /// The first level (from 1) at which the sub-face at corner q of the face fits within the
    /// acceptance fraction of the tolerance; ``maximumLevel`` when none does. `child` is the face's
    /// ring refined once.
    func level(corner q: Int, child: LocalMesh) throws -> Int {
        var mesh = child
        for depth in 1...ExtraordinaryFacePatches.maximumLevel {
            let sub = try LocalMesh(ringOf: q, in: mesh.level, data: mesh.data)
            if approximation(of: sub).deviation <= tolerance * ExtraordinaryFacePatches.acceptanceFraction {
                return depth
            }
            mesh = sub.refined()
        }
        return ExtraordinaryFacePatches.maximumLevel
    }

    /// The fitted Bézier control values (points space) for face 0 of `sub`, and their deviation.
    func approximation(of sub: LocalMesh) -> (bezier: [SIMD4<Double>], deviation: Double) {
        let grid = sub.limitGrid(steps: BezierApproximation.sampleSteps).map { HomogeneousNet.points($0, scale: pointScale) }
        let bezier = BezierApproximation.fit(grid)
        return (bezier, BezierApproximation.deviation(bezier: bezier, grid: grid))
    }

    /// The patches of face f, tiling its parameter square [0, 1]²; `levels` from ``vertexLevels(faces:)``.
    func patches(face f: Int, levels: [Int32: Int]) throws -> [NURBSSurface] {
        var cornerLevels = [Int](repeating: 1, count: 4)
        for k in 0..<4 { cornerLevels[k] = levels[topology.level.faceVertices[4 * f + k]] ?? 1 }
        var result: [NURBSSurface] = []
        // Sub-faces still to split: (its ring, top-left parameter, side, depth). At most one per
        // irregular corner is pending at each depth.
        var pending = [(mesh: try LocalMesh(ringOf: f, in: topology.level, data: control), u: 0.0, v: 0.0, size: 1.0, depth: 0)]
        while let item = pending.popLast() {
            let child = item.mesh.refined()
            let h = item.size / 2
            let origins = [(item.u, item.v), (item.u + h, item.v), (item.u + h, item.v + h), (item.u, item.v + h)]
            for q in 0..<4 {
                let (u0, v0) = origins[q]
                if let uniform = child.regularControl(ofFace: q) {
                    let net = HomogeneousNet.bezier(
                        uniform: uniform.map { HomogeneousNet.points($0, scale: pointScale) }, u0: u0, v0: v0, size: h)
                    result.append(try surface(net, face: f, exact: true, deviation: 0))
                    continue
                }
                let sub = try LocalMesh(ringOf: q, in: child.level, data: child.data)
                if item.depth + 1 >= cornerLevels[q] {
                    let (bezier, deviation) = approximation(of: sub)
                    let net = HomogeneousNet(
                        countU: 4, countV: 4, knotsU: HomogeneousNet.bezierKnots(u0, u0 + h),
                        knotsV: HomogeneousNet.bezierKnots(v0, v0 + h), values: bezier)
                    result.append(try surface(net, face: f, exact: false, deviation: deviation))
                } else {
                    pending.append((sub, u0, v0, h, item.depth + 1))
                }
            }
        }
        return result
    }

    func surface(_ net: HomogeneousNet, face f: Int, exact: Bool, deviation: Double) throws -> NURBSSurface {
        guard deviation.isFinite, let surface = net.surface(face: f, exact: exact, deviation: deviation) else {
            throw MeshError(
                .limitExceeded, path: "faces[\(f)]",
                "the surface over this face has no rational B-spline form in the range of doubles (extreme weights or coordinates)")
        }
        return surface
    }
}
