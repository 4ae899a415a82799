import SurfaceKit

extension OverlapCandidates {
    /// The runs a → b of the triangles with area (counterclockwise on screen: as listed when the
    /// sign is positive, reversed otherwise) that R's counting sort has to see: all of them less
    /// pairs of runs that cancel (a → b and b → a) found between neighbours in the listing.
    ///
    /// R is every edge whose runs do not add up to zero, so taking out any run together with its
    /// reverse leaves R as it is. A tessellation lists each quad's two triangles one after the other
    /// (triangles 2k and 2k + 1, `Tessellator.triangulate`), the quads of a face row by row: a quad
    /// shares its diagonal with its other triangle, its left side with the quad listed just before
    /// it, and its lower side with the quad a row before it, a fixed number of quads back in every
    /// face. Matching those (`stride`, found by `neighbourStride`) leaves about the faces' borders
    /// and the folds: an eighth of W3's runs, where the counting sort with its scattered writes
    /// was most of R's time. The matching is only an economy: any run may be kept, so a listing
    /// of any other kind gives the same R, at the cost of a sort of more runs.
    ///
    /// A pair of triangles that makes a quad, both with the same sign, as `Tessellator.triangulate`
    /// lists it ((p, q, r) then (p, r, s), or (p, q, s) then (q, r, s)), stands for its four sides
    /// p → q → r → s → p (reversed when the sign is negative): the diagonal's two runs cancel. Its
    /// side s → p cancels against side q → r of the quad listed just before (its left neighbour in
    /// the face's row) and its side p → q against side r → s of the quad `stride` before (the one
    /// below it), when the two have the same sign and those corners are the same vertices (each
    /// side once). Sides that find no partner wait until the quad `stride` later has been looked
    /// at, and are then kept. Any other pair (a fold between its triangles, a
    /// triangle without area, a listing of another kind) has all its runs kept at once. Writes
    /// each run kept to `out` as `a << 32 | b` and returns how many; `out` must hold 3 × the
    /// triangles of `pairs` (triangles 2k and 2k + 1 for k in `pairs`, the last one alone when the
    /// count is odd).
    ///
    /// Matching more generally cost more than it saved: searching the runs waiting for each run's
    /// reverse mispredicted a few times a pair, and comparing all sixteen pairs of two quads'
    /// sides took about 30 cycles a quad; the two side pairs a tessellation's layout implies cost
    /// a few compares.
    static func keptRuns(
        triangles: UnsafeBufferPointer<SIMD3<Int32>>, signs: UnsafeBufferPointer<Int8>, pairs: Range<Int>, stride: Int,
        into out: UnsafeMutableBufferPointer<UInt64>
    ) -> Int {
        keptRuns(triangles: triangles, signs: GivenSigns(signs: signs), pairs: pairs, stride: stride, into: out)
    }

