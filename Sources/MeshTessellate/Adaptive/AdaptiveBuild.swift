import SurfaceKit

/// One adaptive tessellation built from a layout: the surface samples, the triangles, and the
/// deviation of each cell (measured on patches, the proven bound on corner squares).
struct AdaptiveBuild {
    var from: [LayerPoint]
    var unitPositions: [Point3D]
    /// Unit normals in points space.
    var normals: [Point3D]
    var triangles: [SIMD3<Int32>]
    var sourceFaces: [Int32]
    /// Per cell, the largest distance (points) between a triangle and the patch at the ten
    /// measured points of its triangles, and at dense lattices for those near the pass mark
    /// `mark` (``CellStitcher/measured(_:_:_:on:)``); for a corner square, its bound.
    var deviations: [Double]
    /// When asked for: each triangle's corners' (u, v) in its source face, three a triangle.
    var parameters: [SIMD2<Double>]?

    init(
        cells: [AdaptiveCell], layout: AdaptiveLayout, isolations: [VertexIsolation], scale: SIMD3<Double>,
        policy: DiagonalPolicy, keepParameters: Bool = false, measured: MeasuredCells? = nil, mark: Double = 0,
        earlier: EarlierSamples? = nil
    ) {
        let sampler = FaceSampler(cells: cells, isolations: isolations, scale: scale)
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
                    AdaptiveBuild.sampleNodes(layout: layout, sampler: sampler, out: out, earlier: earlier)
                    AdaptiveBuild.sampleSegments(layout: layout, sampler: sampler, out: out, earlier: earlier)
                    AdaptiveBuild.sampleCells(layout: layout, sampler: sampler, policy: policy, out: out, earlier: earlier)
                }
            }
        }
        self.from = from
        self.unitPositions = to
        self.normals = normals
        var triangles = [SIMD3<Int32>](repeating: .zero, count: layout.triangleCount)
        var sourceFaces = [Int32](repeating: 0, count: layout.triangleCount)
        var deviations = [Double](repeating: 0, count: cells.count)
        let points = to.map { $0 * scale }
        let drawing = CellDrawing(cells: cells, layout: layout, points: points)
        var parameters = [SIMD2<Double>](repeating: .zero, count: keepParameters ? 3 * layout.triangleCount : 0)
        parameters.withUnsafeMutableBufferPointer { pp in
            let parameterBase = pp.baseAddress.map { SharedMutableBuffer(base: $0) }
            triangles.withUnsafeMutableBufferPointer { pt in
                sourceFaces.withUnsafeMutableBufferPointer { ps in
                    deviations.withUnsafeMutableBufferPointer { pd in
                        guard let bt = pt.baseAddress, let bs = ps.baseAddress, let bd = pd.baseAddress else { return }
                        let tri = SharedMutableBuffer(base: bt), src = SharedMutableBuffer(base: bs), dev = SharedMutableBuffer(base: bd)
                        parallelChunks(cells.count, minimumChunk: 512) { range in
                            // One stitcher a chunk, moved from cell to cell: each copy of the
                            // layout and the points would retain and release every array in them.
                            var stitcher = CellStitcher(
                                cell: 0, layout: layout, points: points, policy: policy, patch: nil, fanCorner: -1, bound: 0,
                                scale: scale, output: tri, parameters: keepParameters ? parameterBase : nil, origin: .zero, size: 1,
                                cursor: 0)
                            stitcher.mark = mark
                            for c in range {
                                stitcher.start(cell: c, cells[c], cursor: layout.triangleBase[c])
                                let known = measured?.deviation(c, current: drawing)
                                stitcher.measuring = known == nil
                                stitcher.run()
                                let face = Int32(truncatingIfNeeded: cells[c].face)
                                for t in layout.triangleBase[c]..<layout.triangleBase[c + 1] { src.base[t] = face }
                                dev.base[c] = known ?? stitcher.deviation
                            }
                        }
                    }
                }
            }
        }
        self.triangles = triangles
        self.sourceFaces = sourceFaces
        self.deviations = deviations
        self.parameters = keepParameters ? parameters : nil
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

    static func sampleNodes(layout: AdaptiveLayout, sampler: FaceSampler, out: SampleOutput, earlier: EarlierSamples? = nil) {
        parallelChunks(layout.nodes.count, minimumChunk: 4096) { range in
            for i in range {
                if let earlier, earlier.copyNode(i, layout: layout, out: out) { continue }
                switch layout.nodes[i] {
                case let .patch(cell, corner):
                    out.write(i, sampler.sample(cell: Int(cell), UnitSquare.corner(Int(corner))))
                case let .limit(isolation):
                    out.write(i, sampler.limit(Int(isolation)))
                case let .ring(cell, point):
                    out.write(i, sampler.ring(cell: Int(cell), point: Int(point)))
                case .pending:
                    break
                }
            }
        }
    }

    static func sampleSegments(layout: AdaptiveLayout, sampler: FaceSampler, out: SampleOutput, earlier: EarlierSamples? = nil) {
        parallelChunks(layout.segments.count, minimumChunk: 2048) { range in
            for s in range {
                let segment = layout.segments[s]
                let n = segment.rate
                guard n > 1, segment.cell >= 0 else { continue }
                if let earlier, earlier.copySegment(s, layout: layout, out: out) { continue }
                for t in 1..<n {
                    let fraction = segment.fractionA + (segment.fractionB - segment.fractionA) * Double(t) / Double(n)
                    out.write(segment.base + t - 1, sampler.sample(cell: Int(segment.cell), UnitSquare.side(Int(segment.side), fraction)))
                }
            }
        }
    }

    static func sampleCells(
        layout: AdaptiveLayout, sampler: FaceSampler, policy: DiagonalPolicy, out: SampleOutput, earlier: EarlierSamples? = nil
    ) {
        parallelChunks(layout.kind.count, minimumChunk: 512) { range in
            for c in range {
                if let earlier, earlier.copyInside(cell: c, layout: layout, policy: policy, out: out) { continue }
                let nu = layout.nu[c], nv = layout.nv[c]
                switch layout.kind[c] {
                case .single:
                    if policy.needsCenters { out.write(layout.centerBase[c], sampler.sample(cell: c, SIMD2(0.5, 0.5))) }
                    continue
                case .rowStrip, .columnStrip, .fan:
                    continue
                case .ring, .rows, .columns:
                    break
                }
                let du = 1 / Double(nu), dv = 1 / Double(nv)
                for j in 1..<nv {
                    for i in 1..<nu {
                        out.write(
                            layout.gridBase[c] + (j - 1) * (nu - 1) + i - 1, sampler.sample(cell: c, SIMD2(Double(i) * du, Double(j) * dv)))
                    }
                }
                if layout.kind[c] != .ring {
                    guard policy.needsCenters else { continue }
                    let strips = layout.strips(c)
                    let rows = layout.kind[c] == .rows
                    for s in 0..<strips.count where strips.isSquares(s) {
                        for k in 0..<strips.along {
                            let square = rows ? SIMD2(Double(k), Double(s)) : SIMD2(Double(s), Double(k))
                            let uv = (square + 0.5) * SIMD2(du, dv)
                            out.write(layout.centerBase[c] + strips.squaresBefore(s) + k, sampler.sample(cell: c, uv))
                        }
                    }
                    continue
                }
                guard policy.needsCenters, nu > 2, nv > 2 else { continue }
                for j in 1..<(nv - 1) {
                    for i in 1..<(nu - 1) {
                        let uv = SIMD2((Double(i) + 0.5) * du, (Double(j) + 0.5) * dv)
                        out.write(layout.centerBase[c] + (j - 1) * (nu - 2) + i - 1, sampler.sample(cell: c, uv))
                    }
                }
            }
        }
    }
}

