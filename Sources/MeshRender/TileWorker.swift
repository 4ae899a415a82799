import SurfaceKit

/// Rasterizes into one tile's sample buffer (see ``Rasterizer``).
struct TileWorker {
    let fixed: UnsafeBufferPointer<SIMD2<Int64>>
    let linear: UnsafeBufferPointer<SIMD4<Double>>
    /// Lit position and normal over w per vertex (see ``RasterVertices/lit``); empty without
    /// lights. An array, not a buffer pointer: it is read three times per triangle, not per pixel.
    let lit: [SIMD8<Double>]
    /// The layer's lights; `nil` for the single light, whose intensity is in `linear`.
    let lighting: PhongLighting?
    let texture: TextureLookup
    /// tileSize² pixels × 16 samples, premultiplied RGBA.
    let samples: UnsafeMutablePointer<SIMD4<Float>>
    let opacity: Float
    let originX: Int
    let originY: Int
    let imageWidth: Int
    let imageHeight: Int

    private static let size = Rasterizer.tileSize
    private static let unit: Int64 = 1 << Rasterizer.subpixelBits
    /// Sample k of a row sits at (2k + 1)/8 of the pixel: 32 + 64k in 1/256 units.
    private static let firstSample: Int64 = unit / 8
    private static let sampleStep: Int64 = unit / 4
    /// How far (in barycentric units) past a triangle the pixel centre may lie and still be
    /// shaded by extrapolating the triangle's planes.
    static let extrapolationLimit = 1.0

    func clear() {
        samples.update(repeating: .zero, count: TileWorker.size * TileWorker.size * Rasterizer.samplesPerPixel)
    }