    /// `keptRuns(triangles:signs:pairs:stride:into:)` with the signs from `signs`, asked for once
    /// for each triangle of `pairs` (so a `MadeSigns` makes each of their signs as it goes).
    /// With `blockCounts`, each run kept a → b also adds 1 to `blockCounts[bucket(a, b) >> shift]`
    /// as it is written (R's counting sort counts its runs per block of vertices so, without a
    /// second pass over them).
    @inline(__always)
    static func keptRuns<Signs: TriangleSigns>(
        triangles: UnsafeBufferPointer<SIMD3<Int32>>, signs: Signs, pairs: Range<Int>, stride: Int,
        into out: UnsafeMutableBufferPointer<UInt64>, blockCounts: UnsafeMutablePointer<Int32>? = nil, shift: Int = 0
    ) -> Int {
        guard !pairs.isEmpty, let base = out.baseAddress else { return 0 }
        let vertical = stride > 1
        let ring = vertical ? stride + 1 : 2
        // Plain pointers and a writer struct: captured by closures, the counters were checked
        // for exclusive access at run time on every write.
        var writer = RunWriter(base: base, capacity: out.count, blockCounts: blockCounts, shift: shift)
        let waiting = UnsafeMutablePointer<Quad>.allocate(capacity: ring)
        waiting.initialize(repeating: Quad(), count: ring)
        defer { waiting.deallocate() }
        var slot = 0
        for p in pairs {
            let offset = p - pairs.lowerBound
            let t = 2 * p
            let v = triangles[t], s = signs.sign(t)
            var quad = Quad()
            if t + 1 < triangles.count {
                let w = triangles[t + 1], r = signs.sign(t + 1)
                // (p, q, r) then (p, r, s), or (p, q, s) then (q, r, s), with one sign.
                if s != 0, s == r, v.x == w.x, v.z == w.y {
                    quad = Quad(corners: SIMD4(v.x, v.y, v.z, w.z), sign: s)
                } else if s != 0, s == r, v.y == w.x, v.z == w.z {
                    quad = Quad(corners: SIMD4(v.x, v.y, w.y, v.z), sign: s)
                } else {
                    writer.keepRuns(v, s)
                    writer.keepRuns(w, r)
                }
            } else {
                writer.keepRuns(v, s)
            }
            // The quad `ring` back leaves; the one just before, and the one `stride` before,
            // cancel what they can.
            if offset >= ring { writer.keepSides(waiting[slot]) }
            if quad.sign != 0 {
                // Its side s → p against side q → r of the quad before (the one to its left),
                // and its side p → q against side r → s of the quad `stride` before (below it).
                let left = waiting + (slot == 0 ? ring - 1 : slot - 1), below = waiting + (slot + 1 == ring ? 0 : slot + 1)
                if offset >= 1, left.pointee.sign == quad.sign, left.pointee.alive & 0b0010 != 0,
                    quad.corners.x == left.pointee.corners.y, quad.corners.w == left.pointee.corners.z
                {
                    quad.alive &= 0b0111
                    left.pointee.alive &= 0b1101
                }
                if vertical, offset >= stride, below.pointee.sign == quad.sign, below.pointee.alive & 0b0100 != 0,
                    quad.corners.x == below.pointee.corners.w, quad.corners.y == below.pointee.corners.z
                {
                    quad.alive &= 0b1110
                    below.pointee.alive &= 0b1011
                }
            }
            waiting[slot] = quad
            slot = slot + 1 == ring ? 0 : slot + 1
        }
        for k in 0..<Swift.min(ring, pairs.count) { writer.keepSides(waiting[k]) }
        return writer.count
    }

    /// Writes the runs `keptRuns` keeps, as `a << 32 | b`.
    struct RunWriter {
        let base: UnsafeMutablePointer<UInt64>
        var count = 0

        /// Room for the runs written (3 × the triangles), checked in debug builds.
        let capacity: Int
        /// Each block's count of runs (wrapping adds: at most 3n, below Int32.max), when asked for.
        let blockCounts: UnsafeMutablePointer<Int32>?
        let shift: Int

        init(base: UnsafeMutablePointer<UInt64>, capacity: Int, blockCounts: UnsafeMutablePointer<Int32>? = nil, shift: Int = 0) {
            (self.base, self.capacity, self.blockCounts, self.shift) = (base, capacity, blockCounts, shift)
        }

        @inline(__always)
        mutating func keep(_ a: Int32, _ b: Int32) {
            assert(count < capacity, "keptRuns: more runs than the triangles have")
            base[count] = UInt64(UInt32(bitPattern: a)) << 32 | UInt64(UInt32(bitPattern: b))
            count &+= 1
            if let blockCounts { blockCounts[OverlapCandidates.bucket(a, b) >> shift] &+= 1 }
        }

        /// The runs of triangle v with sign s (none when 0).
        @inline(__always)
        mutating func keepRuns(_ v: SIMD3<Int32>, _ s: Int8) {
            if s > 0 {
                keep(v.x, v.y)
                keep(v.y, v.z)
                keep(v.z, v.x)
            } else if s < 0 {
                keep(v.y, v.x)
                keep(v.z, v.y)
                keep(v.x, v.z)
            }
        }

