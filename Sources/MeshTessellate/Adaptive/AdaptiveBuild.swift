import SurfaceKit

/// One adaptive tessellation built from a layout: the surface samples, the triangles, and the
/// deviation measured on each B-spline face.
struct AdaptiveBuild {
    var from: [LayerPoint]
    var unitPositions: [Point3D]
    /// Unit normals in points space.
    var normals: [Point3D]
    var triangles: [SIMD3<Int32>]
    var sourceFaces: [Int32]
    /// Per face, the largest distance (points) between a triangle and the surface at the centroid
    /// and edge midpoints of its triangles; 0 on irregular faces (measured when their level was chosen).
    var deviations: [Double]

    init(
        surfaces: FaceSurfaces, layout: AdaptiveLayout, rates: FaceRates, patches: [RationalPatch?],
        scale: SIMD3<Double>, policy: DiagonalPolicy
    ) {
        let sampler = FaceSampler(patches: patches, grids: rates.grids, scale: scale)
        let count = layout.vertexCount
        var from = [LayerPoint](repeating: .zero, count: count)
        var to = [Point3D](repeating: .zero, count: count)
        var normals = [Point3D](repeating: .zero, count: count)
        from.withUnsafeMutableBufferPointer { pf in
            to.withUnsafeMutableBufferPointer { pt in
                normals.withUnsafeMutableBufferPointer { pn in
                    guard let bf = pf.baseAddress, let bt = pt.baseAddress, let bn = pn.baseAddress else { return }
                    let out = SampleOutput(
                        from: SharedMutableBuffer(base: bf), to: SharedMutableBuffer(base: bt), normals: SharedMutableBuffer(base: bn))
                    AdaptiveBuild.sampleCorners(surfaces: surfaces, layout: layout, sampler: sampler, out: out)
                    AdaptiveBuild.sampleEdges(surfaces: surfaces, layout: layout, sampler: sampler, out: out)
                    AdaptiveBuild.sampleFaces(layout: layout, sampler: sampler, policy: policy, out: out)
                }
            }
        }
        self.from = from
        self.unitPositions = to
        self.normals = normals
        var triangles = [SIMD3<Int32>](repeating: .zero, count: layout.triangleCount)
        var sourceFaces = [Int32](repeating: 0, count: layout.triangleCount)
        var deviations = [Double](repeating: 0, count: surfaces.faceCount)
        let points = to.map { $0 * scale }
        triangles.withUnsafeMutableBufferPointer { pt in
            sourceFaces.withUnsafeMutableBufferPointer { ps in
                deviations.withUnsafeMutableBufferPointer { pd in
                    guard let bt = pt.baseAddress, let bs = ps.baseAddress, let bd = pd.baseAddress else { return }
                    let tri = SharedMutableBuffer(base: bt), src = SharedMutableBuffer(base: bs), dev = SharedMutableBuffer(base: bd)
                    parallelChunks(surfaces.faceCount, minimumChunk: 512) { range in
                        for f in range {
                            var stitcher = FaceStitcher(
                                face: f, surfaces: surfaces, layout: layout, points: points, policy: policy,
                                patch: patches[f], scale: scale, output: tri, cursor: layout.triangleBase[f])
                            stitcher.run()
                            for t in layout.triangleBase[f]..<layout.triangleBase[f + 1] { src.base[t] = Int32(truncatingIfNeeded: f) }
                            dev.base[f] = stitcher.deviation
                        }
                    }
                }
            }
        }
        self.triangles = triangles
        self.sourceFaces = sourceFaces
        self.deviations = deviations
    }

    struct SampleOutput {
        let from: SharedMutableBuffer<LayerPoint>
        let to: SharedMutableBuffer<Point3D>
        let normals: SharedMutableBuffer<Point3D>

        func write(_ i: Int, _ s: FaceSampler.Sample) {
            from.base[i] = s.from
            to.base[i] = s.to
            normals.base[i] = s.normal
        }
    }

    static func sampleCorners(surfaces: FaceSurfaces, layout: AdaptiveLayout, sampler: FaceSampler, out: SampleOutput) {
        parallelChunks(surfaces.vertexCount, minimumChunk: 4096) { range in
            for v in range where layout.cornerIndex[v] >= 0 {
                let f = Int(layout.cornerSource[v])
                out.write(Int(layout.cornerIndex[v]), sampler.sample(face: f, FaceSampler.corner(Int(layout.cornerSlot[v]))))
            }
        }
    }

