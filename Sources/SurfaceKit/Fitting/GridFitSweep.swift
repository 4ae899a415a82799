/// The right-hand sides, the tensor solve and the new control points of a grid fit in one pass
/// per band of rows, all five coordinates together, or, when more threads run than there are
/// bands, one pass per band and coordinate (``PlaneSharing``).
///
/// A band walks down its rows as ``TensorSweep`` does, with the same bands, blocks of eight
/// rows, backward windows and truncated starts, and the same arithmetic, so it finds the same
/// values. What differs is where the rows come from and go: each block's right-hand sides
/// Tᵢ · (S W)ᵢ are made from the targets and the vertex weights straight into the band's ring of
/// rows (one ring per coordinate), each row is solved in the ring, and each finished row is divided
/// by its weights straight into the output vertices. The five planes of right-hand sides and
/// solutions are never laid out in memory: the targets are read once and the vertices written
/// once, where the separate passes wrote and read 40 MB of planes three times on a 1001² grid.
///
/// The bands are fixed by the grid (3 on a 1001² grid), so that the result never depends on the
/// threads; a coordinate a piece gives five times as many independent pieces of the same work,
/// with the same bits, for the many threads the bands alone would leave idle.
struct GridFitSweep {
    let sweep: TensorSweep

    /// What a band found: whether every target number it read is finite, and its first vertex
    /// (in grid order) whose control point is not.
    struct Verdict {
        var targetsFinite = true
        var firstNonFinite: Int?

        /// The verdicts of parts taken in grid order, as one pass over them all would find.
        init(combining parts: [Verdict]) {
            for v in parts {
                targetsFinite = targetsFinite && v.targetsFinite
                if firstNonFinite == nil { firstNonFinite = v.firstNonFinite }
            }
        }

        init() {}
    }

    /// How a band's five coordinates are handed to threads. Each coordinate's right-hand sides,
    /// solve and control points use only that coordinate's numbers (and the weights), in the
    /// same operations whichever way they are grouped, so both give the same bits; what differs
    /// is how many independent pieces there are and how much is read twice.
    enum PlaneSharing: Sendable {
        /// One piece a band, all five coordinates together, the targets read once and the
        /// vertices written once (the fewest operations).
        case together
        /// Five pieces a band, one a coordinate, each reading the targets' rows for its
        /// coordinate and writing its rows of control points at the front of the rows' own vertex
        /// memory; a last pass over rows then lays them out as vertices (``interleave``). For a
        /// row-major grid only (its rows are the output's rows).
        case apart

        /// The work of a band's five coordinates in a piece each over their work together: each
        /// piece reads every target's memory for its one number, and the weight sums and the
        /// vertices take passes of their own (about 1.7 × on one thread on the 1001² grid; taken
        /// higher, as the extra reading shares the memory's bandwidth when many threads run).
        static let apartWork = 2.0

        /// Apart when the pieces of a coordinate each would finish sooner on `threads` threads,
        /// counted in rounds of pieces, than the bands alone: on the 1001² grid (3 bands) from 8
        /// threads. Only for a row-major grid large enough to run in parallel (`values` in its
        /// five planes).
        static func forThreads(_ threads: Int, bands: Int, values: Int, rowMajor: Bool) -> PlaneSharing {
            guard threads > 1, rowMajor, values >= TensorSweep.parallelValues, GridFitSweep.componentOffsets != nil else {
                return .together
            }
            let coordinates = FitPlanes.componentCount
            let together = Double((bands + threads - 1) / threads)
            let apart = apartWork * Double((coordinates * bands + threads - 1) / threads) / Double(coordinates)
            return apart < together ? .apart : .together
        }
    }

