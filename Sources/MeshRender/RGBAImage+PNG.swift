import CPNG

// PNG through libpng. Reading uses the simplified API (png_image): its calls catch libpng's errors
// inside C (libpng's own setjmp in png_safe_execute) and report them in the struct, so no longjmp
// ever crosses a Swift frame, which the classic png_create_read_struct interface would do on a
// corrupt file. Writing needs the classic interface to choose the compression; see
// PNGCodec.encode for why its error handler is never reached.

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

    /// Encodes the image as an 8-bit RGBA PNG (with an sRGB chunk). Rows are stored unfiltered
    /// and deflated at zlib level 6, or with `fast` at level 3, for pictures that are read back
    /// rather than published.
    ///
    /// Unfiltered rows at level 6 are libpng's default compression made about three times faster:
    /// on a rendered picture (flat colours, smooth shading) the file is about 5% larger than with
    /// libpng's adaptive filters, which leave deflate few long matches to find. `fast` is about
    /// twice as fast again, for a file about 45% larger.
    func pngData(fast: Bool = false) throws(ImageError) -> [UInt8] {
        try PNGCodec.encode(self, level: fast ? 3 : 6)
    }
}

enum PNGCodec {
    /// Writes through libpng's classic interface, which (unlike the simplified one) sets the
    /// filter and the zlib level. Its error handler cannot return to Swift (libpng would longjmp,
    /// or abort without a jump buffer), so nothing here may reach it: the header is checked here
    /// first (libpng's own limit of a million pixels a side, which its reader keeps too), and the
    /// output callback cannot fail. What remains is libpng running out of memory, which ends the
    /// process as running out of memory in Swift does.
    static func encode(_ image: RGBAImage, level: Int32) throws(ImageError) -> [UInt8] {
        guard image.width <= maximumSide, image.height <= maximumSide else {
            throw ImageError(
                .encode, "\(image.width) × \(image.height) pixels: libpng writes at most \(maximumSide) pixels a side")
        }
        guard let png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nil, nil, { _, _ in }) else {
            throw ImageError(.encode, "libpng could not start writing")
        }
        var writer: png_structp? = png
        guard let info = png_create_info_struct(png) else {
            png_destroy_write_struct(&writer, nil)
            throw ImageError(.encode, "libpng could not start writing")
        }
        let sink = PNGSink(capacity: image.height * (image.width * 4 + 1) / 4 + 1024)
        let context = Unmanaged.passRetained(sink)
        defer {
            var infoPointer: png_infop? = info
            png_destroy_write_struct(&writer, &infoPointer)
            context.release()
        }
        png_set_write_fn(
            png, context.toOpaque(),
            { png, data, count in
                guard let png, let data, let box = png_get_io_ptr(png) else { return }
                let sink = Unmanaged<PNGSink>.fromOpaque(box).takeUnretainedValue()
                sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: count))
            }, { _ in })
        png_set_IHDR(
            png, info, UInt32(image.width), UInt32(image.height), 8, PNG_COLOR_TYPE_RGB | PNG_COLOR_MASK_ALPHA,
            PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE)
        png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL)
        png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE)
        png_set_compression_level(png, level)
        png_write_info(png, info)
        let rowBytes = image.width * 4
        image.pixels.withUnsafeBufferPointer { pixels in
            guard let base = pixels.baseAddress else { return }
            for row in 0..<image.height {
                png_write_row(png, base + row * rowBytes)
            }
        }
        png_write_end(png, info)
        return sink.bytes
    }

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

    /// PNG_USER_WIDTH_MAX and PNG_USER_HEIGHT_MAX, libpng's default limits on either side.
    static let maximumSide = 1_000_000

    /// PNG_FORMAT_RGBA: colour and alpha flags, 8 bits a sample, sRGB.
    static let rgbaFormat: UInt32 = 0x02 | 0x01

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

/// The growing output of ``PNGCodec/encode(_:level:)``.
private final class PNGSink {
    var bytes: [UInt8] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }
}