    static func sampleEdges(surfaces: FaceSurfaces, layout: AdaptiveLayout, sampler: FaceSampler, out: SampleOutput) {
        parallelChunks(surfaces.edgeCount, minimumChunk: 2048) { range in
            for e in range {
                let n = layout.edgeRate[e]
                guard n > 1 else { continue }
                let f = Int(layout.edgeSource[e]), k = Int(layout.edgeSide[e])
                let forward = surfaces.corners(ofFace: f)[k] == surfaces.vertices(ofEdge: e).x
                for t in 1..<n {
                    let s = Double(forward ? t : n - t) / Double(n)
                    out.write(layout.edgeBase[e] + t - 1, sampler.sample(face: f, FaceSampler.side(k, s)))
                }
            }
        }
    }

    static func sampleFaces(layout: AdaptiveLayout, sampler: FaceSampler, policy: DiagonalPolicy, out: SampleOutput) {
        parallelChunks(layout.kind.count, minimumChunk: 512) { range in
            for f in range {
                let nu = layout.nu[f], nv = layout.nv[f]
                switch layout.kind[f] {
                case .single:
                    if policy.needsCenters { out.write(layout.centerBase[f], sampler.sample(face: f, SIMD2(0.5, 0.5))) }
                    continue
                case .rowStrip, .columnStrip:
                    continue
                case .ring:
                    break
                }
                let du = 1 / Double(nu), dv = 1 / Double(nv)
                for j in 1..<nv {
                    for i in 1..<nu {
                        out.write(
                            layout.faceBase[f] + (j - 1) * (nu - 1) + i - 1, sampler.sample(face: f, SIMD2(Double(i) * du, Double(j) * dv)))
                    }
                }
                guard policy.needsCenters, nu > 2, nv > 2 else { continue }
                for j in 1..<(nv - 1) {
                    for i in 1..<(nu - 1) {
                        let uv = SIMD2((Double(i) + 0.5) * du, (Double(j) + 0.5) * dv)
                        out.write(layout.centerBase[f] + (j - 1) * (nu - 2) + i - 1, sampler.sample(face: f, uv))
                    }
                }
            }
        }
    }
}

/// Surface samples of a face at a parameter: from its B-spline patch, or from its dyadic grid.
struct FaceSampler {
    let patches: [RationalPatch?]
    let grids: [Int: FaceGrid]
    let scale: SIMD3<Double>

    struct Sample {
        var from: LayerPoint
        var to: Point3D
        var normal: Point3D
    }

    func sample(face f: Int, _ uv: SIMD2<Double>) -> Sample {
        if let patch = patches[f] {
            let p = patch.evaluate(u: uv.x, v: uv.y)
            return Sample(from: p.from, to: p.to, normal: (p.toU * scale).cross(p.toV * scale).normalized())
        }
        guard let grid = grids[f] else { return Sample(from: .zero, to: .zero, normal: SIMD3(0, 0, 1)) }
        // Irregular faces are only asked for parameters on their grid (dyadic, exact in binary).
        let r = Double(grid.resolution)
        let i = min(max(Int((uv.x * r).rounded()), 0), grid.resolution)
        let j = min(max(Int((uv.y * r).rounded()), 0), grid.resolution)
        let k = grid.index(i, j)
        return Sample(from: grid.samples.from[k], to: grid.samples.to[k], normal: grid.samples.normals[k])
    }

    /// Corner k's parameters: (0,0), (1,0), (1,1), (0,1).
    static func corner(_ k: Int) -> SIMD2<Double> {
        SIMD2(k == 1 || k == 2 ? 1 : 0, k >= 2 ? 1 : 0)
    }

    /// The point at fraction s along side k (from corner k to corner k + 1).
    static func side(_ k: Int, _ s: Double) -> SIMD2<Double> {
        switch k {
        case 0: SIMD2(s, 0)
        case 1: SIMD2(1, s)
        case 2: SIMD2(1 - s, 1)
        default: SIMD2(0, 1 - s)
        }
    }
}
