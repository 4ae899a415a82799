import SurfaceKit

extension OverlapCandidates {
    /// R: every edge whose runs do not cancel, once, from its smaller vertex a to b with its net
    /// count (runs a → b minus runs b → a), triangles run counterclockwise on screen. The runs
    /// that neighbours in the listing cancel are taken out first (`keptRuns`); the others are
    /// bucketed by one of their ends (a counting sort, see `bucket`), each bucket sorted by the
    /// other end. nil when there are too many edges for the codes. R holds no edge from a vertex to
    /// itself.
    ///
    /// On all cores, as a parallel counting sort: each part of the triangles finds and counts its
    /// runs per bucket on its own, the offsets then give each part its own stretch of every
    /// bucket, each part fills its stretches, and the buckets are settled by ranges of vertices.
    /// A bucket's codes add up to the same net counts however the triangles are cut (which runs
    /// cancel early, and the order in the bucket, may differ; the bucket is sorted), so R is the
    /// same on any number of cores.
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
        let n = triangles.count
        guard 3 * n < Int(Int32.max), vertexCount < Int(Int32.max) / 2 else { return nil }
        let cores = ProcessInfoCores.count
        // Each part has offsets for every vertex: not for a mesh with far more vertices than
        // triangles use (unused ones cost memory on every part).
        let parts = cores > 1 && n >= SortParallelism.minimumChunk && vertexCount <= 4 * n ? cores : 1
        // Part p's pairs of triangles (2k and 2k + 1), and where its kept runs go (room for all its runs).
        let pairCount = (n + 1) / 2
        @inline(__always) func pairs(_ p: Int) -> Range<Int> { pairCount * p / parts..<pairCount * (p + 1) / parts }
        @inline(__always) func room(_ p: Int) -> Int { 6 * pairs(p).count }
        let stride = neighbourStride(triangles: triangles, signs: signs)
        // Each part's offsets (bucket v's count, then the end of its stretch of bucket v), the
        // codes, and each part's kept runs in one mapping (huge pages; see `SortScratch`), the
        // codes' and runs' room sized for every run (pages past the runs kept are never touched).
        var layout = SortScratch.Layout()
        let offsetsAt = (0..<parts).map { _ in layout.reserve(Int32.self, count: vertexCount + 1) }
        let codesAt = layout.reserve(UInt32.self, count: 3 * n)
        let keptAt = (0..<parts).map { layout.reserve(UInt64.self, count: room($0)) }
        // Nothing need read as zero: each part clears its own offsets below (on its own core; a
        // clear of every part's offsets on the calling thread grew with the cores), and the codes
        // and runs are written before they are read.
        let scratch = SortScratch(bytes: layout.bytes)
        defer { withExtendedLifetime(scratch) {} }
        let offsets = offsetsAt.map { scratch.buffer(of: Int32.self, count: vertexCount + 1, at: $0) }
        let codes = scratch.buffer(of: UInt32.self, count: 3 * n, at: codesAt)
        let keptRoom = (0..<parts).map { scratch.buffer(of: UInt64.self, count: room($0), at: keptAt[$0]) }
        // The runs kept, counted. Wrapping adds: a count is at most 3n, below Int32.max (checked above).
        let keptCounts = parallelParts(parts) { p in
            let count = keptRuns(triangles: triangles, signs: signs, pairs: pairs(p), stride: stride, into: keptRoom[p])
            let counts = offsets[p]
            counts.initialize(repeating: 0)
            for code in keptRoom[p][0..<count] {
                counts[bucket(Int32(truncatingIfNeeded: code >> 32), Int32(truncatingIfNeeded: code))] &+= 1
            }
            return count
        }
        // Bucket v is codes[offsets[0][v]..<offsets[0][v + 1]] once filled, part p's stretch of it
        // ending at offsets[p][v] (filled downward from there).
        var sum: Int32 = 0
        if parts == 1 {
            let counts = offsets[0]
            for v in 0..<vertexCount {
                sum &+= counts[v]
                counts[v] = sum
            }
        } else {
            for v in 0..<vertexCount {
                for p in 0..<parts {
                    sum &+= offsets[p][v]
                    offsets[p][v] = sum
                }
            }
        }
        offsets[0][vertexCount] = sum
        // Fills. Indices are in 0..<vertexCount and slots below 3n (both below Int32.max), so the
        // arithmetic is written without overflow checks. A code is 2 × the other end, + 1 when
        // the run goes from the smaller end to the larger.
        parallelChunks(parts, minimumChunk: 1) { chunk in
            for p in chunk {
                let ends = offsets[p]
                for code in keptRoom[p][0..<keptCounts[p]] {
                    let a = Int32(truncatingIfNeeded: code >> 32), b = Int32(truncatingIfNeeded: code)
                    let home = bucket(a, b), other = UInt32(truncatingIfNeeded: a ^ b ^ Int32(truncatingIfNeeded: home))
                    let next = ends[home] &- 1
                    ends[home] = next
                    codes[Int(next)] = other &<< 1 | (a < b ? 1 : 0)
                }
            }
        }
        // Settles the buckets by ranges of vertices, joined in order.
        let starts = UnsafeBufferPointer(offsets[0])
        let found = parallelParts(parts) { p in
            settle(vertexCount * p / parts..<vertexCount * (p + 1) / parts, starts: starts, codes: codes)
        }
        return parts == 1 ? found[0] : Array(found.joined())
    }

    /// R's edges from the buckets of `vertices` (bucket v is `codes[starts[v]..<starts[v + 1]]`),
    /// each bucket sorted, in bucket order.
    private static func settle(
        _ vertices: Range<Int>, starts: UnsafeBufferPointer<Int32>, codes: UnsafeMutableBufferPointer<UInt32>
    ) -> [(a: Int32, b: Int32, weight: Int32)] {
        var residual: [(a: Int32, b: Int32, weight: Int32)] = []
        for v in vertices {
            let lower = Int(starts[v]), upper = Int(starts[v + 1])
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