/// Surface samples of a cell at a parameter (from its B-spline patch), and isolated vertices'
/// limit points.
struct FaceSampler {
    let cells: [AdaptiveCell]
    let isolations: [VertexIsolation]
    let scale: SIMD3<Double>

    struct Sample {
        var from: LayerPoint
        var to: Point3D
        var normal: Point3D
    }

    func sample(cell c: Int, _ uv: SIMD2<Double>) -> Sample {
        guard let patch = cells[c].patch else { return Sample(from: .zero, to: .zero, normal: SIMD3(0, 0, 1)) }
        let p = patch.evaluate(u: uv.x, v: uv.y)
        return Sample(from: p.from, to: p.to, normal: (p.toU * scale).cross(p.toV * scale).normalized())
    }

    func limit(_ i: Int) -> Sample {
        let isolation = isolations[i]
        return Sample(from: isolation.limitFrom, to: isolation.limitTo, normal: isolation.limitNormal)
    }
}

extension CellStitcher {
    /// Moves the stitcher to cell c, as if made for it: its patch, corner and square, the first
    /// triangle's slot, nothing measured yet.
    mutating func start(cell c: Int, _ cell: AdaptiveCell, cursor: Int) {
        self.cell = c
        patch = cell.patch
        fanCorner = cell.fanCorner
        bound = cell.bound
        origin = cell.origin
        size = cell.size
        self.cursor = cursor
        deviation = 0
        measuring = true
    }
}