    /// Fits the grid: `targets` in the mesh's order, `weights` in grid order, and `output`
    /// (the mesh's vertex count, uninitialized) receives every control point, each at its own
    /// vertex (`vertexAt` maps grid positions to the mesh's vertices; `nil` for row-major).
    /// `sharing` (by default chosen from the threads) changes which pieces run, never the result.
    func run(
        targets: UnsafePointer<MeshVertex>, weights: UnsafePointer<Double>, vertexAt: UnsafePointer<Int>?,
        output: UnsafeMutablePointer<MeshVertex>, sharing: PlaneSharing? = nil
    ) -> Verdict {
        let bands = TensorSweep.bandCount(rows: sweep.rows)
        let values = FitPlanes.componentCount * sweep.rows * sweep.columns
        var sharing = sharing ?? .forThreads(ProcessInfoCores.count, bands: bands, values: values, rowMajor: vertexAt == nil)
        if vertexAt != nil { sharing = .together }
        guard sharing == .apart, let offsets = GridFitSweep.componentOffsets else {
            return runBands(bands, groups: [0..<FitPlanes.componentCount], makesWeightSums: true) { b, scratch in
                solveBand(b, of: bands, targets: targets, weights: weights, into: .vertices(output, vertexAt: vertexAt), scratch: scratch)
            }
        }
        // The vertex memory as Doubles until ``interleave(_:)`` lays the rows out as vertices.
        let doubles = GridFitSweep.vertexDoubles * sweep.rows * sweep.columns
        let fronts = UnsafeMutableRawPointer(output).bindMemory(to: Double.self, capacity: doubles)
        weightSums(weights, into: fronts)
        let solved = runBands(bands, groups: (0..<FitPlanes.componentCount).map { $0..<($0 + 1) }, makesWeightSums: false) { b, scratch in
            let offset = offsets[scratch.planes.lowerBound]
            return solveBand(
                b, of: bands, targets: targets, weights: weights, into: .rowFronts(fronts, targetOffset: offset), scratch: scratch)
        }
        var verdict = interleave(fronts)
        verdict.targetsFinite = solved.targetsFinite
        return verdict
    }

