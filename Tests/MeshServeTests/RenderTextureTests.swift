import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MeshRender
import MeshServe
import MeshTessellate
import SurfaceKit
import Testing

/// `/api/render` with a texture: the picture `meshgeo render --texture` makes, and 4xx answers
/// for images that are not images, not base64, or too large.
@Suite struct RenderTextureTests {
    let server = MeshServer(document: ExampleMesh.skew.document, port: 0)

    /// A texture whose left half is red and right half blue (sRGB 220, 30, 40 and 20, 40, 210).
    static func halves(width: Int = 16, height: Int = 8) throws -> RGBAImage {
        var pixels: [UInt8] = []
        for _ in 0..<height {
            for x in 0..<width {
                pixels += x < width / 2 ? [220, 30, 40, 255] : [20, 40, 210, 255]
            }
        }
        return try RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// Within one step of 8 bits a channel (the renderer blends in linear light and rounds back).
    static func near(_ a: RGBA8?, _ b: RGBA8) -> Bool {
        guard let a else { return false }
        return [(a.red, b.red), (a.green, b.green), (a.blue, b.blue), (a.alpha, b.alpha)].allSatisfy { abs(Int($0) - Int($1)) <= 1 }
    }

    static func base64(_ bytes: [UInt8]) -> String { "\"" + Data(bytes).base64EncodedString() + "\"" }

    @Test func textureIsMappedAsTheCommandLineMapsIt() async throws {
        // A flat layer facing the viewer, lit head-on with no diffuse term: every pixel shows the
        // texture's own colour, the left half red and the right half blue.
        var lit = try ServeSupport.grid(rows: 2, columns: 2, size: SIMD2(64, 48))
        lit.layer.light = Light(direction: Point3D(0, 0, 1), diffuse: 0)
        let document = lit
        let texture = try RenderTextureTests.halves()
        let expected = try MeshRenderer.image(
            of: document, texture: texture, options: RenderOptions(tessellation: TessellationOptions(steps: .fixed(1))))
        try await server.application().test(.router) { client in
            for prefix in ["", "data:image/png;base64,"] {
                let encoded = RenderTextureTests.base64(try texture.pngData())
                let value = "\"" + prefix + encoded.dropFirst()
                let response = try await ServeSupport.post(
                    client, "/api/render", ServeSupport.body(document, ["steps": "1", "texture": value]))
                #expect(response.status == .ok)
                let image = try RGBAImage(imageBytes: Array(response.body.readableBytesView))
                #expect(image == expected)
                // Pixel centres a quarter of the way in from each side, far from the seam.
                #expect(RenderTextureTests.near(image.pixel(x: 16, y: 24), RGBA8(220, 30, 40, 255)))
                #expect(RenderTextureTests.near(image.pixel(x: 48, y: 24), RGBA8(20, 40, 210, 255)))
            }
        }
    }

    @Test func badTexturesAreClientErrorsNamingTheKey() async throws {
        let document = try ServeSupport.grid(rows: 1, columns: 1, size: SIMD2(32, 32))
        // A PNG signature and an IHDR that declares 5000 × 5000 pixels, and nothing else: refused
        // for its size before anything is decoded.
        var huge: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        huge += [0, 0, 0x13, 0x88, 0, 0, 0x13, 0x88, 8, 6, 0, 0, 0, 0, 0, 0, 0]
        // The largest sides a PNG header can declare: their product does not fit an Int.
        var widest = huge
        widest.replaceSubrange(16..<24, with: [UInt8](repeating: 0xFF, count: 8))
        let notAnImage = RenderTextureTests.base64(Array("hello, world".utf8))
        let truncated = RenderTextureTests.base64(Array(try RenderTextureTests.halves().pngData().prefix(40)))
        let cases: [(texture: String, status: HTTPResponse.Status)] = [
            (notAnImage, .unprocessableContent),
            (truncated, .unprocessableContent),
            (RenderTextureTests.base64(huge), .contentTooLarge),
            (RenderTextureTests.base64(widest), .contentTooLarge),
            ("\"%%%\"", .badRequest),
            ("\"data:image/png,abc\"", .badRequest),
            ("42", .badRequest),
        ]
        try await server.application().test(.router) { client in
            for item in cases {
                let response = try await ServeSupport.post(client, "/api/render", ServeSupport.body(document, ["texture": item.texture]))
                #expect(response.status == item.status, "\(item.texture.prefix(40))")
                let json = try ServeSupport.json(response.body)
                #expect(json["path"] as? String == "texture")
                #expect((json["error"] as? String)?.isEmpty == false)
            }
            // The message for bytes that are no image is the one `meshgeo render --texture` prints.
            let response = try await ServeSupport.post(client, "/api/render", ServeSupport.body(document, ["texture": notAnImage]))
            let expected: String
            do {
                _ = try RGBAImage(imageBytes: Array("hello, world".utf8))
                expected = ""
            } catch let error as ImageError {
                expected = error.message
            }
            #expect(!expected.isEmpty)
            #expect(try ServeSupport.json(response.body)["error"] as? String == expected)
        }
    }
}
