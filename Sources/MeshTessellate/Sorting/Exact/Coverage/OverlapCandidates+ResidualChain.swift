import SurfaceKit

extension OverlapCandidates {
    /// R: every edge whose runs do not cancel, once, from its smaller vertex a to b with its net
    /// count (runs a → b minus runs b → a), triangles run counterclockwise on screen. The runs
    /// that neighbours in the listing cancel are taken out first (`keptRuns`); the others are
    /// bucketed by one of their ends (a counting sort, see `bucket`), each bucket sorted by the
    /// other end. nil when there are too many edges for the codes. R holds no edge from a vertex to
    /// itself.
    ///
    /// On all cores, as a parallel counting sort in two levels: each part of the triangles finds
    /// its runs and moves them into blocks of vertices, and each block is sorted by bucket and
    /// settled on its own (see `residualChain(vertexCount:triangles:signs:parts:)`). A bucket's
    /// codes add up to the same net counts however the triangles are cut (which runs cancel
    /// early, and the order in the bucket, may differ; the bucket is sorted), so R is the same on
    /// any number of cores.
    static func residualChain(
        vertexCount: Int, triangles: UnsafeBufferPointer<SIMD3<Int32>>, signs: UnsafeBufferPointer<Int8>
    ) -> [(a: Int32, b: Int32, weight: Int32)]? {
        residualChain(vertexCount: vertexCount, triangles: triangles, signs: GivenSigns(signs: signs))
    }

    /// The screen signs (`ScreenOrientation.checkedSigns`, with the same marks in `uncertain`) and
    /// R, in one pass over the triangles: R's runs need every triangle's sign once, so they are
    /// made there (`MadeSigns`) instead of in a pass of their own, which read every triangle and
    /// its corners a second time (a tenth of the exact order on W3). The same signs and R as the
    /// two passes. Nil when a triangle names a vertex `screen` does not have (`outOfRange`), or
    /// when `residualChain` gives nil (then no sign was made: the caller checks its bounds first).
    static func signsAndResidualChain(
        screen: UnsafeBufferPointer<Point3D>, triangles: UnsafeBufferPointer<SIMD3<Int32>>, uncertain: UnsafeMutableBufferPointer<UInt8>,
        outOfRange: inout Bool
    ) -> (signs: [Int8], residual: [(a: Int32, b: Int32, weight: Int32)])? {
        let n = triangles.count
        var residual: [(a: Int32, b: Int32, weight: Int32)]? = nil
        let check = IndexCheck()
        // Every sign is written by `keptRuns` (each pair's triangles, the last one alone), once
        // `residualChain` gets past its bounds; otherwise the array is thrown away below.
        let signs = [Int8](unsafeUninitializedCapacity: n) { buffer, initialized in
            initialized = n
            guard let base = buffer.baseAddress else { return }
            let made = MadeSigns(
                screen: screen, triangles: triangles, out: SharedMutableBuffer(base: base), uncertain: uncertain.baseAddress,
                bound: UInt32(clamping: screen.count), check: check)
            residual = residualChain(vertexCount: screen.count, triangles: triangles, signs: made)
        }
        guard !check.outOfRange.load(ordering: .relaxed) else {
            outOfRange = true
            return nil
        }
        return residual.map { (signs, $0) }
    }

    /// `residualChain(vertexCount:triangles:signs:)` with the signs from `signs`, asked for once
    /// for every triangle (and again for a few sampled ones) when it gets past its bounds.
    static func residualChain<Signs: TriangleSigns>(
        vertexCount: Int, triangles: UnsafeBufferPointer<SIMD3<Int32>>, signs: Signs
    ) -> [(a: Int32, b: Int32, weight: Int32)]? {
        let cores = ProcessInfoCores.count
        let parts = cores > 1 && triangles.count >= SortParallelism.minimumChunk ? Swift.min(cores, maximumRunParts) : 1
        return residualChain(vertexCount: vertexCount, triangles: triangles, signs: signs, parts: parts)
    }