    /// Composites the triangle with vertex indices `tri` over the samples it covers.
    func draw(_ tri: SIMD3<Int32>) {
        let i0 = Int(tri.x)
        var i1 = Int(tri.y), i2 = Int(tri.z)
        let p0 = fixed[i0]
        var p1 = fixed[i1], p2 = fixed[i2]
        var area = (p1.x - p0.x) * (p2.y - p0.y) - (p1.y - p0.y) * (p2.x - p0.x)
        if area == 0 { return }
        // Two-sided: a triangle seen from behind (a fold) is drawn like one seen from the front.
        if area < 0 {
            swap(&i1, &i2)
            swap(&p1, &p2)
            area = -area
        }
        let size = TileWorker.size
        let bits = Rasterizer.subpixelBits
        let px0 = Swift.max(originX, Int(Swift.min(p0.x, p1.x, p2.x) &>> bits))
        let px1 = Swift.min(originX + size - 1, imageWidth - 1, Int(Swift.max(p0.x, p1.x, p2.x) &>> bits))
        let py0 = Swift.max(originY, Int(Swift.min(p0.y, p1.y, p2.y) &>> bits))
        let py1 = Swift.min(originY + size - 1, imageHeight - 1, Int(Swift.max(p0.y, p1.y, p2.y) &>> bits))
        guard px0 <= px1, py0 <= py1 else { return }

        // Edge k runs from vertex k to k+1; inside is E ≥ 0. E = A·(px − xk) + B·(py − yk).
        let a0 = p0.y - p1.y, b0 = p1.x - p0.x
        let a1 = p1.y - p2.y, b1 = p2.x - p1.x
        let a2 = p2.y - p0.y, b2 = p0.x - p2.x
        // A sample exactly on an edge belongs to the triangle whose edge has A > 0 (or A = 0,
        // B > 0); the neighbour across a shared edge sees (−A, −B), so exactly one takes it.
        func bias(_ a: Int64, _ b: Int64) -> Int64 { a > 0 || (a == 0 && b > 0) ? 0 : -1 }
        let bias0 = bias(a0, b0), bias1 = bias(a1, b1), bias2 = bias(a2, b2)

        // Screen-linear quantities (1/w, u/w, v/w, shade/w) as planes over the snapped triangle.
        let unit = TileWorker.unit, unitD = Double(unit)
        let f0 = linear[i0], d1 = linear[i1] - f0, d2 = linear[i2] - f0
        let lit = lighting != nil && !self.lit.isEmpty
        let g0 = lit ? self.lit[i0] : .zero
        let g1 = lit ? self.lit[i1] - g0 : .zero, g2 = lit ? self.lit[i2] - g0 : .zero
        let ox = Double(p0.x) / unitD, oy = Double(p0.y) / unitD
        let ex1 = Double(p1.x - p0.x) / unitD, ey1 = Double(p1.y - p0.y) / unitD
        let ex2 = Double(p2.x - p0.x) / unitD, ey2 = Double(p2.y - p0.y) / unitD
        let inverseArea = unitD * unitD / Double(area)
        let reach = TileWorker.extrapolationLimit

        let step = TileWorker.sampleStep
        let sx0 = a0 * step, sx1 = a1 * step, sx2 = a2 * step
        let sy0 = b0 * step, sy1 = b1 * step, sy2 = b2 * step
        // Over a pixel's 4 × 4 samples an edge function ranges over [e + low, e + high].
        let low0 = Swift.min(0, 3 * sx0) + Swift.min(0, 3 * sy0), high0 = Swift.max(0, 3 * sx0) + Swift.max(0, 3 * sy0)
        let low1 = Swift.min(0, 3 * sx1) + Swift.min(0, 3 * sy1), high1 = Swift.max(0, 3 * sx1) + Swift.max(0, 3 * sy1)
        let low2 = Swift.min(0, 3 * sx2) + Swift.min(0, 3 * sy2), high2 = Swift.max(0, 3 * sx2) + Swift.max(0, 3 * sy2)

        // Each edge's value at the 16 samples relative to the first, when the steps are small
        // enough for 32-bit lanes: an edge that is partly outside a pixel is within 6·(|sx| + |sy|)
        // of 0 at all its samples, under 2³¹ while |a| + |b| < 2²².
        let small = Swift.max(abs(a0) + abs(b0), abs(a1) + abs(b1), abs(a2) + abs(b2)) < 1 << 22
        var grid0 = SIMD16<Int32>.zero, grid1 = grid0, grid2 = grid0
        if small {
            grid0 = TileWorker.sampleColumns &* Int32(truncatingIfNeeded: sx0) &+ TileWorker.sampleRows &* Int32(truncatingIfNeeded: sy0)
            grid1 = TileWorker.sampleColumns &* Int32(truncatingIfNeeded: sx1) &+ TileWorker.sampleRows &* Int32(truncatingIfNeeded: sy1)
            grid2 = TileWorker.sampleColumns &* Int32(truncatingIfNeeded: sx2) &+ TileWorker.sampleRows &* Int32(truncatingIfNeeded: sy2)
        }

        // The guard band bounds coordinates by 2²³ units, so every edge value stays below 2⁵⁰:
        // the hot loop uses wrapping arithmetic, which cannot wrap here, without overflow checks.
        let first = TileWorker.firstSample
        let sampleX = Int64(px0) &* unit &+ first
        var rowY = Int64(py0) &* unit &+ first
        let stepX0 = a0 &* unit, stepX1 = a1 &* unit, stepX2 = a2 &* unit
        for py in py0...py1 {
            var e0 = a0 &* (sampleX &- p0.x) &+ b0 &* (rowY &- p0.y) &+ bias0
            var e1 = a1 &* (sampleX &- p1.x) &+ b1 &* (rowY &- p1.y) &+ bias1
            var e2 = a2 &* (sampleX &- p2.x) &+ b2 &* (rowY &- p2.y) &+ bias2
            rowY &+= unit
            for px in px0...px1 {
                let (c0, c1, c2) = (e0, e1, e2)
                e0 &+= stepX0
                e1 &+= stepX1
                e2 &+= stepX2
                if (c0 &+ high0) | (c1 &+ high1) | (c2 &+ high2) < 0 { continue }
                var mask: UInt32 = 0xFFFF
                if (c0 &+ low0) | (c1 &+ low1) | (c2 &+ low2) < 0 {
                    if small {
                        // An edge all of whose samples are inside cannot clear a bit; the others
                        // lie within a few pixels of the pixel, so their values fit in 32 bits.
                        var outside = SIMD16<Int32>.zero
                        if c0 &+ low0 < 0 { outside |= SIMD16(repeating: Int32(truncatingIfNeeded: c0)) &+ grid0 }
                        if c1 &+ low1 < 0 { outside |= SIMD16(repeating: Int32(truncatingIfNeeded: c1)) &+ grid1 }
                        if c2 &+ low2 < 0 { outside |= SIMD16(repeating: Int32(truncatingIfNeeded: c2)) &+ grid2 }
                        mask = 0xFFFF ^ UInt32(truncatingIfNeeded: ((outside &>> 31) & TileWorker.sampleBits).wrappedSum())
                    } else {
                        mask = TileWorker.coverage(c0, c1, c2, sx0, sx1, sx2, sy0, sy1, sy2)
                    }
                    if mask == 0 { continue }
                }
                // Shade once, at the pixel centre: neighbouring triangles of one smooth map then
                // agree exactly (an identity mesh reproduces its texture pixel for pixel). Where
                // the centre lies far outside a partly covering triangle (a sliver), extrapolating
                // its planes is unreliable; shade at the centroid of its covered samples instead,
                // which lies inside it (GPUs' centroid sampling).
                var qx = Double(px) + 0.5, qy = Double(py) + 0.5
                var l1 = ((qx - ox) * ey2 - (qy - oy) * ex2) * inverseArea
                var l2 = (ex1 * (qy - oy) - ey1 * (qx - ox)) * inverseArea
                var f = f0 + l1 * d1 + l2 * d2
                if mask != 0xFFFF, !(l1 >= -reach && l2 >= -reach && 1 - l1 - l2 >= -reach && f.x > 0) {
                    let centroid = TileWorker.centroid(of: mask)
                    qx = Double(px) + centroid.x
                    qy = Double(py) + centroid.y
                    l1 = ((qx - ox) * ey2 - (qy - oy) * ex2) * inverseArea
                    l2 = (ex1 * (qy - oy) - ey1 * (qx - ox)) * inverseArea
                    f = f0 + l1 * d1 + l2 * d2
                }
                guard f.x > 0 else { continue }
                let inverse = 1 / f.x
                let texel = texture.sample(u: f.y * inverse, v: f.z * inverse)
                let colour: SIMD4<Float>
                if lit, let lighting {
                    // Per pixel: position and normal interpolated perspective-correctly.
                    let g = (g0 + l1 * g1 + l2 * g2) * inverse
                    let r = lighting.reflectance(at: Point3D(g[0], g[1], g[2]), normal: Point3D(g[3], g[4], g[5]))
                    colour = TileWorker.lit(texel, r) * opacity
                } else {
                    let shade = Float(Swift.min(1, Swift.max(0, f.w * inverse)))
                    colour = SIMD4<Float>(texel.x * shade, texel.y * shade, texel.z * shade, texel.w) * opacity
                }
                composite(colour, mask: mask, pixel: (py - originY) * size + (px - originX))
            }
        }
    }

