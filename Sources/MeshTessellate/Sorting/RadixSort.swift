/// A stable least-significant-digit radix sort of Double keys, the engine of the `depth` sort.
enum RadixSort {
    /// Order-preserving bits: the key's IEEE pattern with the sign bit flipped for non-negative
    /// numbers and every bit flipped for negative ones, so unsigned order is numeric order.
    /// −0 is first made +0 so that the two zeros, equal as numbers, stay in input order.
    @inline(__always)
    static func orderedBits(_ key: Double) -> UInt64 {
        let bits = (key + 0.0).bitPattern
        return bits >> 63 == 0 ? bits | (1 << 63) : ~bits
    }

    /// The permutation that sorts `keys` ascending, equal keys in input order. Keys must not be NaN.
    static func stableOrder(_ keys: [Double]) -> [Int32] {
        let n = keys.count
        var bits = keys.map(orderedBits)
        var order = (0..<Int32(n)).map { $0 }
        guard n > 1 else { return order }
        // Four 16-bit digits; all four histograms in one read of the keys.
        let radix = 1 << 16
        var histogram = [Int](repeating: 0, count: 4 * radix)
        for b in bits {
            histogram[Int(b & 0xFFFF)] += 1
            histogram[radix + Int((b >> 16) & 0xFFFF)] += 1
            histogram[2 * radix + Int((b >> 32) & 0xFFFF)] += 1
            histogram[3 * radix + Int(b >> 48)] += 1
        }
        var bitsOut = [UInt64](repeating: 0, count: n)
        var orderOut = [Int32](repeating: 0, count: n)
        for pass in 0..<4 {
            let base = pass * radix
            let shift = UInt64(pass * 16)
            // A digit shared by every key moves nothing: skip the pass (common for the high digits
            // of depths of similar magnitude).
            if histogram[base + Int((bits[0] >> shift) & 0xFFFF)] == n { continue }
            var offsets = [Int](repeating: 0, count: radix)
            var sum = 0
            for d in 0..<radix {
                offsets[d] = sum
                sum += histogram[base + d]
            }
            bits.withUnsafeBufferPointer { src in
                order.withUnsafeBufferPointer { srcOrder in
                    bitsOut.withUnsafeMutableBufferPointer { dst in
                        orderOut.withUnsafeMutableBufferPointer { dstOrder in
                            offsets.withUnsafeMutableBufferPointer { off in
                                for i in 0..<n {
                                    let b = src[i]
                                    let d = Int((b >> shift) & 0xFFFF)
                                    let slot = off[d]
                                    off[d] = slot + 1
                                    dst[slot] = b
                                    dstOrder[slot] = srcOrder[i]
                                }
                            }
                        }
                    }
                }
            }
            swap(&bits, &bitsOut)
            swap(&order, &orderOut)
        }
        return order
    }
}
