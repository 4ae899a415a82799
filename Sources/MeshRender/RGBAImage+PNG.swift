import CPNG

// PNG through libpng's simplified API (png_image). Its calls catch libpng's errors inside C
// (libpng's own setjmp in png_safe_execute) and report them in the struct, so no longjmp ever
// crosses a Swift frame, which the classic png_create_read_struct interface would do.

public extension RGBAImage {
    /// Decodes a PNG (any colour type and bit depth libpng reads) to 8-bit straight RGBA.
    ///
    /// Throws ``ImageError`` `.decode` for bytes that are not a PNG or do not decode, and
    /// `.tooLarge` before decoding an image of more than ``maximumPixelCount`` pixels.
    init(png bytes: [UInt8]) throws(ImageError) {
        // libpng keeps the memory pointer from begin_read until finish_read, so both calls run
        // inside one access to the bytes.
        let decoded = bytes.withUnsafeBytes { raw in PNGCodec.decode(raw) }
        switch decoded {
        case .success(let (width, height, pixels)):
            self.init(unchecked: width, height: height, pixels: pixels)
        case .failure(let error):
            throw error
        }
    }

    /// Encodes the image as an 8-bit RGBA PNG: libpng's default compression, or with `fast`
    /// its faster, weaker setting (PNG_IMAGE_FLAG_FAST), for pictures that are read back rather
    /// than published.
    func pngData(fast: Bool = false) throws(ImageError) -> [UInt8] {
        // Raw size plus zlib's worst-case growth and chunk overhead; libpng says so if it needs more.
        let raw = height * (width * 4 + 1)
        var capacity = raw + raw / 64 + 65_536
        for _ in 0..<2 {
            var image = png_image()
            image.version = UInt32(PNG_IMAGE_VERSION)
            image.width = UInt32(width)
            image.height = UInt32(height)
            image.format = PNGCodec.rgbaFormat
            image.flags = fast ? PNGCodec.fastFlag : 0
            var output = [UInt8](repeating: 0, count: capacity)
            var size = png_alloc_size_t(capacity)
            let ok = output.withUnsafeMutableBytes { out -> Int32 in
                pixels.withUnsafeBytes { source -> Int32 in
                    guard let target = out.baseAddress, let base = source.baseAddress else { return 0 }
                    return png_image_write_to_memory(&image, target, &size, 0, base, Int32(width * 4), nil)
                }
            }
            if ok != 0 {
                output.removeSubrange(Int(size)...)
                png_image_free(&image)
                return output
            }
            let reason = PNGCodec.message(of: &image, fallback: "libpng could not encode the image")
            png_image_free(&image)
            // A changed size means only the buffer was too small.
            guard Int(size) > capacity else { throw ImageError(.encode, reason) }
            capacity = Int(size)
        }
        throw ImageError(.encode, "libpng asked for a larger buffer twice")
    }
}

enum PNGCodec {
    static func decode(_ raw: UnsafeRawBufferPointer) -> Result<(Int, Int, [UInt8]), ImageError> {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        guard let base = raw.baseAddress, png_image_begin_read_from_memory(&image, base, raw.count) != 0 else {
            let reason = message(of: &image, fallback: "not a PNG file")
            png_image_free(&image)
            return .failure(ImageError(.decode, reason))
        }
        let width = Int(image.width), height = Int(image.height)
        do {
            try RGBAImage.checkSize(width: width, height: height)
        } catch {
            png_image_free(&image)
            return .failure(error)
        }
        image.format = rgbaFormat
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let finished = pixels.withUnsafeMutableBytes { out -> Int32 in
            guard let target = out.baseAddress else { return 0 }
            return png_image_finish_read(&image, nil, target, Int32(width * 4), nil)
        }
        // finish_read frees libpng's state itself; png_image_free is harmless after it.
        guard finished != 0 else {
            let reason = message(of: &image, fallback: "the PNG data could not be decoded")
            png_image_free(&image)
            return .failure(ImageError(.decode, reason))
        }
        return .success((width, height, pixels))
    }

    /// PNG_FORMAT_RGBA: colour and alpha flags, 8 bits a sample, sRGB.
    static let rgbaFormat: UInt32 = 0x02 | 0x01
    /// PNG_IMAGE_FLAG_FAST.
    static let fastFlag: UInt32 = 0x02

    /// libpng's message from a failed call, as one line.
    static func message(of image: inout png_image, fallback: String) -> String {
        guard image.warning_or_error & 0x03 > 1 else { return fallback }
        let text = withUnsafeBytes(of: &image.message) { raw -> String in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return line.isEmpty ? fallback : "libpng: \(line)"
    }
}