    /// Runs `band` for every band and group of planes, in parallel when the grid is large enough,
    /// each piece with working memory of its own, and combines the verdicts in grid order.
    private func runBands(
        _ bands: Int, groups: [Range<Int>], makesWeightSums: Bool, _ band: @escaping (Int, FitSweepScratch) -> Verdict
    ) -> Verdict {
        let pieces = bands * groups.count
        let verdicts = [Verdict](unsafeUninitializedCapacity: pieces) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            let found = SharedMutableBuffer(base: base), solve = UncheckedSendable(band)
            let body = { (range: Range<Int>) in
                for piece in range {
                    // Piece order: every band of the first group, then of the next.
                    let b = piece % bands, planes = groups[piece / bands]
                    let scratch = FitSweepScratch(
                        columns: self.sweep.columns, ringRows: self.ringRows, planes: planes, makesWeightSums: makesWeightSums)
                    defer { scratch.deallocate() }
                    (found.base + piece).initialize(to: solve.value(b, scratch))
                }
            }
            if pieces > 1, FitPlanes.componentCount * sweep.rows * sweep.columns >= TensorSweep.parallelValues {
                parallelChunks(pieces, minimumChunk: 1, body)
            } else {
                body(0..<pieces)
            }
            initialized = pieces
        }
        // Within a group the bands are in grid order; a vertex's first group to find it not
        // finite is enough (only ``PlaneSharing/together`` reports one here).
        return Verdict(combining: verdicts)
    }

    /// The byte offset in a ``MeshVertex`` of each coordinate (from.x, from.y, to.x, to.y, to.z),
    /// or `nil` where the layout does not hold five `Double`s in two contiguous vectors, or a
    /// vertex's memory holds fewer than six (``PlaneSharing/apart`` keeps six rows of values in
    /// each grid row's vertex memory).
    static let componentOffsets: [Int]? = {
        guard let from = MemoryLayout<MeshVertex>.offset(of: \.from), let to = MemoryLayout<MeshVertex>.offset(of: \.to),
            MemoryLayout<MeshVertex>.stride % MemoryLayout<Double>.stride == 0, vertexDoubles > weightSumsPart
        else { return nil }
        let d = MemoryLayout<Double>.stride
        return [from, from + d, to, to + d, to + 2 * d]
    }()

    /// `Double`s in one vertex's memory (6: from, to and the padding of the three-vector).
    static let vertexDoubles = MemoryLayout<MeshVertex>.stride / MemoryLayout<Double>.stride

    /// The part of a row's vertex memory that holds its weight sums; parts 0–4 hold the five
    /// coordinates' control points.
    static let weightSumsPart = FitPlanes.componentCount

    /// Part `p` (C `Double`s) of grid row r's vertex memory, seen as `vertexDoubles` rows of C.
    @inline(__always)
    static func part(_ p: Int, ofRow r: Int, columns nc: Int, in fronts: UnsafeMutablePointer<Double>) -> UnsafeMutablePointer<Double> {
        fronts + (r * vertexDoubles + p) * nc
    }

    /// The weight sums (S W)ᵣ of every row into part ``weightSumsPart`` of its vertex memory, in
    /// parallel pieces of rows (the same values as the bands' own, ``WeightSumRows``).
    private func weightSums(_ weights: UnsafePointer<Double>, into fronts: UnsafeMutablePointer<Double>) {
        let nr = sweep.rows, nc = sweep.columns, into = SharedMutableBuffer(base: fronts), w = UncheckedSendable(weights)
        parallelChunks(GridFitSweep.rowPieces(rows: nr), minimumChunk: 1) { range in
            let masks = UnsafeMutablePointer<Double>.allocate(capacity: WeightSumRows.maskRows * nc)
            defer { masks.deallocate() }
            for piece in range {
                var sums = WeightSumRows(weights: w.value, rows: nr, columns: nc, masks: masks)
                let rows = GridFitSweep.rows(ofPiece: piece, rows: nr)
                for r in rows {
                    let out = GridFitSweep.part(GridFitSweep.weightSumsPart, ofRow: r, columns: nc, in: into.base)
                    let row = sums.row(r, startsHere: r == rows.lowerBound, interior: out)
                    if row != UnsafePointer(out) { out.update(from: row, count: nc) }
                }
            }
        }
    }

    /// Rows a piece of the passes over rows (weight sums, vertices) takes: about 770 KB of vertex
    /// memory on a 1001-column grid, long enough to pay for handing it to a thread, and 63 pieces
    /// on a 1001-row grid, enough to keep 16 threads even.
    static let interleaveRows = 16

    /// How many pieces the passes over a grid of `rows` rows take: ``interleaveRows`` rows each,
    /// the last fewer.
    static func rowPieces(rows: Int) -> Int { (rows + interleaveRows - 1) / interleaveRows }

    /// The grid rows (of `rows`) of piece `piece` of the passes over rows.
    static func rows(ofPiece piece: Int, rows: Int) -> Range<Int> {
        (piece * interleaveRows)..<Swift.min(rows, (piece + 1) * interleaveRows)
    }

    /// Lays out the control points that ``PlaneSharing/apart`` left in parts 0–4 of each row's
    /// vertex memory as the row's vertices, and finds the first vertex in grid order that is not
    /// finite. Rows are independent: each row's values are copied aside before its vertices are
    /// written over them.
    private func interleave(_ fronts: UnsafeMutablePointer<Double>) -> Verdict {
        let nr = sweep.rows, nc = sweep.columns, planes = FitPlanes.componentCount
        let into = SharedMutableBuffer(base: fronts)
        let found = parallelParts(GridFitSweep.rowPieces(rows: nr)) { piece -> Verdict in
            var verdict = Verdict()
            let aside = UnsafeMutablePointer<Double>.allocate(capacity: planes * nc)
            defer { aside.deallocate() }
            for r in GridFitSweep.rows(ofPiece: piece, rows: nr) {
                let row = GridFitSweep.part(0, ofRow: r, columns: nc, in: into.base)
                aside.update(from: row, count: planes * nc)
                let out = UnsafeMutableRawPointer(row).bindMemory(to: MeshVertex.self, capacity: nc)
                let x0 = aside, x1 = aside + nc, x2 = aside + 2 * nc, x3 = aside + 3 * nc, x4 = aside + 4 * nc
                var check = SIMD2<Double>()
                for c in 0..<nc {
                    let v = MeshVertex(from: LayerPoint(x0[c], x1[c]), to: Point3D(x2[c], x3[c], x4[c]))
                    check += v.from - v.from
                    check.x += (v.to - v.to).sum()
                    (out + c).initialize(to: v)
                }
                guard verdict.firstNonFinite == nil, check.sum() != 0 else { continue }
                // Rare: find the row's first control point that is not finite.
                if let c = (0..<nc).first(where: { !GridFitSweep.isFinite(out[$0]) }) { verdict.firstNonFinite = r * nc + c }
            }
            return verdict
        }
        return Verdict(combining: found)
    }

    /// Whether all five coordinates of `v` are finite.
    static func isFinite(_ v: MeshVertex) -> Bool {
        v.from.x.isFinite && v.from.y.isFinite && v.to.x.isFinite && v.to.y.isFinite && v.to.z.isFinite
    }

    private var halo: Int { Swift.min(sweep.across.truncationRows, sweep.rows) }

    /// The ring's rows: a backward window, the truncation rows below it and one block.
    private var ringRows: Int { TensorSweep.windowRows + halo + TensorSweep.blockRows }

    /// Where a band's finished rows go.
    private enum Destination {
        /// All five coordinates, each control point at its own vertex.
        case vertices(UnsafeMutablePointer<MeshVertex>, vertexAt: UnsafePointer<Int>?)
        /// One coordinate p (``FitSweepScratch/planes``) of a row-major grid, read from each
        /// target at `targetOffset` bytes: row r's values into part p of row r's vertex memory, its
        /// weight sums read from part ``weightSumsPart`` (``part(_:ofRow:columns:in:)``).
        case rowFronts(UnsafeMutablePointer<Double>, targetOffset: Int)
    }

    /// Band `b` of `bands`, for the coordinates of `scratch.planes`: its rows' control points
    /// written, rows `halo` beyond each inner edge read and solved but not written (the
    /// neighbouring band writes them).
    private func solveBand(
        _ b: Int, of bands: Int, targets: UnsafePointer<MeshVertex>, weights: UnsafePointer<Double>,
        into destination: Destination, scratch: FitSweepScratch
    ) -> Verdict {
        let nr = sweep.rows, nc = sweep.columns, halo = self.halo, ringRows = self.ringRows
        let planes = scratch.planes
        let own = sweep.band(b, of: bands)
        let first = Swift.max(0, own.lowerBound - halo), end = Swift.min(nr, own.upperBound + halo)
        let ring = scratch.ring
        @inline(__always) func ringRow(_ p: Int, _ r: Int) -> UnsafeMutablePointer<Double> {
            ring + ((p - planes.lowerBound) * ringRows + r % ringRows) * nc
        }
        var verdict = Verdict()
        // Only a band that writes whole vertices makes its own weight sums.
        var sums = scratch.weightSumRows.map { WeightSumRows(weights: weights, rows: nr, columns: nc, masks: $0) }
        /// Bᵢ = Tᵢ · (S W)ᵢ of grid row r into the rings.
        func rightHandSides(_ r: Int) {
            guard case .vertices(_, let vertexAt) = destination else {
                if case .rowFronts(let fronts, let offset) = destination {
                    let scale = UnsafePointer(GridFitSweep.part(GridFitSweep.weightSumsPart, ofRow: r, columns: nc, in: fronts))
                    verdict.targetsFinite = verdict.targetsFinite && coordinate(at: offset, ofRow: r, scale: scale)
                }
                return
            }
            // A band that writes whole vertices always has its weight sums' memory (``run``).
            guard let rowsMemory = scratch.weightSumRows,
                let scale = sums?.row(r, startsHere: r == first, interior: rowsMemory + WeightSumRows.maskRows * nc)
            else { return }
            let p0 = ringRow(0, r), p1 = ringRow(1, r), p2 = ringRow(2, r), p3 = ringRow(3, r), p4 = ringRow(4, r)
            // x − x is 0 for every finite x and NaN otherwise, so these sums stay 0 exactly while
            // every number read is finite.
            var checkFrom = LayerPoint(), checkTo = Point3D()
            var c = 0
            if vertexAt == nil {
                // Two vertices at a time, their coordinates paired into the rings' lanes.
                let t = targets + r * nc
                while c + 1 < nc {
                    let u = t[c], v = t[c + 1], s = load(scale + c)
                    checkFrom += (u.from - u.from) + (v.from - v.from)
                    checkTo += (u.to - u.to) + (v.to - v.to)
                    store(SIMD2(u.from.x, v.from.x) * s, p0 + c)
                    store(SIMD2(u.from.y, v.from.y) * s, p1 + c)
                    store(SIMD2(u.to.x, v.to.x) * s, p2 + c)
                    store(SIMD2(u.to.y, v.to.y) * s, p3 + c)
                    store(SIMD2(u.to.z, v.to.z) * s, p4 + c)
                    c += 2
                }
            }
            while c < nc {
                let g = r * nc + c, s = scale[c]
                let v = targets[vertexAt?[g] ?? g]
                checkFrom += v.from - v.from
                checkTo += v.to - v.to
                p0[c] = v.from.x * s
                p1[c] = v.from.y * s
                p2[c] = v.to.x * s
                p3[c] = v.to.y * s
                p4[c] = v.to.z * s
                c += 1
            }
            verdict.targetsFinite = verdict.targetsFinite && checkFrom.sum() + checkTo.sum() == 0
        }
        /// Bᵢ = Tᵢ · (S W)ᵢ of grid row r for the coordinate at byte `offset` of each target into
        /// its ring, the products as in ``rightHandSides(_:)``; whether every number read is finite.
        @inline(__always) func coordinate(at offset: Int, ofRow r: Int, scale: UnsafePointer<Double>) -> Bool {
            let p = ringRow(planes.lowerBound, r), t = UnsafeRawPointer(targets + r * nc) + offset
            let stride = MemoryLayout<MeshVertex>.stride
            var check = SIMD2<Double>()
            var c = 0
            while c + 1 < nc {
                let x = SIMD2(
                    t.load(fromByteOffset: c * stride, as: Double.self), t.load(fromByteOffset: (c + 1) * stride, as: Double.self))
                check += x - x
                store(x * load(scale + c), p + c)
                c += 2
            }
            if c < nc {
                let x = t.load(fromByteOffset: c * stride, as: Double.self)
                check.x += x - x
                p[c] = x * scale[c]
            }
            return check.sum() == 0
        }
        /// P = Q / W for grid rows `rows`, finished in the rings, at their own vertices (or, for
        /// one coordinate, at the front of their rows' vertex memory).
        func controlPoints(_ rows: Range<Int>) {
            guard case .vertices(let output, let vertexAt) = destination else {
                if case .rowFronts(let fronts, _) = destination { rowFronts(rows, fronts) }
                return
            }
            for r in rows {
                let q0 = ringRow(0, r), q1 = ringRow(1, r), q2 = ringRow(2, r), q3 = ringRow(3, r), q4 = ringRow(4, r)
                let w = weights + r * nc
                var check = SIMD2<Double>()
                var c = 0
                if vertexAt == nil {
                    let out = output + r * nc
                    while c + 1 < nc {
                        let d = load(w + c)
                        let x0 = load(q0 + c) / d, x1 = load(q1 + c) / d, x2 = load(q2 + c) / d
                        let x3 = load(q3 + c) / d, x4 = load(q4 + c) / d
                        check += (x0 - x0) + (x1 - x1) + (x2 - x2) + (x3 - x3) + (x4 - x4)
                        (out + c).initialize(to: MeshVertex(from: LayerPoint(x0.x, x1.x), to: Point3D(x2.x, x3.x, x4.x)))
                        (out + c + 1).initialize(to: MeshVertex(from: LayerPoint(x0.y, x1.y), to: Point3D(x2.y, x3.y, x4.y)))
                        c += 2
                    }
                }
                while c < nc {
                    let g = r * nc + c, d = w[c]
                    let v = MeshVertex(from: LayerPoint(q0[c] / d, q1[c] / d), to: Point3D(q2[c] / d, q3[c] / d, q4[c] / d))
                    check += v.from - v.from
                    check.x += (v.to - v.to).sum()
                    (output + (vertexAt?[g] ?? g)).initialize(to: v)
                    c += 1
                }
                guard verdict.firstNonFinite == nil, check.sum() != 0 else { continue }
                // Rare: find the row's first control point that is not finite.
                for c in 0..<nc {
                    let g = r * nc + c
                    if !GridFitSweep.isFinite(output[vertexAt?[g] ?? g]) {
                        verdict.firstNonFinite = g
                        break
                    }
                }
            }
        }
        /// P = Q / W of the one coordinate p for grid rows `rows`, into part p of each row's vertex
        /// memory (the same divisions as ``controlPoints(_:)``).
        func rowFronts(_ rows: Range<Int>, _ fronts: UnsafeMutablePointer<Double>) {
            let p = planes.lowerBound
            for r in rows {
                let q = ringRow(p, r), w = weights + r * nc, out = GridFitSweep.part(p, ofRow: r, columns: nc, in: fronts)
                var c = 0
                while c + 1 < nc {
                    store(load(q + c) / load(w + c), out + c)
                    c += 2
                }
                if c < nc { out[c] = q[c] / w[c] }
            }
        }
        let across = sweep.across
        across.multipliers.withUnsafeBufferPointer { l in
            across.inversePivots.withUnsafeBufferPointer { inverse in
                across.backward.withUnsafeBufferPointer { c in
                    var next = first, done = own.lowerBound
                    var from = [UnsafePointer<Double>](repeating: UnsafePointer(scratch.sink), count: TensorSweep.blockRows)
                    var to = [UnsafeMutablePointer<Double>](repeating: scratch.sink, count: TensorSweep.blockRows)
                    while next < end {
                        let count = Swift.min(TensorSweep.blockRows, end - next)
                        for r in next..<(next + count) { rightHandSides(r) }
                        for p in planes {
                            // Along the rows, in the ring (rows may repeat in `from`, `to` may be `from`).
                            for k in 0..<TensorSweep.blockRows {
                                from[k] = UnsafePointer(ringRow(p, next + (k < count ? k : 0)))
                                to[k] = k < count ? ringRow(p, next + k) : scratch.sink
                            }
                            // The forward sweep down the columns (a band not at the top starts
                            // from zero) runs on each pair of columns as the row solve finishes it.
                            sweep.along.solveRows(
                                from, into: to, columns: nc, lanes: scratch.lanes,
                                down: ColumnSweep(
                                    rows: count, firstRow: next, startsFromZero: next == first, multipliers: l.baseAddress,
                                    inversePivots: inverse.baseAddress, previous: scratch.previous + (p - planes.lowerBound) * nc))
                        }
                        next += count
                        // The backward sweep: exact from the grid's last row, else from zero
                        // `halo` rows below the last row it finishes (as ``TensorSweep``).
                        let last: Int
                        if next == nr {
                            last = own.upperBound
                        } else if next == end || next - done >= TensorSweep.windowRows + halo {
                            last = Swift.min(own.upperBound, next - halo)
                        } else {
                            continue
                        }
                        guard last > done else { continue }
                        let s = next - 1
                        for p in planes {
                            // x at row next − 1 is z there: the grid's last row (c = 0), or the row
                            // above the zero the truncated sweep starts from. Finished rows are
                            // written over their z in the ring.
                            var below: UnsafePointer<Double>
                            var top: Int
                            if last > s {
                                below = UnsafePointer(ringRow(p, s))
                                top = s - 1
                            } else {
                                let start = scratch.start
                                start.update(from: ringRow(p, s), count: nc)
                                if s - 1 >= last {
                                    for r in stride(from: s - 1, through: last, by: -1) {
                                        let z = ringRow(p, r), m = c[r]
                                        for j in 0..<nc { start[j] = z[j] - m * start[j] }
                                    }
                                }
                                below = UnsafePointer(start)
                                top = last - 1
                            }
                            if top >= done {
                                for r in stride(from: top, through: done, by: -1) {
                                    let row = ringRow(p, r), m = c[r]
                                    for j in 0..<nc { row[j] = row[j] - m * below[j] }
                                    below = UnsafePointer(row)
                                }
                            }
                        }
                        controlPoints(done..<last)
                        done = last
                    }
                }
            }
        }
        return verdict
    }
}

