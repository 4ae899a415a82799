import MeshRender
import Testing

// PNG through libpng: what is written reads back bit for bit (PNG is lossless, 8-bit RGBA in,
// 8-bit RGBA out), and bytes that are not a whole PNG are errors, never a crash.

@Suite struct PNGTests {
    @Test func pngRoundTripKeepsEveryByteIncludingAlpha() throws {
        var image = try RenderFixtures.noise(width: 37, height: 11)
        image.setPixel(x: 3, y: 4, to: RGBA8(10, 20, 30, 0))
        image.setPixel(x: 5, y: 6, to: RGBA8(200, 100, 50, 77))
        for fast in [false, true] {
            let bytes = try image.pngData(fast: fast)
            #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            let back = try RGBAImage(png: bytes)
            #expect(back == image)
        }
    }

    @Test func bytesThatAreNotAWholePNGAreDecodeErrors() throws {
        let bytes = try RenderFixtures.noise(width: 16, height: 16).pngData()
        for bad in [[], Array("not a png".utf8), Array(bytes.prefix(8)), Array(bytes.prefix(bytes.count / 2))] {
            #expect(throws: ImageError.self) { try RGBAImage(png: bad) }
        }
        var corrupt = bytes
        corrupt[bytes.count / 2] ^= 0xFF
        #expect(throws: ImageError.self) { try RGBAImage(png: corrupt) }
    }

    @Test func defaultAndFastFilesHoldTheSamePixels() throws {
        // A picture like the renderer's: flat regions and a smooth ramp. Both settings decode to
        // the same bytes; the faster one only compresses less.
        var image = try RGBAImage(width: 64, height: 48)
        for y in 0..<48 {
            for x in 0..<64 {
                let square = (x / 16 + y / 16) % 2 == 0
                image.setPixel(x: x, y: y, to: square ? RGBA8(UInt8(4 * x), 40, 200, 255) : RGBA8(250, 250, 250, UInt8(5 * y)))
            }
        }
        let small = try image.pngData(), fast = try image.pngData(fast: true)
        #expect(try RGBAImage(png: small) == image)
        #expect(try RGBAImage(png: fast) == image)
        #expect(small.count <= fast.count)
        // Signature, then IHDR: 64 × 48, 8 bits, colour type 6 (RGBA), no interlace.
        #expect(Array(small[12..<16]) == Array("IHDR".utf8))
        #expect(Array(small[16..<29]) == [0, 0, 0, 64, 0, 0, 0, 48, 8, 6, 0, 0, 0])
    }

    @Test func sidesOverLibpngsLimitAreEncodeErrors() throws {
        let wide = try RGBAImage(width: 1_000_001, height: 1)
        #expect(throws: ImageError.self) { try wide.pngData() }
    }

    @Test func imageSizesAreChecked() {
        #expect(throws: ImageError.self) { try RGBAImage(width: 0, height: 3) }
        #expect(throws: ImageError.self) { try RGBAImage(width: 2, height: 2, pixels: [0, 0, 0]) }
        #expect(throws: ImageError.self) { try RGBAImage(width: 1 << 14, height: 1 << 13) }
    }
}
