import SurfaceKit

/// The stable radix sort of 32-bit keys on all cores: the exact order's ranking of its candidates
/// by least depth, on all cores like the passes around it.
extension RadixSort {
    /// Keys a part takes at least: below this, waking a thread costs more than the part's work
    /// (W3's 175,000 candidates allow 21 parts, more than 16 cores take, so every core has one).
    static let minimumParallelPart = 8_192
    /// Digits a core takes at least when the parts' cursors are made: each digit is a sum over
    /// the parts.
    static let cursorDigitsTogether = 256

    /// The stable ascending permutation of `keys` (`stableOrder(bits:)`'s result, which is the only
    /// stable order there is, so it does not depend on how the work is cut), in parts on all cores.
    ///
    /// Each of the three 11-bit passes counts its digit in every part of the current order (in
    /// parallel), turns the counts into each part's first slot for every digit (digits ascending,
    /// parts in order within a digit), and scatters the parts in parallel, each from its own
    /// cursors into slots no other part writes. The part's items go to their digits' slots in
    /// their order, and the parts' slots follow the parts' order, so each pass is stable, as the
    /// one-core pass is. A pass whose digit is the same for every key moves nothing and is skipped.
    static func parallelStableOrder(bits keys: [UInt32]) -> [Int32] {
        let n = keys.count
        let parts = Swift.min(ProcessInfoCores.count, n / minimumParallelPart)
        guard parts > 1 else { return stableOrder(bits: keys) }
        let radix = 1 << digitBits
        let mask = UInt32(radix - 1)
        var bits = keys
        var order = [Int32](unsafeUninitializedCapacity: n) { buffer, count in
            for i in 0..<n { buffer[i] = Int32(truncatingIfNeeded: i) }
            count = n
        }
        var bitsOut = [UInt32](repeating: 0, count: n)
        var orderOut = [Int32](repeating: 0, count: n)
        @inline(__always) func range(_ p: Int) -> Range<Int> { PartRanges.range(p, of: parts, count: n) }
        for pass in 0..<passes {
            let shift = UInt32(pass * digitBits)
            // Each part's count of every digit, in the current order.
            let counts: [[Int]] = bits.withUnsafeBufferPointer { src in
                parallelParts(parts) { p in
                    var count = [Int](repeating: 0, count: radix)
                    for i in range(p) { count[Int((src[i] >> shift) & mask)] += 1 }
                    return count
                }
            }
            let first = Int((bits[0] >> shift) & mask)
            if counts.reduce(0, { $0 + $1[first] }) == n { continue }
            // Part p's first slot for digit d: the keys of smaller digits, then those of digit d
            // in the parts before p. Each digit's total over the parts, and then each part's
            // cursors from the digits' running sums, on all cores; the running sum of the
            // 2,048 totals on one thread, so the serial work does not grow with the parts.
            var cursors = [Int](repeating: 0, count: parts * radix)
            cursors.withUnsafeMutableBufferPointer { cur in
                guard let cBase = cur.baseAddress else { return }
                let cursor = SharedMutableBuffer(base: cBase)
                _ = PartRanges.bucketMajorFirsts(
                    parts: parts, buckets: radix, minimumChunk: cursorDigitsTogether, count: { p, d in counts[p][d] },
                    setFirst: { p, d, slot in cursor.base[p * radix + d] = slot })
            }
            bits.withUnsafeBufferPointer { src in
                order.withUnsafeBufferPointer { srcOrder in
                    bitsOut.withUnsafeMutableBufferPointer { dst in
                        orderOut.withUnsafeMutableBufferPointer { dstOrder in
                            cursors.withUnsafeMutableBufferPointer { cur in
                                guard let dBase = dst.baseAddress, let oBase = dstOrder.baseAddress, let cBase = cur.baseAddress else {
                                    return
                                }
                                let outBits = SharedMutableBuffer(base: dBase), outOrder = SharedMutableBuffer(base: oBase)
                                let cursor = SharedMutableBuffer(base: cBase)
                                parallelChunks(parts, minimumChunk: 1) { chunk in
                                    for p in chunk {
                                        let off = cursor.base + p * radix
                                        for i in range(p) {
                                            let b = src[i]
                                            let d = Int((b >> shift) & mask)
                                            let slot = off[d]
                                            off[d] = slot &+ 1
                                            outBits.base[slot] = b
                                            outOrder.base[slot] = srcOrder[i]
                                        }
                                    }
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