/// A band's working memory for ``GridFitSweep``, for the coordinates `planes` (of the five): a
/// ring of rows per coordinate, each coordinate's previous row of the forward sweep, the start of
/// a truncated backward sweep, the lanes of a block, a row that absorbs the missing rows of a
/// short block, and, for a band that makes its own weight sums, three rows of the weights'
/// row-direction mask and the row of (S W)ᵢ being made.
struct FitSweepScratch {
    let planes: Range<Int>
    let ring: UnsafeMutablePointer<Double>
    let previous: UnsafeMutablePointer<Double>
    let start: UnsafeMutablePointer<Double>
    let sink: UnsafeMutablePointer<Double>
    let lanes: UnsafeMutablePointer<SIMD8<Double>>
    /// ``WeightSumRows/maskRows`` rows of masks, then the row of (S W)ᵢ; `nil` for a band that
    /// reads its weight sums made beforehand (``GridFitSweep/PlaneSharing/apart``).
    let weightSumRows: UnsafeMutablePointer<Double>?

    init(columns: Int, ringRows: Int, planes: Range<Int>, makesWeightSums: Bool) {
        self.planes = planes
        ring = .allocate(capacity: planes.count * ringRows * columns)
        previous = .allocate(capacity: planes.count * columns)
        start = .allocate(capacity: columns)
        sink = .allocate(capacity: columns)
        lanes = .allocate(capacity: columns)
        weightSumRows = makesWeightSums ? .allocate(capacity: (WeightSumRows.maskRows + 1) * columns) : nil
    }

