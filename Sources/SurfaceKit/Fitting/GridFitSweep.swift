/// The right-hand sides, the tensor solve and the new control points of a grid fit in one pass
/// per band of rows, all five coordinates together.
///
/// A band walks down its rows as ``TensorSweep`` does, with the same bands, blocks of eight
/// rows, backward windows and truncated starts, and the same arithmetic, so it finds the same
/// values. What differs is where the rows come from and go: each block's right-hand sides
/// Tᵢ · (S W)ᵢ are made from the targets and the vertex weights straight into the band's ring of
/// rows (one ring per coordinate), each row is solved in the ring, and each finished row is divided
/// by its weights straight into the output vertices. The five planes of right-hand sides and
/// solutions are never laid out in memory: the targets are read once and the vertices written
/// once, where the separate passes wrote and read 40 MB of planes three times on a 1001² grid.
struct GridFitSweep {
    let sweep: TensorSweep

    /// What a band found: whether every target number it read is finite, and its first vertex
    /// (in grid order) whose control point is not.
    struct Verdict {
        var targetsFinite = true
        var firstNonFinite: Int?
    }

    /// Fits the grid: `targets` in the mesh's order, `weights` in grid order, and `output`
    /// (the mesh's vertex count, uninitialized) receives every control point, each at its own
    /// vertex (`vertexAt` maps grid positions to the mesh's vertices; `nil` for row-major).
    func run(
        targets: UnsafePointer<MeshVertex>, weights: UnsafePointer<Double>, vertexAt: UnsafePointer<Int>?,
        output: UnsafeMutablePointer<MeshVertex>
    ) -> Verdict {
        let bands = TensorSweep.bandCount(rows: sweep.rows)
        let inputs = UncheckedSendable((targets, weights, vertexAt)), into = SharedMutableBuffer(base: output)
        let verdicts = [Verdict](unsafeUninitializedCapacity: bands) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            let found = SharedMutableBuffer(base: base)
            let body = { (range: Range<Int>) in
                let scratch = FitSweepScratch(columns: self.sweep.columns, ringRows: self.ringRows)
                defer { scratch.deallocate() }
                for b in range {
                    let (t, w, map) = inputs.value
                    (found.base + b).initialize(
                        to: self.solveBand(b, of: bands, targets: t, weights: w, vertexAt: map, output: into.base, scratch: scratch))
                }
            }
            if bands > 1, FitPlanes.componentCount * sweep.rows * sweep.columns >= TensorSweep.parallelValues {
                parallelChunks(bands, minimumChunk: 1, body)
            } else {
                body(0..<bands)
            }
            initialized = bands
        }
        var verdict = Verdict()
        for v in verdicts {
            verdict.targetsFinite = verdict.targetsFinite && v.targetsFinite
            if verdict.firstNonFinite == nil { verdict.firstNonFinite = v.firstNonFinite }
        }
        return verdict
    }

    private var halo: Int { Swift.min(sweep.across.truncationRows, sweep.rows) }

    /// The ring's rows: a backward window, the truncation rows below it and one block.
    private var ringRows: Int { TensorSweep.windowRows + halo + TensorSweep.blockRows }

    /// Band `b` of `bands`: its rows' control points written, rows `halo` beyond each inner edge
    /// read and solved but not written (the neighbouring band writes them).
    private func solveBand(
        _ b: Int, of bands: Int, targets: UnsafePointer<MeshVertex>, weights: UnsafePointer<Double>,
        vertexAt: UnsafePointer<Int>?, output: UnsafeMutablePointer<MeshVertex>, scratch: FitSweepScratch
    ) -> Verdict {
        let nr = sweep.rows, nc = sweep.columns, halo = self.halo, ringRows = self.ringRows
        let planes = FitPlanes.componentCount
        let own = sweep.band(b, of: bands)
        let first = Swift.max(0, own.lowerBound - halo), end = Swift.min(nr, own.upperBound + halo)
        let ring = scratch.ring
        @inline(__always) func ringRow(_ p: Int, _ r: Int) -> UnsafeMutablePointer<Double> {
            ring + (p * ringRows + r % ringRows) * nc
        }
        var verdict = Verdict()
        // The row-direction curve mask of weight rows r − 1, r, r + 1, rolled down the band: the
        // same expressions as ``TensorGridSolver/apply(_:)``.
        var above = scratch.masks, here = scratch.masks + nc, below = scratch.masks + 2 * nc
        @inline(__always) func alongRow(_ r: Int, into t: UnsafeMutablePointer<Double>) {
            let x = weights + r * nc
            t[0] = x[0]
            t[nc - 1] = x[nc - 1]
            for c in 1..<(nc - 1) { t[c] = (x[c - 1] + 4 * x[c] + x[c + 1]) / 6 }
        }
        /// Bᵢ = Tᵢ · (S W)ᵢ of grid row r into the rings.
        func rightHandSides(_ r: Int) {
            if r == first {
                if r > 0 { alongRow(r - 1, into: above) }
                alongRow(r, into: here)
            } else {
                (above, here, below) = (here, below, above)
            }
            if r + 1 < nr { alongRow(r + 1, into: below) }
            let scale: UnsafePointer<Double>
            if r > 0, r + 1 < nr {
                let a = above, h = here, b = below, s = scratch.scale
                for c in 0..<nc { s[c] = (a[c] + 4 * h[c] + b[c]) / 6 }
                scale = UnsafePointer(s)
            } else {
                scale = UnsafePointer(here)
            }
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
        /// P = Q / W for grid rows `rows`, finished in the rings, at their own vertices.
        func controlPoints(_ rows: Range<Int>) {
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
                    let g = r * nc + c, v = output[vertexAt?[g] ?? g]
                    if !(v.from.x.isFinite && v.from.y.isFinite && v.to.x.isFinite && v.to.y.isFinite && v.to.z.isFinite) {
                        verdict.firstNonFinite = g
                        break
                    }
                }
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
                        for p in 0..<planes {
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
                                    inversePivots: inverse.baseAddress, previous: scratch.previous + p * nc))
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
                        for p in 0..<planes {
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

/// A band's working memory for ``GridFitSweep``: a ring of rows per coordinate, each
/// coordinate's previous row of the forward sweep, the start of a truncated backward sweep, the
/// lanes of a block, a row that absorbs the missing rows of a short block, three rows of the
/// weights' row-direction mask and the row of (S W)ᵢ being made.
struct FitSweepScratch {
    let ring: UnsafeMutablePointer<Double>
    let previous: UnsafeMutablePointer<Double>
    let start: UnsafeMutablePointer<Double>
    let sink: UnsafeMutablePointer<Double>
    let lanes: UnsafeMutablePointer<SIMD8<Double>>
    let masks: UnsafeMutablePointer<Double>
    let scale: UnsafeMutablePointer<Double>

    init(columns: Int, ringRows: Int) {
        ring = .allocate(capacity: FitPlanes.componentCount * ringRows * columns)
        previous = .allocate(capacity: FitPlanes.componentCount * columns)
        start = .allocate(capacity: columns)
        sink = .allocate(capacity: columns)
        lanes = .allocate(capacity: columns)
        masks = .allocate(capacity: 3 * columns)
        scale = .allocate(capacity: columns)
    }

    func deallocate() {
        ring.deallocate()
        previous.deallocate()
        start.deallocate()
        sink.deallocate()
        lanes.deallocate()
        masks.deallocate()
        scale.deallocate()
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