    /// `residualChain(vertexCount:triangles:signs:)` with the triangles cut into `parts` parts
    /// (at least 1), whatever the cores: R is the same for any number of parts.
    ///
    /// A two-level counting sort whose memory does not grow with the parts: each part keeps its
    /// runs and counts them per block of vertices (`residualBlockShift`: a few hundred blocks);
    /// the sums of those counts (blocks × parts, a few thousand) give each part its stretch of
    /// every block, each part moves its runs there, and then each block, on its own core, sorts
    /// its runs by bucket with counters for its own vertices alone (in the L1 cache) and settles
    /// its buckets. No table has a counter per vertex for every part (2.5 MB a part on W3), so
    /// memory and the serial sums do not grow with the cores.
    static func residualChain<Signs: TriangleSigns>(
        vertexCount: Int, triangles: UnsafeBufferPointer<SIMD3<Int32>>, signs: Signs, parts requested: Int
    ) -> [(a: Int32, b: Int32, weight: Int32)]? {
        let n = triangles.count
        guard 3 * n < Int(Int32.max), vertexCount < Int(Int32.max) / 2 else { return nil }
        let parts = Swift.max(1, Swift.min(requested, (n + 1) / 2))
        // Part p's pairs of triangles (2k and 2k + 1), and where its kept runs go (room for all its runs).
        let pairCount = (n + 1) / 2
        @inline(__always) func pairs(_ p: Int) -> Range<Int> { PartRanges.range(p, of: parts, count: pairCount) }
        @inline(__always) func room(_ p: Int) -> Int { 6 * pairs(p).count }
        let stride = neighbourStride(triangles: triangles, signs: signs)
        // Blocks of 2^shift vertices; block k holds the buckets of vertices k << shift up to the
        // next block's first.
        let shift = residualBlockShift(vertexCount: vertexCount)
        let blocks = Swift.max(1, (vertexCount + (1 << shift) - 1) >> shift)
        // Each part's kept runs, the runs by block, the codes by bucket and the blocks' counters
        // in one mapping (huge pages; see `SortScratch`), sized for every run (pages past the runs
        // kept are never touched). Nothing need read as zero: each block clears its own counters
        // (on its own core), and the rest is written before it is read.
        var layout = SortScratch.Layout()
        let keptAt = (0..<parts).map { layout.reserve(UInt64.self, count: room($0)) }
        let byBlockAt = layout.reserve(UInt64.self, count: 3 * n)
        let codesAt = layout.reserve(UInt32.self, count: 3 * n)
        let countersAt = layout.reserve(Int32.self, count: blocks * ((1 << shift) + 1))
        let scratch = SortScratch(bytes: layout.bytes)
        defer { withExtendedLifetime(scratch) {} }
        let keptRoom = (0..<parts).map { scratch.buffer(of: UInt64.self, count: room($0), at: keptAt[$0]) }
        let byBlock = scratch.buffer(of: UInt64.self, count: 3 * n, at: byBlockAt)
        let codes = scratch.buffer(of: UInt32.self, count: 3 * n, at: codesAt)
        let counters = scratch.buffer(of: Int32.self, count: blocks * ((1 << shift) + 1), at: countersAt)
        // The runs kept, and each part's count of them in every block (part p's at p × blocks).
        // Wrapping adds: a count is at most 3n, below Int32.max (checked above).
        var stretch = [Int32](repeating: 0, count: parts * blocks)
        let keptCounts = stretch.withUnsafeMutableBufferPointer { stretch in
            // Each part counts its runs into its own row of counts as it keeps them.
            parallelParts(parts) { p in
                keptRuns(
                    triangles: triangles, signs: signs, pairs: pairs(p), stride: stride, into: keptRoom[p],
                    blockCounts: stretch.baseAddress.map { $0 + p * blocks }, shift: shift)
            }
        }
        // Block k is byBlock[blockStart[k]..<blockStart[k + 1]], part p's stretch of it starting
        // at stretch[p × blocks + k]: blocks × parts sums, on one thread (every place is below
        // 3n, so within Int32).
        let blockStart = stretch.withUnsafeMutableBufferPointer { stretch in
            PartRanges.bucketMajorFirsts(
                parts: parts, buckets: blocks, count: { p, k in Int(stretch[p * blocks + k]) },
                setFirst: { p, k, place in stretch[p * blocks + k] = Int32(truncatingIfNeeded: place) })
        }
        // Each part moves its runs to its stretches, in its own cursors.
        stretch.withUnsafeMutableBufferPointer { stretch in
            guard let cursorBase = stretch.baseAddress else { return }
            let cursors = SharedMutableBuffer(base: cursorBase)
            parallelChunks(parts, minimumChunk: 1) { chunk in
                for p in chunk {
                    let cursor = cursors.base + p * blocks
                    for code in keptRoom[p][0..<keptCounts[p]] {
                        let k = bucket(Int32(truncatingIfNeeded: code >> 32), Int32(truncatingIfNeeded: code)) >> shift
                        let slot = cursor[k]
                        cursor[k] = slot &+ 1
                        byBlock[Int(slot)] = code
                    }
                }
            }
        }
        // Each block sorted by bucket and settled on its own, the blocks' edges joined in order.
        let found = parallelParts(blocks) { k -> [(a: Int32, b: Int32, weight: Int32)] in
            let runs = blockStart[k]..<blockStart[k + 1]
            guard !runs.isEmpty else { return [] }
            let first = k << shift, vertices = first..<Swift.min(vertexCount, (k + 1) << shift)
            let starts = UnsafeMutableBufferPointer(
                rebasing: counters[k * ((1 << shift) + 1)..<k * ((1 << shift) + 1) + vertices.count + 1])
            sortByBucket(byBlock, runs: runs, firstVertex: first, starts: starts, into: codes)
            return settle(vertices, starts: UnsafeBufferPointer(starts), codes: codes)
        }
        return blocks == 1 ? found[0] : Array(found.joined())
    }

