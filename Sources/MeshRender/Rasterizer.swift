import SurfaceKit

/// Draws a scene's triangles, textured and lit, back to front into an RGBA picture.
///
/// Anti-aliasing is multisampled coverage: every pixel holds 16 samples on a 4 × 4 grid, a
/// triangle covers the samples inside it (exact fixed-point edge functions with a tie rule, so two
/// triangles sharing an edge cover each sample once and a closed surface shows no seam), is shaded
/// once per pixel, and is composited "over" each covered sample in draw order. The pixel is the
/// mean of its samples. Compositing per sample rather than per pixel keeps the edges between a
/// surface's own triangles invisible even when the layer is semi-transparent.
///
/// The work is split into 32 × 32-pixel tiles; each tile walks the triangles that touch it in
/// draw order, so tiles are independent and run in parallel.
struct Rasterizer {
    static let tileSize = 32
    /// Vertex positions snap to 1/256 pixel; the samples lie on the 1/8-pixel grid, so exactly.
    static let subpixelBits: Int64 = 8
    static let samplesPerPixel = 16

    /// The layer's opacity, multiplied into every colour.
    var opacity: Float

    func render(_ scene: RenderScene, texture: TextureSampler) -> RGBAImage {
        let width = scene.width, height = scene.height
        let snapped = RasterVertices.snapped(scene)
        var bins = TileBins(triangles: scene.triangles, fixed: snapped, width: width, height: height)
        let vertices = RasterVertices(scene: scene, snapped: snapped, renumbering: &bins.members)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        pixels.withUnsafeMutableBufferPointer { out in
            guard let base = out.baseAddress else { return }
            let target = SharedMutableBuffer(base: base)
            texture.texels.withUnsafeBufferPointer { texels in
                vertices.fixed.withUnsafeBufferPointer { fixed in
                    vertices.linear.withUnsafeBufferPointer { linear in
                        bins.members.withUnsafeBufferPointer { members in
                            parallelChunks(bins.tileCount, minimumChunk: 1) { tiles in
                                let samples = UnsafeMutablePointer<SIMD4<Float>>.allocate(
                                    capacity: Rasterizer.tileSize * Rasterizer.tileSize * Rasterizer.samplesPerPixel)
                                defer { samples.deallocate() }
                                for tile in tiles {
                                    let worker = TileWorker(
                                        fixed: fixed, linear: linear, lit: vertices.lit, lighting: scene.lighting,
                                        texture: TextureLookup(width: texture.width, height: texture.height, texels: texels),
                                        samples: samples, opacity: opacity,
                                        originX: (tile % bins.tilesX) * Rasterizer.tileSize,
                                        originY: (tile / bins.tilesX) * Rasterizer.tileSize,
                                        imageWidth: width, imageHeight: height)
                                    worker.clear()
                                    for k in bins.offsets[tile]..<bins.offsets[tile + 1] {
                                        worker.draw(members[k])
                                    }
                                    worker.resolve(into: target)
                                }
                            }
                        }
                    }
                }
            }
        }
        return RGBAImage(unchecked: width, height: height, pixels: pixels)
    }
}

/// Per-vertex data prepared once for the tiles (a vertex is shared by about six triangles and
/// several tiles), renumbered in the order the tiles first use the vertices.
///
/// The renumbering matters: the tessellation lists vertices level by level, so the vertices of
/// neighbouring triangles lie far apart in memory, and reading them in tile order was a cache miss
/// per vertex. In first-use order a tile reads nearly sequentially.
struct RasterVertices {
    /// Position snapped to 1/256 pixel.
    var fixed: [SIMD2<Int64>]
    /// The screen-linear quantities (1/w, u/w, v/w, intensity/w).
    var linear: [SIMD4<Double>]
    /// With lights: the lit position over w (lanes 0–2) and the normal over w (lanes 3–5), also
    /// linear on screen; empty otherwise.
    var lit: [SIMD8<Double>]

    /// The scene's positions snapped to 1/256 pixel, in the scene's vertex order. Scene
    /// coordinates are finite and within the guard band, so they fit with room to spare.
    static func snapped(_ scene: RenderScene) -> [SIMD2<Int64>] {
        let count = scene.x.count
        var fixed = [SIMD2<Int64>](repeating: .zero, count: count)
        let unit = Double(1 << Rasterizer.subpixelBits)
        fixed.withUnsafeMutableBufferPointer { pf in
            guard let bf = pf.baseAddress else { return }
            let of = SharedMutableBuffer(base: bf)
            parallelChunks(count, minimumChunk: 32_768) { range in
                for i in range {
                    of.base[i] = SIMD2(Rasterizer.snap(scene.x[i] * unit), Rasterizer.snap(scene.y[i] * unit))
                }
            }
        }
        return fixed
    }

