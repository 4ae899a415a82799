/// Writes a scene as SVG: one `<polygon>` per triangle, in draw order, each filled with the base
/// colour times its flat lighting intensity.
struct SVGWriter {
    /// The surface colour before lighting (a pale blue-grey, visible on white and on black).
    static let baseColour: SIMD3<Double> = RenderScene.svgBaseColour
    static let wireColour = "#1d2430"

    var opacity: Double
    var wireframe: Bool

    func write(_ scene: RenderScene) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(200 + scene.triangles.count * 80)
        func append(_ s: String) { out.append(contentsOf: s.utf8) }
        append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(scene.width)\" height=\"\(scene.height)\" ")
        append("viewBox=\"0 0 \(scene.width) \(scene.height)\">\n")
        append("<!-- meshgeo render: \(scene.triangles.count) triangles, back to front -->\n")
        var group = "<g stroke-linejoin=\"round\""
        if opacity < 1 {
            group += " fill-opacity=\"\(SVGWriter.format(opacity, decimals: 4))\""
        }
        if wireframe {
            group += " stroke=\"\(SVGWriter.wireColour)\" stroke-width=\"0.5\" stroke-opacity=\"0.6\""
        }
        append(group + ">\n")
        // Opaque, unoutlined fills get a hairline of their own colour: anti-aliasing viewers would
        // otherwise show the background through the seams between neighbouring triangles.
        let closeSeams = opacity >= 1 && !wireframe
        for (t, tri) in scene.triangles.enumerated() {
            append("<polygon points=\"")
            for k in 0..<3 {
                let i = Int(tri[k])
                if k > 0 { out.append(0x20) }
                SVGWriter.appendNumber(scene.x[i], to: &out)
                out.append(0x2C)
                SVGWriter.appendNumber(scene.y[i], to: &out)
            }
            let colour = SVGWriter.hex(scene.flatColour.isEmpty ? SVGWriter.baseColour * scene.flatShade[t] : scene.flatColour[t])
            append("\" fill=\"\(colour)\"")
            if closeSeams { append(" stroke=\"\(colour)\" stroke-width=\"0.35\"") }
            append("/>\n")
        }
        append("</g>\n</svg>\n")
        return out
    }
}

extension SVGWriter {
    /// `#rrggbb` of a colour in 0…255 per channel.
    static func hex(_ colour: SIMD3<Double>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = [0x23]
        for k in 0..<3 {
            let value = colour[k].isFinite ? Int(Swift.min(255, Swift.max(0, colour[k])).rounded()) : 0
            bytes.append(digits[value >> 4])
            bytes.append(digits[value & 15])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A coordinate to 1/100 pixel, without trailing zeros. The scene keeps coordinates within
    /// the guard band, far inside Int's range.
    static func appendNumber(_ value: Double, to out: inout [UInt8]) {
        let hundredths = value.isFinite ? Int((value * 100).rounded()) : 0
        if hundredths < 0 { out.append(0x2D) }
        let magnitude = hundredths.magnitude
        out.append(contentsOf: String(magnitude / 100).utf8)
        let fraction = Int(magnitude % 100)
        if fraction != 0 {
            out.append(0x2E)
            out.append(UInt8(0x30 + fraction / 10))
            if fraction % 10 != 0 { out.append(UInt8(0x30 + fraction % 10)) }
        }
    }

    static func format(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let n = Int((value * scale).rounded())
        var text = String(n / Int(scale))
        let fraction = n % Int(scale)
        if fraction != 0 {
            var digits = String(fraction)
            while digits.count < decimals { digits = "0" + digits }
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        return text
    }
}
