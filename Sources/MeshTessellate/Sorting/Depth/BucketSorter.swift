import SurfaceKit

/// Sorts one bucket: by the low bits of the code (two stable passes), then settles runs of equal
/// codes by key. Buckets under 65,536 items (all but degenerate ones) sort 4-byte tags, the code's
/// low 16 bits above the item's place in the bucket, so the passes move a quarter of the bytes
/// and stay in the L1 cache; settling then reads each item where it lies. Scratch arrays are kept
/// from bucket to bucket.
struct BucketSorter {
    typealias Item = CentroidDepthSort.Item
    private var scratch: [Item]
    private var tags: [UInt32]
    private var counts: [UInt32]
    private var run: [Item] = []
    private var longRuns: [Int] = []

    init(capacity: Int) {
        scratch = capacity >= 1 << 16 ? [Item](repeating: Item(key: 0, tag: 0), count: capacity) : []
        tags = [UInt32](repeating: 0, count: 2 * Swift.min(Swift.max(capacity, 1), 1 << 16))
        counts = [UInt32](repeating: 0, count: 2 << CentroidDepthSort.lowBits)
    }

    /// The low digits: the code's low 16 bits (`2 × CentroidDepthSort.lowBits`) in two 8-bit
    /// passes. Literals, so that the passes shift by a constant wherever they are compiled.
    static let digitBits: UInt32 = 8
    static let digitRadix = 256

    /// Sorts `bucket` (items in triangle order) and writes its triangle indices to `out`.
    ///
    /// Inlined into the loop over the buckets, as it was before the sort was cut into files:
    /// called, its passes were compiled apart from it with the digit width a run-time shift, and
    /// took 25–30% longer (W3's depth order 4% slower in all). The shifts are masking shifts, so
    /// no width needs a range check wherever they are compiled.
    @inline(__always)
    mutating func sort(_ bucket: UnsafeMutableBufferPointer<Item>, into out: UnsafeMutablePointer<Int32>) {
        let m = bucket.count
        if m <= CentroidDepthSort.insertionBucket {
            // Insertion by key: stable, and the codes follow the keys.
            var items = bucket
            items.insertionSort { $0.key < $1.key }
            for i in 0..<m { out[i] = Int32(truncatingIfNeeded: bucket[i].tag) }
            return
        }
        guard m < 1 << 16 else {
            sortLarge(bucket, into: out)
            return
        }
        longRuns.removeAll(keepingCapacity: true)
        tags.withUnsafeMutableBufferPointer { t in
            counts.withUnsafeMutableBufferPointer { c in
                let bits = Self.digitBits, radix = Self.digitRadix, mask = UInt32(Self.digitRadix - 1)
                guard let a = t.baseAddress else { return }
                let b = a + m
                for d in 0..<(2 * radix) { c[d] = 0 }
                for j in 0..<m {
                    let q = UInt32(truncatingIfNeeded: bucket[j].tag >> 32)
                    a[j] = q << 16 | UInt32(truncatingIfNeeded: j)
                    c[Int(q & mask)] &+= 1
                    c[radix + Int(q &>> bits)] &+= 1
                }
                Self.startsFromCounts(c, radix: radix)
                for j in 0..<m {
                    let tag = a[j]
                    let d = Int((tag &>> 16) & mask)
                    let slot = c[d]
                    c[d] = slot &+ 1
                    b[Int(slot)] = tag
                }
                for j in 0..<m {
                    let tag = b[j]
                    let d = radix + Int(tag &>> (16 + bits))
                    let slot = c[d]
                    c[d] = slot &+ 1
                    a[Int(slot)] = tag
                }
                // Settle: one branch-free step per item puts each run of two right (the later item
                // goes first when its key is smaller); runs of three or more are noted.
                var previousCode = a[0] >> 16
                var previous = bucket[Int(a[0] & 0xFFFF)]
                var runLength = 1
                for j in 1..<m {
                    let tag = a[j]
                    let item = bucket[Int(tag & 0xFFFF)]
                    let same = tag >> 16 == previousCode
                    let swap = same && previous.key > item.key
                    out[j - 1] = Int32(truncatingIfNeeded: swap ? item.tag : previous.tag)
                    previous = swap ? previous : item
                    previousCode = tag >> 16
                    runLength = same ? runLength + 1 : 1
                    if runLength == 3 { longRuns.append(j - 2) }
                }
                out[m - 1] = Int32(truncatingIfNeeded: previous.tag)
                for first in longRuns {
                    var end = first + 3
                    while end < m, a[end] >> 16 == a[first] >> 16 { end += 1 }
                    // Places ascend within a run (the passes are stable), so triangle order does.
                    run.removeAll(keepingCapacity: true)
                    for j in first..<end { run.append(bucket[Int(a[j] & 0xFFFF)]) }
                    Self.settleRun(&run)
                    for (i, item) in run.enumerated() { out[first + i] = Int32(truncatingIfNeeded: item.tag) }
                }
            }
        }
    }

