/// A problem with an image: a PNG or JPEG that cannot be decoded or encoded, or a size out of range.
public struct ImageError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable {
        /// Width or height below 1, or a pixel buffer of the wrong length.
        case invalidSize
        /// More pixels than ``RGBAImage/maximumPixelCount``.
        case tooLarge
        /// The bytes are not a PNG or JPEG, or libpng or libjpeg could not decode them.
        case decode
        /// libpng could not encode the image.
        case encode
    }

    public var kind: Kind
    /// What is wrong, one line.
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