    /// A premultiplied texel lit: the straight colour `c/α` becomes `clamp(c/α × scale + highlight,
    /// 0, 1)` (``PhongLighting/Reflectance/applied(to:)``), premultiplied again, so
    /// `clamp(c × scale + highlight × α, 0, α)` without dividing by α.
    @inline(__always)
    static func lit(_ texel: SIMD4<Float>, _ r: PhongLighting.Reflectance) -> SIMD4<Float> {
        let a = texel.w
        var out = texel
        for k in 0..<3 {
            let value = Float(Double(texel[k]) * r.scale[k] + r.highlight[k] * Double(a))
            out[k] = value.isNaN ? 0 : Swift.min(a, Swift.max(0, value))
        }
        return out
    }

    /// Sample k of a pixel (bit k of a coverage mask) is in column k mod 4, row k / 4.
    private static let sampleColumns = SIMD16<Int32>(0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3)
    private static let sampleRows = SIMD16<Int32>(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3)
    private static let sampleBits = SIMD16<Int32>(
        1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768)

    /// Which of a pixel's 16 samples (bit 4·row + column) lie inside all three edges, given each
    /// edge function at the first sample and its steps per sample column and row.
    @inline(__always)
    private static func coverage(
        _ e0: Int64, _ e1: Int64, _ e2: Int64, _ sx0: Int64, _ sx1: Int64, _ sx2: Int64,
        _ sy0: Int64, _ sy1: Int64, _ sy2: Int64
    ) -> UInt32 {
        var mask: UInt32 = 0
        var r0 = e0, r1 = e1, r2 = e2
        for row in 0..<4 {
            var c0 = r0, c1 = r1, c2 = r2
            for column in 0..<4 {
                // All three non-negative exactly when the OR of them has a clear sign bit.
                let outside = UInt32(truncatingIfNeeded: UInt64(bitPattern: c0 | c1 | c2) >> 63)
                mask |= (outside ^ 1) << UInt32(row * 4 + column)
                c0 &+= sx0
                c1 &+= sx1
                c2 &+= sx2
            }
            r0 &+= sy0
            r1 &+= sy1
            r2 &+= sy2
        }
        return mask
    }

