import CJPEG

// JPEG through libjpeg (libjpeg-turbo on Debian). The decoding call is C (in the CJPEG shim), so
// libjpeg's error exit, a longjmp, lands in a C frame and never crosses a Swift one.

public extension RGBAImage {
    /// Decodes a baseline or progressive JPEG (greyscale or colour) to 8-bit RGBA, opaque.
    ///
    /// Throws ``ImageError`` `.decode` for bytes that are not a JPEG or do not decode (libjpeg's
    /// message), and `.tooLarge` before decoding an image of more than ``maximumPixelCount``
    /// pixels.
    init(jpeg bytes: [UInt8]) throws(ImageError) {
        var pixels: UnsafeMutablePointer<UInt8>?
        var width: UInt32 = 0, height: UInt32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = bytes.withUnsafeBufferPointer { data in
            message.withUnsafeMutableBufferPointer { text in
                surfacekit_jpeg_decode(
                    data.baseAddress, UInt(data.count), UInt(RGBAImage.maximumPixelCount), &pixels, &width, &height,
                    text.baseAddress, text.count)
            }
        }
        switch status {
        case 0:
            guard let pixels else { throw ImageError(.decode, "libjpeg returned no pixels") }
            defer { surfacekit_jpeg_free(pixels) }
            let count = Int(width) * Int(height) * 4
            self.init(unchecked: Int(width), height: Int(height), pixels: Array(UnsafeBufferPointer(start: pixels, count: count)))
        case 2:
            try RGBAImage.checkSize(width: Int(width), height: Int(height))
            throw ImageError(.tooLarge, "\(width) × \(height) pixels is over the limit of \(RGBAImage.maximumPixelCount)")
        default:
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw ImageError(.decode, text.isEmpty ? "the JPEG data could not be decoded" : "libjpeg: \(text)")
        }
    }

    /// Decodes a PNG or a JPEG, told apart by their first bytes (a PNG's signature, a JPEG's
    /// start-of-image marker FF D8 FF). Throws `.decode` for anything else.
    init(imageBytes bytes: [UInt8]) throws(ImageError) {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            try self.init(jpeg: bytes)
        } else if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            try self.init(png: bytes)
        } else {
            throw ImageError(.decode, "not a PNG or JPEG image")
        }
    }
}