        /// The sides of `quad` that have not cancelled, run as its sign says.
        @inline(__always)
        mutating func keepSides(_ quad: Quad) {
            guard quad.alive != 0 else { return }
            for k in 0..<4 where quad.alive & (1 << k) != 0 {
                let a = quad.corners[k], b = quad.corners[(k + 1) & 3]
                if quad.sign > 0 { keep(a, b) } else { keep(b, a) }
            }
        }
    }

    /// A quad waiting in `keptRuns`: its corners p, q, r, s, its sign (0 for no quad), and which
    /// of its sides have not cancelled (bit k: the side from corner k to corner k + 1).
    struct Quad {
        var corners = SIMD4<Int32>.zero
        var alive: UInt8 = 0
        var sign: Int8 = 0

        init() {}

        init(corners: SIMD4<Int32>, sign: Int8) {
            self.corners = corners
            self.sign = sign
            alive = 0b1111
        }
    }

    /// How many pairs of triangles lie between a quad and the one a row before it (see
    /// `keptRuns`): the distance, from 2 to 1,024 pairs, at which most of 64 pairs spread over the
    /// listing first find a pair with the reverse of one of their runs; 0 when fewer than a
    /// quarter of them find one (not a tessellation listed row by row).
    static func neighbourStride(triangles: UnsafeBufferPointer<SIMD3<Int32>>, signs: UnsafeBufferPointer<Int8>) -> Int {
        neighbourStride(triangles: triangles, signs: GivenSigns(signs: signs))
    }

    /// `neighbourStride(triangles:signs:)` with the signs from `signs`.
    static func neighbourStride<Signs: TriangleSigns>(triangles: UnsafeBufferPointer<SIMD3<Int32>>, signs: Signs) -> Int {
        let pairCount = (triangles.count + 1) / 2
        let reach = 1_024, samples = 64
        guard pairCount > 2 else { return 0 }
        /// Whether `body` is true for a run of pair p (both triangles; those cancelling between
        /// them too), no array made.
        func anyRun(_ p: Int, _ body: (UInt64) -> Bool) -> Bool {
            for t in 2 * p..<Swift.min(2 * p + 2, triangles.count) {
                let sign = signs.sign(t)
                guard sign != 0 else { continue }
                let v = triangles[t]
                let (from, to) = sign > 0 ? (v, SIMD3(v.y, v.z, v.x)) : (SIMD3(v.y, v.z, v.x), v)
                for k in 0..<3 where from[k] != to[k] {
                    if body(UInt64(UInt32(bitPattern: from[k])) << 32 | UInt64(UInt32(bitPattern: to[k]))) { return true }
                }
            }
            return false
        }
        // The distance at which sample s first finds a reverse, if it does.
        func distance(_ s: Int) -> Int? {
            let p = (pairCount - 1) * s / samples
            var reverses: [UInt64] = []
            _ = anyRun(p) { code in
                reverses.append(reversed(code))
                return false
            }
            let farthest = Swift.min(reach, pairCount - 1 - p)
            guard farthest >= 2 else { return nil }
            return (2...farthest).first { d in anyRun(p + d, { reverses.contains($0) }) }
        }
        // On all cores where the samples' pairs lie apart (each sign is then asked for, and
        // made, by one sample only), the votes counted after in sample order.
        let apart = (pairCount - 1) / samples > reach + 2
        let distances = apart ? parallelParts(samples, distance) : (0..<samples).map(distance)
        var votes: [Int: Int] = [:]
        for d in distances.compactMap({ $0 }) { votes[d, default: 0] += 1 }
        guard let best = votes.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }),
            best.value * 4 >= samples
        else { return 0 }
        return best.key
    }

    /// The run b → a for the run a → b.
    @inline(__always)
    static func reversed(_ code: UInt64) -> UInt64 { code << 32 | code >> 32 }
}
