import SurfaceKit

/// The scatter pass: every key moved into its bucket by the top digit of its code, stably.
extension CentroidDepthSort {
    /// The scatter of all `keys` into `items`, in `parts` parts on all cores, each part from its own
    /// cursors (`bucketStarts`), so the result does not depend on the number of cores.
    static func scatterAll(
        keys: UnsafeBufferPointer<Double>, cursors: inout [Int], into items: UnsafeMutableBufferPointer<Item>, lo: Double,
        scale: Double, parts: Int
    ) {
        let n = keys.count
        let radix = 1 << topBits
        cursors.withUnsafeMutableBufferPointer { cb in
            guard let cBase = cb.baseAddress, let iBase = items.baseAddress, let kBase = keys.baseAddress else { return }
            let cur = SharedMutableBuffer(base: cBase), out = SharedMutableBuffer(base: iBase)
            let ks = UncheckedSendable(kBase)
            parallelChunks(parts, minimumChunk: 1) { chunk in
                for p in chunk {
                    scatter(
                        keys: ks.value, range: partRange(p, of: n, parts: parts), cursors: cur.base + p * radix, into: out.base,
                        lo: lo, scale: scale)
                }
            }
        }
    }

    /// The stable scatter of `keys[range]` into their buckets. Two items at a time: when both go
    /// to the same bucket the second cursor comes from the first (neighbours often share a bucket,
    /// and reading the cursor back would wait for the store just made).
    @inline(__always)
    static func scatter(
        keys: UnsafePointer<Double>, range: Range<Int>, cursors: UnsafeMutablePointer<Int>, into out: UnsafeMutablePointer<Item>,
        lo: Double, scale: Double
    ) {
        let lowShift = UInt64(2 * lowBits)
        let lowMask = UInt64((1 << (2 * lowBits)) - 1)
        var i = range.lowerBound
        while i + 1 < range.upperBound {
            let k0 = keys[i], k1 = keys[i + 1]
            let q0 = code(k0, lo: lo, scale: scale), q1 = code(k1, lo: lo, scale: scale)
            let d0 = Int(q0 >> lowShift), d1 = Int(q1 >> lowShift)
            let s0 = cursors[d0]
            let c1 = cursors[d1]
            let s1 = d0 == d1 ? s0 &+ 1 : c1
            cursors[d0] = s0 &+ 1
            cursors[d1] = s1 &+ 1
            out[s0] = Item(key: k0, tag: (q0 & lowMask) << 32 | UInt64(truncatingIfNeeded: i))
            out[s1] = Item(key: k1, tag: (q1 & lowMask) << 32 | UInt64(truncatingIfNeeded: i &+ 1))
            i &+= 2
        }
        if i < range.upperBound {
            let k0 = keys[i]
            let q0 = code(k0, lo: lo, scale: scale)
            let d0 = Int(q0 >> lowShift)
            let s0 = cursors[d0]
            cursors[d0] = s0 + 1
            out[s0] = Item(key: k0, tag: (q0 & lowMask) << 32 | UInt64(i))
        }
    }
}