    /// Turns the counts of two digits (the low digit's in `c[0..<radix]`, the high digit's in
    /// `c[radix..<2·radix]`) into each bucket's first slot, as the two scatter passes need.
    @inline(__always)
    static func startsFromCounts(_ c: UnsafeMutableBufferPointer<UInt32>, radix: Int) {
        var s0: UInt32 = 0, s1: UInt32 = 0
        for d in 0..<radix {
            let c0 = c[d], c1 = c[radix + d]
            c[d] = s0
            c[radix + d] = s1
            s0 &+= c0
            s1 &+= c1
        }
    }

    /// Sorts a run of items with equal codes, in triangle order, stably by key.
    static func settleRun(_ run: inout [Item]) {
        if run.count <= CentroidDepthSort.insertionRun {
            run.insertionSort { $0.key < $1.key }
        } else {
            // Indices are unique, so (key, index) is a strict total order.
            run.sort { a, b in
                a.key < b.key || (a.key == b.key && UInt32(truncatingIfNeeded: a.tag) < UInt32(truncatingIfNeeded: b.tag))
            }
        }
    }

    /// A bucket of 65,536 items or more (a depth range stretched by outliers): the items
    /// themselves go through the two passes.
    private mutating func sortLarge(_ bucket: UnsafeMutableBufferPointer<Item>, into out: UnsafeMutablePointer<Int32>) {
        let m = bucket.count
        if scratch.count < m { scratch = [Item](repeating: Item(key: 0, tag: 0), count: m) }
        let bits = UInt64(CentroidDepthSort.lowBits)
        let radix = 1 << CentroidDepthSort.lowBits
        let mask = UInt64(radix - 1)
        scratch.withUnsafeMutableBufferPointer { tmp in
            counts.withUnsafeMutableBufferPointer { c in
                for d in 0..<(2 * radix) { c[d] = 0 }
                for item in bucket {
                    let q = item.tag >> 32
                    c[Int(q & mask)] &+= 1
                    c[radix + Int(q &>> bits)] &+= 1
                }
                Self.startsFromCounts(c, radix: radix)
                for item in bucket {
                    let d = Int((item.tag >> 32) & mask)
                    let slot = c[d]
                    c[d] = slot &+ 1
                    tmp[Int(slot)] = item
                }
                for i in 0..<m {
                    let item = tmp[i]
                    let d = radix + Int(item.tag &>> (32 + bits))
                    let slot = c[d]
                    c[d] = slot &+ 1
                    bucket[Int(slot)] = item
                }
            }
        }
        var previous = bucket[0]
        var runStart = 0
        for i in 1...m {
            if i < m, bucket[i].tag >> 32 == previous.tag >> 32 { continue }
            if i - runStart > 1 {
                run.removeAll(keepingCapacity: true)
                run.append(contentsOf: bucket[runStart..<i])
                Self.settleRun(&run)
                for (k, item) in run.enumerated() { bucket[runStart + k] = item }
            }
            if i < m {
                runStart = i
                previous = bucket[i]
            }
        }
        for i in 0..<m { out[i] = Int32(truncatingIfNeeded: bucket[i].tag) }
    }
}