    /// The mean position of the covered samples within the pixel.
    private static func centroid(of mask: UInt32) -> (x: Double, y: Double) {
        var sumX = 0, sumY = 0, count = 0
        var m = mask
        while m != 0 {
            let k = m.trailingZeroBitCount
            sumX += k & 3
            sumY += k >> 2
            count += 1
            m &= m - 1
        }
        let n = Double(Swift.max(1, count))
        return ((2 * Double(sumX) / n + 1) / 8, (2 * Double(sumY) / n + 1) / 8)
    }

    @inline(__always)
    private func composite(_ colour: SIMD4<Float>, mask: UInt32, pixel: Int) {
        let base = samples + pixel * Rasterizer.samplesPerPixel
        if colour.w >= 1 {
            if mask == 0xFFFF {
                for k in 0..<16 { base[k] = colour }
                return
            }
            var m = mask
            while m != 0 {
                base[m.trailingZeroBitCount] = colour
                m &= m - 1
            }
            return
        }
        let keep = 1 - colour.w
        var m = mask
        while m != 0 {
            let k = m.trailingZeroBitCount
            base[k] = colour + base[k] * keep
            m &= m - 1
        }
    }

    /// Averages each pixel's samples into straight-alpha 8-bit RGBA.
    func resolve(into target: SharedMutableBuffer<UInt8>) {
        let size = TileWorker.size
        let columns = Swift.min(size, imageWidth - originX), rows = Swift.min(size, imageHeight - originY)
        for row in 0..<rows {
            for column in 0..<columns {
                let base = samples + (row * size + column) * Rasterizer.samplesPerPixel
                var sum = SIMD4<Float>.zero
                for k in 0..<16 { sum += base[k] }
                let mean = sum / 16
                let out = target.base + 4 * ((originY + row) * imageWidth + originX + column)
                guard mean.w > 0.5 / 255 else {
                    out[0] = 0; out[1] = 0; out[2] = 0; out[3] = 0
                    continue
                }
                let alpha = Swift.min(1, mean.w)
                let straight = SIMD3<Float>(mean.x, mean.y, mean.z) / alpha
                for k in 0..<3 { out[k] = TileWorker.byte(straight[k]) }
                out[3] = TileWorker.byte(alpha)
            }
        }
    }

    @inline(__always)
    static func byte(_ value: Float) -> UInt8 {
        // NaN fails `>`, so it becomes 0 rather than trapping.
        guard value > 0 else { return 0 }
        return UInt8(Swift.min(255, value * 255 + 0.5))
    }
}
