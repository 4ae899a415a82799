import MeshRender
import SurfaceKit
import TestSupport
import Testing

// Scenes and textures built from formulas, shared by the rendering tests.

enum RenderFixtures {
    /// A `rows × columns` grid of faces over the layer whose vertex at layer point p goes to `to(p)`.
    static func grid(rows: Int, columns: Int, steps: Int, to: (LayerPoint) -> Point3D) throws -> MeshTransform {
        var vertices: [MeshVertex] = []
        for i in 0...rows {
            for j in 0...columns {
                let p = LayerPoint(Double(j) / Double(columns), Double(i) / Double(rows))
                vertices.append(MeshVertex(from: p, to: to(p)))
            }
        }
        var faces: [MeshFace] = []
        for i in 0..<rows {
            for j in 0..<columns {
                let a = i * (columns + 1) + j
                faces.append(MeshFace(a, a + 1, a + columns + 2, a + columns + 1))
            }
        }
        return try MeshTransform(vertices: vertices, faces: faces, subdivisionSteps: .fixed(steps))
    }

    /// A texture whose red channel is 8·column and green 8·row (blue 128, opaque): bilinear
    /// filtering reproduces the linear function 8·t exactly, so the colour at any texel
    /// coordinate is known in closed form.
    static func gradient(width: Int = 32, height: Int = 32) throws -> RGBAImage {
        var image = try RGBAImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                image.setPixel(x: x, y: y, to: RGBA8(UInt8(8 * x), UInt8(8 * y), 128, 255))
            }
        }
        return image
    }

    /// The gradient's colour at layer point (u, v), away from its clamped border texels.
    static func gradientColour(u: Double, v: Double, width: Int = 32, height: Int = 32) -> (red: Double, green: Double) {
        (8 * (u * Double(width) - 0.5), 8 * (v * Double(height) - 0.5))
    }

    /// Opaque pseudo-random pixels (the tests' seeded generator, so every run draws the same).
    static func noise(width: Int, height: Int) throws -> RGBAImage {
        var random = SplitMix64(seed: 0x9E37_79B9_7F4A_7C15)
        var bytes: [UInt8] = []
        for k in 0..<(width * height * 4) {
            let value = random.next()
            bytes.append(k % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: value >> 56))
        }
        return try RGBAImage(width: width, height: height, pixels: bytes)
    }

    static func solid(_ colour: RGBA8, width: Int = 8, height: Int = 8) throws -> RGBAImage {
        try RGBAImage(width: width, height: height, fill: colour)
    }

    static func transform(_ elements: [Double]) throws -> Transform3D {
        try #require(Transform3D(elements: elements))
    }
}
