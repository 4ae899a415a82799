import CSwiftRuntimeShims

/// Fast number formatting for the text exporters: the runtime's shortest round-trip formatter
/// (behind `Double.description`) called into a caller's buffer, so no String is made per number.

enum ShortestFormatter {
    /// Formats into a 40-byte buffer and returns the length. The runtime's formatter leaves the
    /// zero digits it pads with to the caller, so the buffer is filled with '0' first.
    @inline(__always)
    static func format(_ value: Double, into base: UnsafeMutablePointer<CChar>) -> Int {
        base.update(repeating: 0x30, count: 40)
        return Swift.min(Int(swift_float64ToString(base, 40, value, false)), 40)
    }

    /// Whether the runtime formatter writes exactly what `description` does, checked once on
    /// values that exercise its cases; if not, `description` is used.
    static let runtimeAgrees: Bool = {
        let probes: [Double] = [
            0, 1, -1, 0.1, 0.5, 1.5, -0.04405124103561948, 0.010000000000000002, 1e-5, 1.25e-7,
            123456789.125, 1e22, Double.leastNonzeroMagnitude, 1.7976931348623157e308, 0.31178530557800993, 1e16, 100,
        ]
        return probes.allSatisfy { v in
            var buffer = [CChar](repeating: 0, count: 40)
            let n = buffer.withUnsafeMutableBufferPointer { b -> Int in
                guard let base = b.baseAddress else { return 0 }
                return format(v, into: base)
            }
            return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self) == v.description
        }
    }()
}

extension Array where Element == UInt8 {
    /// Appends the shortest decimal text that reads back to the same Double (as `description`).
    /// Negative zero is written as `0.0`.
    @inline(__always)
    mutating func appendShortest(_ value: Double) {
        let v = value == 0 ? 0.0 : value
        guard ShortestFormatter.runtimeAgrees else {
            append(contentsOf: v.description.utf8)
            return
        }
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 40) { buffer in
            guard let base = buffer.baseAddress else { return }
            let n = ShortestFormatter.format(v, into: base)
            base.withMemoryRebound(to: UInt8.self, capacity: n) {
                append(contentsOf: UnsafeBufferPointer(start: $0, count: n))
            }
        }
    }

    /// Appends a non-negative integer in decimal.
    @inline(__always)
    mutating func appendDecimal(_ value: Int) {
        var v = value < 0 ? 0 : value
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
            var i = 24
            repeat {
                i -= 1
                buffer[i] = UInt8(truncatingIfNeeded: 48 + v % 10)
                v /= 10
            } while v > 0 && i > 0
            append(contentsOf: UnsafeBufferPointer(rebasing: buffer[i..<24]))
        }
    }
}
