import Foundation
import MeshRender
import Testing

// JPEG through libjpeg. Examples/texture.jpg is Examples/texture.png (opaque) saved as JPEG at
// quality 90, so libjpeg's pixels must match libpng's within a JPEG's loss; and bytes that are
// not a whole JPEG are errors, never a crash or a half-grey picture.

@Suite struct JPEGTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples")

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: examples.appendingPathComponent(name)))
    }

    @Test func jpegDecodesToThePicturePNGHolds() throws {
        let png = try RGBAImage(png: try Self.bytes("texture.png"))
        let jpeg = try RGBAImage(jpeg: try Self.bytes("texture.jpg"))
        #expect(jpeg.width == png.width && jpeg.height == png.height)
        var total = 0, worst = 0
        for y in 0..<png.height {
            for x in 0..<png.width {
                guard let a = png.pixel(x: x, y: y), let b = jpeg.pixel(x: x, y: y) else { continue }
                #expect(a.alpha == 255 && b.alpha == 255)
                for d in [Int(a.red) - Int(b.red), Int(a.green) - Int(b.green), Int(a.blue) - Int(b.blue)] {
                    total += abs(d)
                    worst = max(worst, abs(d))
                }
            }
        }
        let mean = Double(total) / Double(3 * png.width * png.height)
        // Quality 90 with halved chroma keeps the mean error to a few levels (about 4, most of it
        // along the edges between hues); a wrong channel order, row stride or colour conversion
        // would be tens of levels off on this colourful picture.
        #expect(mean < 6, "mean difference \(mean)")
        #expect(worst < 96, "largest difference \(worst)")
        // Either format through the one entry point the command line uses.
        #expect(try RGBAImage(imageBytes: try Self.bytes("texture.jpg")) == jpeg)
        #expect(try RGBAImage(imageBytes: try Self.bytes("texture.png")) == png)
    }

    @Test func bytesThatAreNotAWholeJPEGAreDecodeErrors() throws {
        let bytes = try Self.bytes("texture.jpg")
        let cases: [[UInt8]] = [
            [], [0xFF, 0xD8, 0xFF], [0xFF, 0xD8, 0xFF, 0xE0] + Array("not really a jpeg".utf8),
            Array(bytes.prefix(bytes.count / 2)), Array(bytes.prefix(200)),
        ]
        for bad in cases {
            #expect(throws: ImageError.self) { try RGBAImage(jpeg: bad) }
        }
        #expect(throws: ImageError.self) { try RGBAImage(imageBytes: Array("GIF89a".utf8)) }
    }
}