    func deallocate() {
        ring.deallocate()
        previous.deallocate()
        start.deallocate()
        sink.deallocate()
        lanes.deallocate()
        weightSumRows?.deallocate()
    }
}

@inline(__always) private func load(_ p: UnsafePointer<Double>) -> SIMD2<Double> {
    UnsafeRawPointer(p).loadUnaligned(as: SIMD2<Double>.self)
}

@inline(__always) private func load(_ p: UnsafeMutablePointer<Double>) -> SIMD2<Double> {
    UnsafeRawPointer(p).loadUnaligned(as: SIMD2<Double>.self)
}

@inline(__always) private func store(_ v: SIMD2<Double>, _ p: UnsafeMutablePointer<Double>) {
    UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD2<Double>.self)
}

/// The forward sweep down the columns over a block of rows, as a block's row solve hands over its
/// finished columns: yᵣ = xᵣ − lᵣ₋₁ yᵣ₋₁ (yᵣ = xᵣ on a band's first row), and yᵣ / uᵣᵣ written.
/// The same operations in the same order as a sweep over the finished rows, without reading and
/// writing them again.
struct ColumnSweep {
    /// Rows of the block to sweep (the first `rows` of its eight).
    let rows: Int
    /// The grid row of the block's first row.
    let firstRow: Int
    /// The block's first row is the band's first: its sweep starts from zero.
    let startsFromZero: Bool
    let multipliers: UnsafePointer<Double>?
    let inversePivots: UnsafePointer<Double>?
    /// y of the row above the block, per column; left holding the block's last row.
    let previous: UnsafeMutablePointer<Double>