    /// Renumbers the vertices that `members` use in first-use order (rewriting `members`) and
    /// gathers their data.
    init(scene: RenderScene, snapped: [SIMD2<Int64>], renumbering members: inout [SIMD3<Int32>]) {
        var newIndex = [Int32](repeating: -1, count: snapped.count)
        var order: [Int32] = []
        order.reserveCapacity(snapped.count)
        members.withUnsafeMutableBufferPointer { list in
            newIndex.withUnsafeMutableBufferPointer { map in
                for k in list.indices {
                    var t = list[k]
                    for c in 0..<3 {
                        let old = Int(t[c])
                        var n = map[old]
                        if n < 0 {
                            n = Int32(order.count)
                            map[old] = n
                            order.append(Int32(old))
                        }
                        t[c] = n
                    }
                    list[k] = t
                }
            }
        }
        fixed = order.map { snapped[Int($0)] }
        linear = order.map { old in
            let i = Int(old), w = scene.inverseW[i]
            return SIMD4(w, scene.u[i] * w, scene.v[i] * w, scene.shade[i] * w)
        }
        lit =
            scene.litPosition.isEmpty
            ? []
            : order.map { old in
                let i = Int(old), w = scene.inverseW[i]
                let p = scene.litPosition[i] * w, n = scene.litNormal[i] * w
                return SIMD8(p.x, p.y, p.z, n.x, n.y, n.z, 0, 0)
            }
    }
}

extension Rasterizer {
    /// Rounds to the nearest integer (halves away from zero) without a libm call; non-finite or
    /// huge values (which the guard band excludes) become 0 rather than trapping.
    @inline(__always)
    static func snap(_ value: Double) -> Int64 {
        guard abs(value) < 9e15 else { return 0 }
        return Int64(value < 0 ? value - 0.5 : value + 0.5)
    }
}

/// Which triangles touch which tile, each tile's list in draw order (a counting sort by tile).
struct TileBins {
    let tilesX: Int
    let tilesY: Int
    /// Tile t's triangles are `members[offsets[t]..<offsets[t + 1]]`. They hold the triangles'
    /// vertex indices rather than their positions in draw order: a tile reads its list in order,
    /// whereas draw-order positions are scattered over the whole array (a cache miss each).
    let offsets: [Int]
    var members: [SIMD3<Int32>]

    var tileCount: Int { tilesX * tilesY }

    init(triangles: [SIMD3<Int32>], fixed snapped: [SIMD2<Int64>], width: Int, height: Int) {
        let size = Int64(Rasterizer.tileSize)
        let tilesX = (width + Rasterizer.tileSize - 1) / Rasterizer.tileSize
        let tilesY = (height + Rasterizer.tileSize - 1) / Rasterizer.tileSize
        self.tilesX = tilesX
        self.tilesY = tilesY
        let bits = Rasterizer.subpixelBits
        let maxX = Int64(width - 1), maxY = Int64(height - 1)
        // Each triangle's range of tiles, packed (x0, y0, x1, y1); x0 = −1 when it misses the picture.
        var ranges = [SIMD4<Int32>](repeating: SIMD4(-1, -1, -1, -1), count: triangles.count)
        var counts = [Int](repeating: 0, count: tilesX * tilesY + 1)
        snapped.withUnsafeBufferPointer { fixed in
            for (i, t) in triangles.enumerated() {
                let a = fixed[Int(t.x)], b = fixed[Int(t.y)], c = fixed[Int(t.z)]
                let lo = pointwiseMin(pointwiseMin(a, b), c) &>> bits, hi = pointwiseMax(pointwiseMax(a, b), c) &>> bits
                guard hi.x >= 0, hi.y >= 0, lo.x <= maxX, lo.y <= maxY else { continue }
                let x0 = Swift.max(0, lo.x) / size, x1 = Swift.min(maxX, hi.x) / size
                let y0 = Swift.max(0, lo.y) / size, y1 = Swift.min(maxY, hi.y) / size
                ranges[i] = SIMD4(Int32(x0), Int32(y0), Int32(x1), Int32(y1))
                for ty in Int(y0)...Int(y1) {
                    for tx in Int(x0)...Int(x1) { counts[ty * tilesX + tx + 1] += 1 }
                }
            }
        }
        for k in 1..<counts.count { counts[k] += counts[k - 1] }
        var next = counts
        var members = [SIMD3<Int32>](repeating: .zero, count: counts[tilesX * tilesY])
        for (i, r) in ranges.enumerated() where r.x >= 0 {
            for ty in Int(r.y)...Int(r.w) {
                for tx in Int(r.x)...Int(r.z) {
                    let tile = ty * tilesX + tx
                    members[next[tile]] = triangles[i]
                    next[tile] += 1
                }
            }
        }
        offsets = counts
        self.members = members
    }
}
