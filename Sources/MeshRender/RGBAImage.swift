/// A picture of 8-bit red, green, blue and alpha samples, row by row from the top-left corner.
///
/// Colour samples are straight (not premultiplied by alpha) and sRGB-encoded, as PNG stores them;
/// the renderer converts to premultiplied values only while it composites.
public struct RGBAImage: Hashable, Sendable {
    public let width: Int
    public let height: Int
    /// `width × height × 4` bytes: R, G, B, A of each pixel, rows top to bottom.
    public private(set) var pixels: [UInt8]

    /// The most pixels an image may have (here and in every file read): 2²⁶, a 256 MiB buffer.
    public static let maximumPixelCount = 1 << 26

    /// An image of the given size filled with one colour (default transparent black).
    public init(width: Int, height: Int, fill: RGBA8 = RGBA8(0, 0, 0, 0)) throws(ImageError) {
        try RGBAImage.checkSize(width: width, height: height)
        self.width = width
        self.height = height
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        if fill != RGBA8(0, 0, 0, 0) {
            for i in 0..<(width * height) {
                pixels[4 * i] = fill.red
                pixels[4 * i + 1] = fill.green
                pixels[4 * i + 2] = fill.blue
                pixels[4 * i + 3] = fill.alpha
            }
        }
        self.pixels = pixels
    }

    /// An image over existing samples; throws unless there are exactly `width × height × 4`.
    public init(width: Int, height: Int, pixels: [UInt8]) throws(ImageError) {
        try RGBAImage.checkSize(width: width, height: height)
        guard pixels.count == width * height * 4 else {
            throw ImageError(.invalidSize, "\(pixels.count) bytes for a \(width) × \(height) image (needs \(width * height * 4))")
        }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Built by the module from a buffer it has sized itself.
    init(unchecked width: Int, height: Int, pixels: [UInt8]) {
        assert(pixels.count == width * height * 4)
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The pixel in column `x`, row `y` (both from 0); `nil` outside the image.
    public func pixel(x: Int, y: Int) -> RGBA8? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let i = 4 * (y * width + x)
        return RGBA8(pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }

    /// Sets one pixel; does nothing outside the image.
    public mutating func setPixel(x: Int, y: Int, to colour: RGBA8) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let i = 4 * (y * width + x)
        pixels[i] = colour.red
        pixels[i + 1] = colour.green
        pixels[i + 2] = colour.blue
        pixels[i + 3] = colour.alpha
    }
}

extension RGBAImage {
    static func checkSize(width: Int, height: Int) throws(ImageError) {
        guard width > 0, height > 0 else {
            throw ImageError(.invalidSize, "\(width) × \(height) is not an image size (both must be at least 1)")
        }
        guard width <= maximumPixelCount, height <= maximumPixelCount / width else {
            throw ImageError(.tooLarge, "\(width) × \(height) pixels is over the limit of \(maximumPixelCount) pixels")
        }
    }
}

/// One straight-alpha 8-bit pixel.
public struct RGBA8: Hashable, Sendable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8, _ alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }
}
