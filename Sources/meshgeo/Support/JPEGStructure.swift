/// A structural check of a JPEG file, for textures embedded without decoding (`--format glb`):
/// the segments from the start-of-image marker to the end-of-image marker are walked, their
/// lengths checked against the file, and a frame header and scan must come before the end. A
/// file cut short, or with a segment running past its end, is reported; the pixels themselves
/// are not decoded.
enum JPEGStructure {
    /// What is wrong, or nil for a complete file.
    static func problem(in bytes: [UInt8]) -> String? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return "no start-of-image marker" }
        var i = 2
        var sawFrame = false
        while i < bytes.count {
            // Fill bytes (0xFF) may precede a marker.
            guard bytes[i] == 0xFF else { return "a segment is malformed at byte \(i)" }
            while i < bytes.count, bytes[i] == 0xFF { i += 1 }
            guard i < bytes.count else { break }
            let marker = bytes[i]
            i += 1
            switch marker {
            case 0xD9:
                return sawFrame ? nil : "it ends before any frame header"
            case 0x01, 0xD0...0xD7:
                continue
            default:
                guard i + 2 <= bytes.count else { return "it is cut short in a segment header" }
                let length = Int(bytes[i]) << 8 | Int(bytes[i + 1])
                guard length >= 2, i + length <= bytes.count else { return "it is cut short (a segment runs past the end)" }
                if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC { sawFrame = true }
                i += length
                if marker == 0xDA {
                    guard sawFrame else { return "a scan comes before any frame header" }
                    // Entropy-coded data: up to the next marker that is not a stuffed 0xFF00 or a restart.
                    while i + 1 < bytes.count {
                        if bytes[i] == 0xFF, bytes[i + 1] != 0x00, !(0xD0...0xD7).contains(bytes[i + 1]), bytes[i + 1] != 0xFF {
                            break
                        }
                        i += 1
                    }
                    if i + 1 >= bytes.count { return "it is cut short (no end-of-image marker after the scan)" }
                }
            }
        }
        return "it is cut short (no end-of-image marker)"
    }
}
