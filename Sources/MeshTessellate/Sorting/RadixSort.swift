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

    /// Digit width: 11 bits (6 passes for 64-bit keys) keeps each pass's 2,048 counters and write
    /// cursors in the L1 cache; 16-bit digits scatter to 65,536 places and thrash it.
    static let digitBits = 11
    static let passes = 6

    /// The permutation that sorts `keys` ascending, equal keys in input order. Keys must not be NaN.
    static func stableOrder(_ keys: [Double]) -> [Int32] {
        let n = keys.count
        var bits = keys.map(orderedBits)
        var order = [Int32](unsafeUninitializedCapacity: n) { buffer, count in
            for i in 0..<n { buffer[i] = Int32(truncatingIfNeeded: i) }
            count = n
        }
        guard n > 1 else { return order }
        let radix = 1 << digitBits
        let mask = UInt64(radix - 1)
        // All histograms in one read of the keys.
        var histogram = [Int](repeating: 0, count: passes * radix)
        bits.withUnsafeBufferPointer { src in
            histogram.withUnsafeMutableBufferPointer { h in
                for b in src {
                    for pass in 0..<passes {
                        h[pass * radix + Int((b >> UInt64(pass * digitBits)) & mask)] += 1
                    }
                }
            }
        }
        var bitsOut = [UInt64](repeating: 0, count: n)
        var orderOut = [Int32](repeating: 0, count: n)
        var offsets = [Int](repeating: 0, count: radix)
        for pass in 0..<passes {
            let base = pass * radix
            let shift = UInt64(pass * digitBits)
            // A digit shared by every key moves nothing: skip the pass (common for the high digits
            // of depths of similar magnitude).
            if histogram[base + Int((bits[0] >> shift) & mask)] == n { continue }
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
                                    let d = Int((b >> shift) & mask)
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
