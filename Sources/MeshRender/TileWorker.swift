import SurfaceKit

/// Rasterizes into one tile's sample buffer (see ``Rasterizer``).
struct TileWorker {
    let scene: SceneBuffers
    let texture: TextureSampler
    let texels: UnsafeBufferPointer<SIMD4<Float>>
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

    /// Composites triangle `t` over the samples it covers.
    func draw(triangle t: Int) {
        let tri = scene.triangles[t]
        var i1 = Int(tri.y), i2 = Int(tri.z)
        let i0 = Int(tri.x)
        let unit = TileWorker.unit, unitD = Double(unit)
        // The scene keeps coordinates finite and within the guard band, so these fit easily.
        let x0 = Int64((scene.x[i0] * unitD).rounded()), y0 = Int64((scene.y[i0] * unitD).rounded())
        var x1 = Int64((scene.x[i1] * unitD).rounded()), y1 = Int64((scene.y[i1] * unitD).rounded())
        var x2 = Int64((scene.x[i2] * unitD).rounded()), y2 = Int64((scene.y[i2] * unitD).rounded())
        var area = (x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0)
        if area == 0 { return }
        // Two-sided: a triangle seen from behind (a fold) is drawn like one seen from the front.
        if area < 0 {
            swap(&i1, &i2)
            swap(&x1, &x2)
            swap(&y1, &y2)
            area = -area
        }
        // Edge k runs from vertex k to k+1; inside is E ≥ 0. E = A·(px − xk) + B·(py − yk).
        let a0 = y0 - y1, b0 = x1 - x0
        let a1 = y1 - y2, b1 = x2 - x1
        let a2 = y2 - y0, b2 = x0 - x2
        // A sample exactly on an edge belongs to the triangle whose edge has A > 0 (or A = 0,
        // B > 0); the neighbour across a shared edge sees (−A, −B), so exactly one takes it.
        func bias(_ a: Int64, _ b: Int64) -> Int64 { a > 0 || (a == 0 && b > 0) ? 0 : -1 }
        let bias0 = bias(a0, b0), bias1 = bias(a1, b1), bias2 = bias(a2, b2)

        let size = TileWorker.size
        let px0 = Swift.max(originX, Int(Swift.min(x0, x1, x2) >> Rasterizer.subpixelBits))
        let px1 = Swift.min(originX + size - 1, imageWidth - 1, Int(Swift.max(x0, x1, x2) >> Rasterizer.subpixelBits))
        let py0 = Swift.max(originY, Int(Swift.min(y0, y1, y2) >> Rasterizer.subpixelBits))
        let py1 = Swift.min(originY + size - 1, imageHeight - 1, Int(Swift.max(y0, y1, y2) >> Rasterizer.subpixelBits))
        guard px0 <= px1, py0 <= py1 else { return }

        // Screen-linear quantities (1/w, u/w, v/w, shade/w) as planes over the snapped triangle.
        func linear(_ i: Int) -> SIMD4<Double> {
            let w = scene.inverseW[i]
            return SIMD4(w, scene.u[i] * w, scene.v[i] * w, scene.shade[i] * w)
        }
        let f0 = linear(i0), d1 = linear(i1) - f0, d2 = linear(i2) - f0
        let ox = Double(x0) / unitD, oy = Double(y0) / unitD
        let ex1 = Double(x1 - x0) / unitD, ey1 = Double(y1 - y0) / unitD
        let ex2 = Double(x2 - x0) / unitD, ey2 = Double(y2 - y0) / unitD
        let inverseArea = unitD * unitD / Double(area)

        let step = TileWorker.sampleStep
        let sx0 = a0 * step, sx1 = a1 * step, sx2 = a2 * step
        let sy0 = b0 * step, sy1 = b1 * step, sy2 = b2 * step
        // Over a pixel's 4 × 4 samples an edge function ranges over [e + low, e + high].
        let low0 = Swift.min(0, 3 * sx0) + Swift.min(0, 3 * sy0), high0 = Swift.max(0, 3 * sx0) + Swift.max(0, 3 * sy0)
        let low1 = Swift.min(0, 3 * sx1) + Swift.min(0, 3 * sy1), high1 = Swift.max(0, 3 * sx1) + Swift.max(0, 3 * sy1)
        let low2 = Swift.min(0, 3 * sx2) + Swift.min(0, 3 * sy2), high2 = Swift.max(0, 3 * sx2) + Swift.max(0, 3 * sy2)

        let first = TileWorker.firstSample
        for py in py0...py1 {
            let sampleY = Int64(py) * unit + first, sampleX = Int64(px0) * unit + first
            var e0 = a0 * (sampleX - x0) + b0 * (sampleY - y0) + bias0
            var e1 = a1 * (sampleX - x1) + b1 * (sampleY - y1) + bias1
            var e2 = a2 * (sampleX - x2) + b2 * (sampleY - y2) + bias2
            for px in px0...px1 {
                defer {
                    e0 += a0 * unit
                    e1 += a1 * unit
                    e2 += a2 * unit
                }
                if e0 + high0 < 0 || e1 + high1 < 0 || e2 + high2 < 0 { continue }
                var mask: UInt32 = 0xFFFF
                var centroid: (x: Double, y: Double)?
                if e0 + low0 < 0 || e1 + low1 < 0 || e2 + low2 < 0 {
                    mask = 0
                    var sumX = 0, sumY = 0, count = 0
                    var r0 = e0, r1 = e1, r2 = e2
                    for row in 0..<4 {
                        var c0 = r0, c1 = r1, c2 = r2
                        for column in 0..<4 {
                            if (c0 | c1 | c2) >= 0 {
                                mask |= 1 << UInt32(row * 4 + column)
                                sumX += column
                                sumY += row
                                count += 1
                            }
                            c0 += sx0
                            c1 += sx1
                            c2 += sx2
                        }
                        r0 += sy0
                        r1 += sy1
                        r2 += sy2
                    }
                    if count == 0 { continue }
                    centroid = (
                        Double(px) + (2 * Double(sumX) / Double(count) + 1) / 8,
                        Double(py) + (2 * Double(sumY) / Double(count) + 1) / 8)
                }
                // Shade once, at the pixel centre: neighbouring triangles of one smooth map then
                // agree exactly (an identity mesh reproduces its texture pixel for pixel). Where
                // the centre lies far outside a partly covering triangle (a sliver), extrapolating
                // its plane is unreliable; shade at the centroid of its covered samples instead,
                // which lies inside it (GPUs' centroid sampling).
                func planes(_ qx: Double, _ qy: Double) -> (f: SIMD4<Double>, inside: Bool) {
                    let rx = qx - ox, ry = qy - oy
                    let l1 = (rx * ey2 - ry * ex2) * inverseArea
                    let l2 = (ex1 * ry - ey1 * rx) * inverseArea
                    let reach = TileWorker.extrapolationLimit
                    return (f0 + l1 * d1 + l2 * d2, l1 >= -reach && l2 >= -reach && 1 - l1 - l2 >= -reach)
                }
                let atCentre = planes(Double(px) + 0.5, Double(py) + 0.5)
                var f = atCentre.f
                if let centroid, !(atCentre.inside && f.x > 0) {
                    f = planes(centroid.x, centroid.y).f
                }
                guard f.x > 0 else { continue }
                let u = f.y / f.x, v = f.z / f.x
                let shade = Float(Swift.min(1, Swift.max(0, f.w / f.x)))
                let texel = texture.sample(u: u, v: v, in: texels)
                let colour = SIMD4<Float>(texel.x * shade, texel.y * shade, texel.z * shade, texel.w) * opacity
                composite(colour, mask: mask, pixel: (py - originY) * size + (px - originX))
            }
        }
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