    /// Sweeps column pair (j, j + 1), whose eight rows are `pairs`, into `to`.
    @inline(__always) func pair(_ j: Int, _ pairs: UnsafePointer<SIMD2<Double>>, into to: [UnsafeMutablePointer<Double>]) {
        guard let l = multipliers, let inverse = inversePivots else { return }
        var y = UnsafeRawPointer(previous + j).loadUnaligned(as: SIMD2<Double>.self)
        for k in 0..<rows {
            let r = firstRow + k
            y = k == 0 && startsFromZero ? pairs[k] : pairs[k] - l[r - 1] * y
            UnsafeMutableRawPointer(to[k] + j).storeBytes(of: y * inverse[r], as: SIMD2<Double>.self)
        }
        UnsafeMutableRawPointer(previous + j).storeBytes(of: y, as: SIMD2<Double>.self)
    }

    /// Sweeps column j alone, whose eight rows are `column`.
    @inline(__always) func single(_ j: Int, _ column: SIMD8<Double>, into to: [UnsafeMutablePointer<Double>]) {
        guard let l = multipliers, let inverse = inversePivots else { return }
        var y = previous[j]
        for k in 0..<rows {
            let r = firstRow + k
            y = k == 0 && startsFromZero ? column[k] : column[k] - l[r - 1] * y
            to[k][j] = y * inverse[r]
        }
        previous[j] = y
    }
}

