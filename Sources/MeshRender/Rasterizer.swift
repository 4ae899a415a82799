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
        let bins = TileBins(scene: scene)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        pixels.withUnsafeMutableBufferPointer { out in
            guard let base = out.baseAddress else { return }
            let target = SharedMutableBuffer(base: base)
            texture.texels.withUnsafeBufferPointer { texels in
                withSceneBuffers(scene) { buffers in
                    parallelChunks(bins.tileCount, minimumChunk: 1) { tiles in
                        let samples = UnsafeMutablePointer<SIMD4<Float>>.allocate(
                            capacity: Rasterizer.tileSize * Rasterizer.tileSize * Rasterizer.samplesPerPixel)
                        defer { samples.deallocate() }
                        for tile in tiles {
                            let worker = TileWorker(
                                scene: buffers, texture: texture, texels: texels, samples: samples, opacity: opacity,
                                originX: (tile % bins.tilesX) * Rasterizer.tileSize,
                                originY: (tile / bins.tilesX) * Rasterizer.tileSize,
                                imageWidth: width, imageHeight: height)
                            worker.clear()
                            for t in bins.members(of: tile) { worker.draw(triangle: Int(t)) }
                            worker.resolve(into: target)
                        }
                    }
                }
            }
        }
        return RGBAImage(unchecked: width, height: height, pixels: pixels)
    }
}

/// The scene's arrays as pointers for the hot loop.
struct SceneBuffers {
    var x, y, inverseW, u, v, shade: UnsafeBufferPointer<Double>
    var triangles: UnsafeBufferPointer<SIMD3<Int32>>
}

private func withSceneBuffers<R>(_ scene: RenderScene, _ body: (SceneBuffers) -> R) -> R {
    scene.x.withUnsafeBufferPointer { x in
        scene.y.withUnsafeBufferPointer { y in
            scene.inverseW.withUnsafeBufferPointer { w in
                scene.u.withUnsafeBufferPointer { u in
                    scene.v.withUnsafeBufferPointer { v in
                        scene.shade.withUnsafeBufferPointer { s in
                            scene.triangles.withUnsafeBufferPointer { t in
                                body(SceneBuffers(x: x, y: y, inverseW: w, u: u, v: v, shade: s, triangles: t))
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Which triangles touch which tile, each tile's list in draw order (a counting sort by tile).
struct TileBins {
    let tilesX: Int
    let tilesY: Int
    /// Tile t's triangles are `members[offsets[t]..<offsets[t + 1]]`.
    private(set) var offsets: [Int]
    private(set) var members: [Int32]

    var tileCount: Int { tilesX * tilesY }

    init(scene: RenderScene) {
        let size = Rasterizer.tileSize
        tilesX = (scene.width + size - 1) / size
        tilesY = (scene.height + size - 1) / size
        let tilesX = self.tilesX, tilesY = self.tilesY
        let maxX = scene.width - 1, maxY = scene.height - 1
        /// The tile range of a triangle's pixel bounding box, or nil when it misses the picture.
        func tileRange(_ t: SIMD3<Int32>) -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
            let a = Int(t.x), b = Int(t.y), c = Int(t.z)
            let lx = Swift.min(scene.x[a], scene.x[b], scene.x[c]), hx = Swift.max(scene.x[a], scene.x[b], scene.x[c])
            let ly = Swift.min(scene.y[a], scene.y[b], scene.y[c]), hy = Swift.max(scene.y[a], scene.y[b], scene.y[c])
            // Scene coordinates are finite and within the guard band, so these conversions are safe.
            guard hx >= 0, hy >= 0, lx <= Double(maxX + 1), ly <= Double(maxY + 1) else { return nil }
            let px0 = Swift.max(0, Int(lx.rounded(.down))), px1 = Swift.min(maxX, Int(hx.rounded(.down)))
            let py0 = Swift.max(0, Int(ly.rounded(.down))), py1 = Swift.min(maxY, Int(hy.rounded(.down)))
            guard px0 <= px1, py0 <= py1 else { return nil }
            return (px0 / size, py0 / size, px1 / size, py1 / size)
        }
        var counts = [Int](repeating: 0, count: tilesX * tilesY + 1)
        var ranges = [SIMD4<Int32>](repeating: SIMD4(-1, -1, -1, -1), count: scene.triangles.count)
        for (i, t) in scene.triangles.enumerated() {
            guard let r = tileRange(t) else { continue }
            ranges[i] = SIMD4(Int32(r.x0), Int32(r.y0), Int32(r.x1), Int32(r.y1))
            for ty in r.y0...r.y1 {
                for tx in r.x0...r.x1 { counts[ty * tilesX + tx + 1] += 1 }
            }
        }
        for k in 1..<counts.count { counts[k] += counts[k - 1] }
        var next = counts
        var members = [Int32](repeating: 0, count: counts[tilesX * tilesY])
        for (i, r) in ranges.enumerated() where r.x >= 0 {
            for ty in Int(r.y)...Int(r.w) {
                for tx in Int(r.x)...Int(r.z) {
                    let tile = ty * tilesX + tx
                    members[next[tile]] = Int32(i)
                    next[tile] += 1
                }
            }
        }
        _ = tilesY
        offsets = counts
        self.members = members
    }

    func members(of tile: Int) -> ArraySlice<Int32> { members[offsets[tile]..<offsets[tile + 1]] }
}