    /// The most parts R's runs are found in: each part's runs wait for the quad a row before its
    /// own (`keptRuns`), so each cut keeps a row of sides that one pass would have cancelled.
    static let maximumRunParts = 64

    /// log2 of the vertices a block of R's buckets spans: at least 2^12 (16 KB of counters, in the
    /// L1 cache while the block is sorted), more where the vertices would make more than
    /// `residualBlocksAtMost` blocks (each part moves its runs into every block at once, one
    /// write stream a block).
    static func residualBlockShift(vertexCount: Int) -> Int {
        var shift = 12
        while vertexCount >> shift > residualBlocksAtMost { shift += 1 }
        return shift
    }

    /// Blocks of R's buckets at most, and so write streams of a part moving its runs.
    static let residualBlocksAtMost = 256

    /// Sorts the runs `byBlock[runs]` (all with a bucket in the block of `starts.count − 1` vertices
    /// from `firstVertex`) by bucket into `codes[runs]`, by counting: afterwards bucket v is
    /// `codes[starts[v − firstVertex]..<starts[v − firstVertex + 1]]`. A code is 2 × the other
    /// end, + 1 when the run goes from the smaller end to the larger. Indices are in the block and
    /// slots below 3n (both below Int32.max), so the arithmetic is written without overflow checks.
    private static func sortByBucket(
        _ byBlock: UnsafeMutableBufferPointer<UInt64>, runs: Range<Int>, firstVertex: Int, starts: UnsafeMutableBufferPointer<Int32>,
        into codes: UnsafeMutableBufferPointer<UInt32>
    ) {
        starts.initialize(repeating: 0)
        for i in runs {
            let code = byBlock[i]
            starts[bucket(Int32(truncatingIfNeeded: code >> 32), Int32(truncatingIfNeeded: code)) &- firstVertex] &+= 1
        }
        // Each bucket's end, then filled downward from there, so each ends at its start.
        var end = Int32(truncatingIfNeeded: runs.lowerBound)
        for v in 0..<starts.count {
            end &+= starts[v]
            starts[v] = end
        }
        for i in runs {
            let code = byBlock[i]
            let a = Int32(truncatingIfNeeded: code >> 32), b = Int32(truncatingIfNeeded: code)
            let home = bucket(a, b), other = UInt32(truncatingIfNeeded: a ^ b ^ Int32(truncatingIfNeeded: home))
            let next = starts[home &- firstVertex] &- 1
            starts[home &- firstVertex] = next
            codes[Int(next)] = other &<< 1 | (a < b ? 1 : 0)
        }
    }

    /// R's edges from the buckets of `vertices` (bucket v is
    /// `codes[starts[v − first]..<starts[v − first + 1]]`, first the lowest of `vertices`), each
    /// bucket sorted, in bucket order.
    private static func settle(
        _ vertices: Range<Int>, starts: UnsafeBufferPointer<Int32>, codes: UnsafeMutableBufferPointer<UInt32>
    ) -> [(a: Int32, b: Int32, weight: Int32)] {
        var residual: [(a: Int32, b: Int32, weight: Int32)] = []
        for v in vertices {
            let lower = Int(starts[v - vertices.lowerBound]), upper = Int(starts[v - vertices.lowerBound + 1])
            guard upper > lower else { continue }
            // A sorting network for the few edges at a mesh vertex, insertion up to 32, a full
            // sort where a soup piles many edges on one vertex (insertion would be quadratic there).
            if upper - lower <= 4 {
                sortFour(codes, from: lower, count: upper - lower)
            } else if upper - lower <= 8 {
                sortEight(codes, from: lower, count: upper - lower)
            } else if upper - lower > 32 {
                codes[lower..<upper].sort()
            } else {
                var i = lower + 1
                while i < upper {
                    let moving = codes[i]
                    var j = i
                    while j > lower, codes[j - 1] > moving {
                        codes[j] = codes[j - 1]
                        j -= 1
                    }
                    codes[j] = moving
                    i += 1
                }
            }
            var i = lower
            while i < upper {
                let code = codes[i]
                let other = code >> 1
                // Most edges are run once each way: two codes that differ in the last bit only.
                if code & 1 == 0, i + 1 < upper, codes[i + 1] == code | 1, i + 2 == upper || codes[i + 2] >> 1 != other {
                    i += 2
                    continue
                }
                var net: Int32 = 0
                while i < upper, codes[i] >> 1 == other {
                    net += codes[i] & 1 == 1 ? 1 : -1
                    i += 1
                }
                // A run from a vertex to itself bounds nothing (its triangle has no area: sign 0 from
                // `ScreenOrientation.signs`; `SortTopology` leaves such sides out too).
                if net != 0, Int(other) != v { residual.append((min(Int32(v), Int32(other)), max(Int32(v), Int32(other)), net)) }
            }
        }
        return residual
    }

