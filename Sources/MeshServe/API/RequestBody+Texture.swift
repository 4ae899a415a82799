import Foundation
import MeshRender

extension RequestBody {
    /// The texture under `key`: a PNG or JPEG as a base64 string (a `data:image/…;base64,` URL
    /// prefix is allowed), decoded as `meshgeo render --texture` reads a file. `nil` when absent.
    ///
    /// The bytes count toward the body limit; the image's size is read from its header and an
    /// image over `maximumPixels` is refused (413) before it is decoded, so a small file that
    /// claims a huge picture allocates nothing. Text that is not base64 is 400; bytes that are
    /// not a PNG or JPEG, or do not decode, are 422 with the command line's message.
    func texture(_ key: String = "texture", maximumPixels: Int) throws(APIError) -> RGBAImage? {
        guard raw(key) != nil else { return nil }
        guard var text = try string(key) else { return nil }
        if text.hasPrefix("data:"), let comma = text.firstIndex(of: ",") {
            guard text[..<comma].hasSuffix(";base64") else {
                throw APIError(.badRequest, path: key, "'\(key)' must be base64 (a data URL ending in ';base64,')")
            }
            text = String(text[text.index(after: comma)...])
        }
        guard let data = Data(base64Encoded: text, options: [.ignoreUnknownCharacters]), !data.isEmpty else {
            throw APIError(.badRequest, path: key, "'\(key)' must be a PNG or JPEG image in base64")
        }
        let bytes = [UInt8](data)
        if let size = ImageHeader.size(of: bytes) {
            // A header declares up to 2³² − 1 on each side, so the product may not fit an Int.
            let pixels = size.width.multipliedReportingOverflow(by: size.height)
            guard !pixels.overflow, pixels.partialValue <= maximumPixels else {
                throw APIError(
                    .contentTooLarge, path: key,
                    "a texture of \(size.width) × \(size.height) pixels is over the server's limit of \(maximumPixels) pixels")
            }
        }
        let image: RGBAImage
        do {
            image = try RGBAImage(imageBytes: bytes)
        } catch {
            throw APIError(.unprocessableContent, path: key, error.message)
        }
        // A header the reader above did not find (an unusual JPEG) is still held to the limit.
        guard image.width * image.height <= maximumPixels else {
            throw APIError(
                .contentTooLarge, path: key,
                "a texture of \(image.width) × \(image.height) pixels is over the server's limit of \(maximumPixels) pixels")
        }
        return image
    }
}

/// The pixel size a PNG or JPEG declares in its header, read without decoding it.
enum ImageHeader {
    static func size(of bytes: [UInt8]) -> (width: Int, height: Int)? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return pngSize(bytes) }
        if bytes.starts(with: [0xFF, 0xD8]) { return jpegSize(bytes) }
        return nil
    }

    /// A PNG starts with its 8-byte signature and the IHDR chunk: length, "IHDR", then the width
    /// and height as big-endian UInt32.
    static func pngSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard bytes.count >= 24, bytes[12..<16].elementsEqual("IHDR".utf8) else { return nil }
        return (bigEndian(bytes, at: 16, count: 4), bigEndian(bytes, at: 20, count: 4))
    }

    /// A JPEG is a run of marker segments (FF, the marker, a big-endian length that counts
    /// itself); the first start-of-frame segment (C0–CF but C4, C8 and CC) holds the precision,
    /// the height and the width. Stops at the start of scan (DA) or at anything malformed.
    static func jpegSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            if marker == 0xFF {
                offset += 1 // fill byte
                continue
            }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                offset += 2 // segments without a length
                continue
            }
            if marker == 0xDA || marker == 0xD9 { return nil }
            let length = bigEndian(bytes, at: offset + 2, count: 2)
            guard length >= 2 else { return nil }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard offset + 9 <= bytes.count else { return nil }
                return (bigEndian(bytes, at: offset + 7, count: 2), bigEndian(bytes, at: offset + 5, count: 2))
            }
            offset += 2 + length
        }
        return nil
    }

    static func bigEndian(_ bytes: [UInt8], at offset: Int, count: Int) -> Int {
        bytes[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) }
    }
}