extension DominantTridiagonalFactors {
    /// ``solveRows(_:into:columns:lanes:)`` followed by the forward sweep down the columns over
    /// the solved rows (`down`), each pair of columns swept while it is still in registers.
    /// Rows past `down.rows` are solved but neither swept nor written.
    func solveRows(
        _ from: [UnsafePointer<Double>], into to: [UnsafeMutablePointer<Double>], columns n: Int,
        lanes: UnsafeMutablePointer<SIMD8<Double>>, down: ColumnSweep
    ) {
        withUnsafeTemporaryAllocation(of: SIMD2<Double>.self, capacity: 8) { pairBuffer in
            guard let pairs = pairBuffer.baseAddress else { return }
            multipliers.withUnsafeBufferPointer { l in
                inversePivots.withUnsafeBufferPointer { inverse in
                    backward.withUnsafeBufferPointer { c in
                        forwardRows(from, columns: n, lanes: lanes, multipliers: l, inversePivots: inverse)
                        // Backward from the last column, finishing columns j − 1 and j together
                        // and sweeping them down the block's rows.
                        var x = lanes[n - 1]
                        var j = n - 1
                        if j % 2 == 1 {
                            down.single(j, x, into: to)
                            j -= 1
                            x = lanes[j] - c[j] * x
                        }
                        while j >= 1 {
                            let right = x, left = lanes[j - 1] - c[j - 1] * right
                            let ll = left.lowHalf, lh = left.highHalf, rl = right.lowHalf, rh = right.highHalf
                            pairs[0] = transposeEvens(ll.lowHalf, rl.lowHalf)
                            pairs[1] = transposeOdds(ll.lowHalf, rl.lowHalf)
                            pairs[2] = transposeEvens(ll.highHalf, rl.highHalf)
                            pairs[3] = transposeOdds(ll.highHalf, rl.highHalf)
                            pairs[4] = transposeEvens(lh.lowHalf, rh.lowHalf)
                            pairs[5] = transposeOdds(lh.lowHalf, rh.lowHalf)
                            pairs[6] = transposeEvens(lh.highHalf, rh.highHalf)
                            pairs[7] = transposeOdds(lh.highHalf, rh.highHalf)
                            down.pair(j - 1, UnsafePointer(pairs), into: to)
                            j -= 2
                            if j >= 0 { x = lanes[j] - c[j] * left }
                        }
                        if j == 0 { down.single(0, x, into: to) }
                    }
                }
            }
        }
    }
}