    /// The bucket of the edge between vertices a and b: the smaller end when the two indices have
    /// the same parity, the larger otherwise. Either end would do (both runs of an edge must meet
    /// in one bucket); splitting by parity gives each vertex about half its edges, so a bucket
    /// holds about six codes wherever the mesh numbers its vertices (with the smaller end always,
    /// a vertex numbered before all its neighbours gets every edge, twelve codes or more).
    @inline(__always)
    static func bucket(_ a: Int32, _ b: Int32) -> Int {
        Int((a ^ b) & 1 == 0 ? min(a, b) : max(a, b))
    }

    /// The compare-exchange of the sorting networks below: the smaller into `a`, the larger into
    /// `b`, with min and max (no branch on the data).
    @inline(__always)
    private static func exchange(_ a: inout UInt32, _ b: inout UInt32) {
        let low = min(a, b)
        b = max(a, b)
        a = low
    }

    /// Sorts `codes[lower..<lower + count]` (count at most 4) by a sorting network of 5
    /// compare-exchanges, padded with UInt32.max: the common bucket once the quads' diagonals are
    /// left out (about four codes).
    @inline(__always)
    private static func sortFour(_ codes: UnsafeMutableBufferPointer<UInt32>, from lower: Int, count: Int) {
        var c0 = count > 0 ? codes[lower] : .max, c1 = count > 1 ? codes[lower + 1] : .max
        var c2 = count > 2 ? codes[lower + 2] : .max, c3 = count > 3 ? codes[lower + 3] : .max
        exchange(&c0, &c1)
        exchange(&c2, &c3)
        exchange(&c0, &c2)
        exchange(&c1, &c3)
        exchange(&c1, &c2)
        if count > 0 { codes[lower] = c0 }
        if count > 1 { codes[lower + 1] = c1 }
        if count > 2 { codes[lower + 2] = c2 }
        if count > 3 { codes[lower + 3] = c3 }
    }

    /// Sorts `codes[lower..<lower + count]` (count at most 8) by a sorting network of 19
    /// compare-exchanges (min and max, no branches on the data), padded with UInt32.max: a mesh
    /// vertex's bucket holds about six codes, and insertion sort mispredicts on most of them.
    @inline(__always)
    private static func sortEight(_ codes: UnsafeMutableBufferPointer<UInt32>, from lower: Int, count: Int) {
        var c0 = count > 0 ? codes[lower] : .max, c1 = count > 1 ? codes[lower + 1] : .max
        var c2 = count > 2 ? codes[lower + 2] : .max, c3 = count > 3 ? codes[lower + 3] : .max
        var c4 = count > 4 ? codes[lower + 4] : .max, c5 = count > 5 ? codes[lower + 5] : .max
        var c6 = count > 6 ? codes[lower + 6] : .max, c7 = count > 7 ? codes[lower + 7] : .max
        exchange(&c0, &c2)
        exchange(&c1, &c3)
        exchange(&c4, &c6)
        exchange(&c5, &c7)
        exchange(&c0, &c4)
        exchange(&c1, &c5)
        exchange(&c2, &c6)
        exchange(&c3, &c7)
        exchange(&c0, &c1)
        exchange(&c2, &c3)
        exchange(&c4, &c5)
        exchange(&c6, &c7)
        exchange(&c2, &c4)
        exchange(&c3, &c5)
        exchange(&c1, &c4)
        exchange(&c3, &c6)
        exchange(&c1, &c2)
        exchange(&c3, &c4)
        exchange(&c5, &c6)
        if count > 0 { codes[lower] = c0 }
        if count > 1 { codes[lower + 1] = c1 }
        if count > 2 { codes[lower + 2] = c2 }
        if count > 3 { codes[lower + 3] = c3 }
        if count > 4 { codes[lower + 4] = c4 }
        if count > 5 { codes[lower + 5] = c5 }
        if count > 6 { codes[lower + 6] = c6 }
        if count > 7 { codes[lower + 7] = c7 }
    }
}
