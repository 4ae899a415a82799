/// The layer's content as premultiplied floating-point texels, ready for filtering.
struct TextureSampler {
    let width: Int
    let height: Int
    /// Premultiplied RGBA in 0…1, rows top to bottom.
    let texels: [SIMD4<Float>]

    init(_ image: RGBAImage) {
        width = image.width
        height = image.height
        var texels = [SIMD4<Float>](repeating: .zero, count: image.width * image.height)
        image.pixels.withUnsafeBufferPointer { p in
            for i in texels.indices {
                let a = Float(p[4 * i + 3]) / 255
                let rgb = SIMD3<Float>(Float(p[4 * i]), Float(p[4 * i + 1]), Float(p[4 * i + 2])) / 255 * a
                texels[i] = SIMD4(rgb, a)
            }
        }
        self.texels = texels
    }
}

/// Bilinear lookup in the layer's content, stretched over the layer's bounds: layer point (u, v)
/// in unit coordinates lands on texel coordinate (u·width, v·height), texel centres at +½.
/// Samples are premultiplied (so filtering never bleeds the colour of transparent texels) and
/// clamped to the edge outside 0…1.
struct TextureLookup {
    let width: Int
    let height: Int
    let texels: UnsafeBufferPointer<SIMD4<Float>>

    /// The filtered, premultiplied colour at layer point (u, v).
    @inline(__always)
    func sample(u: Double, v: Double) -> SIMD4<Float> {
        var tx = u * Double(width) - 0.5, ty = v * Double(height) - 0.5
        // Also catches NaN, which would trap in the conversions below.
        if !(tx > 0) { tx = 0 }
        if !(ty > 0) { ty = 0 }
        tx = Swift.min(tx, Double(width - 1))
        ty = Swift.min(ty, Double(height - 1))
        let x0 = Int(tx), y0 = Int(ty)
        let x1 = Swift.min(x0 + 1, width - 1), y1 = Swift.min(y0 + 1, height - 1)
        let fx = Float(tx - Double(x0)), fy = Float(ty - Double(y0))
        let top = texels[y0 * width + x0] * (1 - fx) + texels[y0 * width + x1] * fx
        let bottom = texels[y1 * width + x0] * (1 - fx) + texels[y1 * width + x1] * fx
        return top * (1 - fy) + bottom * fy
    }
}
