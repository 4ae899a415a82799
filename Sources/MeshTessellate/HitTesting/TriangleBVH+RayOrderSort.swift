import SurfaceKit

extension TriangleBVH {
    /// Sorts `keys[0..<count]` by their bits 32 and up, least significant digit first (stable, so
    /// equal codes keep their order), returning where the result lies: `keys` or `spare`. A pass
    /// whose digit every key shares moves nothing and is skipped.
    ///
    /// The keys are cut into `parts` contiguous parts (`PartRanges.range(_:of:count:)`), each with its
    /// own ``orderCounts`` counters in `counts`, which must hold on entry every digit's count over
    /// the part's keys as they lie in `keys` (``countDigits(_:_:into:passes:)``). A pass hands
    /// each digit's slots out part after part, so part p's keys of a digit land after part p − 1's,
    /// each part scattering its own keys in their order on its own thread: the result is the one
    /// a single part gives, bit for bit. Only the sums of the counters run on one thread.
    static func radixSort(
        _ keys: UnsafeMutablePointer<UInt64>, spare: UnsafeMutablePointer<UInt64>, count: Int,
        counts: UnsafeMutablePointer<Int32>, parts: Int
    ) -> UnsafeMutablePointer<UInt64> {
        let radix = 1 << digitBits
        let mask = UInt64(radix - 1)
        var source = keys, target = spare
        // Whether each part's counters describe the part's keys in `source`: true until a pass
        // moves keys from one part to another, which one part alone never does.
        var countsCurrent = true
        for pass in 0..<digitPasses {
            let shift = UInt64(32 + pass * digitBits)
            // The total of a digit does not depend on where its keys lie.
            let shared = Int((source[0] >> shift) & mask)
            var total = 0
            for part in 0..<parts { total += Int(counts[part * orderCounts + pass * radix + shared]) }
            if total == count { continue }
            if !countsCurrent {
                let (from, all) = (SharedMutableBuffer(base: source), SharedMutableBuffer(base: counts))
                // Each part counts its own keys into its own counters.
                parallelChunks(parts, minimumChunk: 1) { chunk in
                    for part in chunk {
                        countDigits(
                            from.base, PartRanges.range(part, of: parts, count: count), into: all.base + part * orderCounts,
                            passes: pass..<(pass + 1))
                    }
                }
            }
            firstSlots(counts + pass * radix, parts: parts)
            let (from, to, all) = (SharedMutableBuffer(base: source), SharedMutableBuffer(base: target), SharedMutableBuffer(base: counts))
            // Each part reads its own keys and writes the slots its counters hand it, which no
            // other part's do.
            parallelChunks(parts, minimumChunk: 1) { chunk in
                for part in chunk {
                    let digits = all.base + part * orderCounts + pass * radix
                    for i in PartRanges.range(part, of: parts, count: count) {
                        let key = from.base[i]
                        let d = Int((key >> shift) & mask)
                        let slot = Int(digits[d])
                        digits[d] = Int32(truncatingIfNeeded: slot + 1)
                        to.base[slot] = key
                    }
                }
            }
            swap(&source, &target)
            countsCurrent = parts == 1
        }
        return source
    }

    /// Turns the counters of one pass (a digit's count at `counts[part · orderCounts + digit]`
    /// for each part) into each part's first slot of each digit: digit by digit, and within a
    /// digit part by part (`PartRanges.bucketMajorFirsts`, which reads each part's counters in a
    /// row, so the loops over all parts' counters run along memory instead of across it: 3,072
    /// counters a part lie 12 KB apart). This is the only work of the sort on one thread. Slots
    /// are below the keys' count, which is below `Int32.max`.
    static func firstSlots(_ counts: UnsafeMutablePointer<Int32>, parts: Int) {
        _ = PartRanges.bucketMajorFirsts(
            parts: parts, buckets: 1 << digitBits, count: { part, d in Int(counts[part * orderCounts + d]) },
            setFirst: { part, d, slot in counts[part * orderCounts + d] = Int32(truncatingIfNeeded: slot) })
    }

    /// Sets the counters of `passes` in `counts` (a part's ``orderCounts``) to how many of
    /// `keys[range]` have each digit of each of those passes: every pass's counts in one read.
    @inline(__always)
    static func countDigits(
        _ keys: UnsafeMutablePointer<UInt64>, _ range: Range<Int>, into counts: UnsafeMutablePointer<Int32>, passes: Range<Int>
    ) {
        let radix = 1 << digitBits
        let mask = UInt64(radix - 1)
        (counts + passes.lowerBound * radix).initialize(repeating: 0, count: passes.count * radix)
        for i in range {
            let code = keys[i] >> 32
            for pass in passes {
                counts[pass * radix + Int((code >> UInt64(pass * digitBits)) & mask)] += 1
            }
        }
    }
}
