/// A stable radix sort of Double keys: the `depth` sort of small meshes and degenerate depth ranges
/// (`CentroidDepthSort` sorts the rest), and of the hit tester's ray codes.
///
/// The keys are first sorted by their values rounded to Float (32 bits: three 11-bit passes
/// instead of the six that 64-bit keys take). Rounding to Float never reverses an order, it only
/// merges keys closer than a Float can tell apart; each run of such merged keys is then settled by
/// its Double keys. The result is exactly the stable order of the Double keys.
enum RadixSort {
    /// Order-preserving bits: the key's IEEE pattern with the sign bit flipped for non-negative
    /// numbers and every bit flipped for negative ones, so unsigned order is numeric order.
    /// −0 is first made +0 so that the two zeros, equal as numbers, stay in input order.
    @inline(__always)
    static func orderedBits(_ key: Float) -> UInt32 {
        let bits = (key + 0.0).bitPattern
        return bits >> 31 == 0 ? bits | (1 << 31) : ~bits
    }

    /// Digit width: 11 bits (3 passes for 32-bit keys) keeps each pass's 2,048 counters and write
    /// cursors in the L1 cache; 16-bit digits scatter to 65,536 places and thrash it.
    static let digitBits = 11
    static let passes = 3
    /// Runs of merged keys up to this long are settled by insertion, longer ones by a full sort.
    static let insertionRun = 32

    /// The permutation that sorts `keys` ascending, equal keys in input order. Keys must not be NaN.
    static func stableOrder(_ keys: [Double]) -> [Int32] {
        let coarse = keys.map { orderedBits(Float($0)) }
        var order = stableOrder(bits: coarse)
        let n = keys.count
        keys.withUnsafeBufferPointer { key in
            coarse.withUnsafeBufferPointer { c in
                order.withUnsafeMutableBufferPointer { o in
                    var start = 0
                    while start < n {
                        let value = c[Int(o[start])]
                        var end = start + 1
                        while end < n, c[Int(o[end])] == value { end += 1 }
                        if end - start > 1 { settle(o, start..<end, key) }
                        start = end
                    }
                }
            }
        }
        return order
    }

    /// Sorts `order[range]` (indices in ascending input order) stably by `key`.
    static func settle(_ order: UnsafeMutableBufferPointer<Int32>, _ range: Range<Int>, _ key: UnsafeBufferPointer<Double>) {
        if range.count <= insertionRun {
            for i in (range.lowerBound + 1)..<range.upperBound {
                let moving = order[i]
                let k = key[Int(moving)]
                var j = i
                while j > range.lowerBound, key[Int(order[j - 1])] > k {
                    order[j] = order[j - 1]
                    j -= 1
                }
                order[j] = moving
            }
            return
        }
        // Indices are unique, so (key, index) is a strict total order and the sort is stable.
        var run = Array(order[range])
        run.sort { a, b in
            let ka = key[Int(a)], kb = key[Int(b)]
            return ka < kb || (ka == kb && a < b)
        }
        for (offset, index) in run.enumerated() { order[range.lowerBound + offset] = index }
    }

    /// The stable ascending permutation of 32-bit keys: least-significant digit first.
    static func stableOrder(bits keys: [UInt32]) -> [Int32] {
        let n = keys.count
        var bits = keys
        var order = [Int32](unsafeUninitializedCapacity: n) { buffer, count in
            for i in 0..<n { buffer[i] = Int32(truncatingIfNeeded: i) }
            count = n
        }
        guard n > 1 else { return order }
        let radix = 1 << digitBits
        let mask = UInt32(radix - 1)
        // All histograms in one read of the keys.
        var histogram = [Int](repeating: 0, count: passes * radix)
        bits.withUnsafeBufferPointer { src in
            histogram.withUnsafeMutableBufferPointer { h in
                for b in src {
                    h[Int(b & mask)] += 1
                    h[radix + Int((b >> 11) & mask)] += 1
                    h[2 * radix + Int(b >> 22)] += 1
                }
            }
        }
        var bitsOut = [UInt32](repeating: 0, count: n)
        var orderOut = [Int32](repeating: 0, count: n)
        var offsets = [Int](repeating: 0, count: radix)
        for pass in 0..<passes {
            let base = pass * radix
            let shift = UInt32(pass * digitBits)
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
