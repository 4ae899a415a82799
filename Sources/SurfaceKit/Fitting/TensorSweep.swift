/// The tensor-product solve A_R Q A_Cᵀ = B on planes of an R × C grid (each plane `rows × columns`
/// values, row by row), in one pass over memory.
///
/// Each plane is cut into bands of rows (``bandCount(rows:)``, fixed by the grid's size alone, so
/// the result never depends on how many threads run). A band walks down its rows eight at a time:
/// the eight rows are solved along the row (the curve operator of the columns) in registers, lane
/// by lane, then the forward sweep of the column operator runs over them row by row, all columns at
/// once, into a small ring of rows that stays in cache. Every ``windowRows`` rows the backward
/// sweep starts ``DominantTridiagonalFactors/truncationRows`` rows below the last finished row,
/// from zero, and writes the finished rows to the destination. Bands begin and end the same way:
/// the forward sweep starts that many rows above the band and the backward sweep that many rows
/// below it. Starting a sweep from zero that many rows early changes the result by at most 2⁻⁶⁴ of
/// the largest value of the sweep (``DominantTridiagonalFactors``), below the solve's own
/// rounding, while each value is read once from the source and written once to the destination.
struct TensorSweep: Sendable {
    let rows: Int
    let columns: Int
    /// The factors along each row (order `columns`) and along each column (order `rows`).
    let along: DominantTridiagonalFactors
    let across: DominantTridiagonalFactors

    /// Rows a band aims at: enough that the rows solved twice around band edges (twice the
    /// truncation rows, 68 for the curve operator) cost about an eighth more on a 1001-row grid,
    /// few enough that its five planes give a 16-core machine 15 independent bands.
    static let bandRows = 256
    /// Rows finished by each backward sweep: the ring of rows a band keeps (this plus the
    /// truncation rows and one block, about 850 KB on a 1001-column grid) fits a core's L2 cache.
    static let windowRows = 64
    /// Rows solved together along the row, one per lane of a `SIMD8`.
    static let blockRows = 8
    /// Below this many values in all planes, the bands run on the calling thread.
    static let parallelValues = 1 << 17

    /// The bands of a plane of `rows` rows; a fixed function of the grid's size.
    static func bandCount(rows: Int) -> Int { Swift.max(1, rows / bandRows) }

    /// Solves `planes` planes from `source` into `destination`, which may be the same memory.
    func solve(planes: Int, source: UnsafePointer<Double>, destination: UnsafeMutablePointer<Double>) {
        let bands = TensorSweep.bandCount(rows: rows)
        let halo = Swift.min(across.truncationRows, rows)
        let planeSize = rows * columns
        // Solving in place, a band would read rows around its edges that its neighbour has already
        // overwritten: those rows are copied aside first.
        let inPlace = UnsafePointer(destination) == source && bands > 1
        let haloRows = inPlace ? 2 * halo * (bands - 1) : 0
        let aside = UnsafeMutablePointer<Double>.allocate(capacity: Swift.max(1, planes * haloRows * columns))
        defer { aside.deallocate() }
        if inPlace {
            for p in 0..<planes {
                for b in 1..<bands {
                    let edge = band(b, of: bands).lowerBound
                    let first = Swift.max(0, edge - halo), last = Swift.min(rows, edge + halo)
                    let into = aside + (p * haloRows + (b - 1) * 2 * halo) * columns
                    into.update(from: source + p * planeSize + first * columns, count: (last - first) * columns)
                }
            }
        }
        let input = UncheckedSendable(source), output = SharedMutableBuffer(base: destination)
        let kept = UncheckedSendable(UnsafePointer(aside))
        let tasks = planes * bands
        let body = { (range: Range<Int>) in
            let scratch = SweepScratch(columns: self.columns, ringRows: TensorSweep.windowRows + halo + TensorSweep.blockRows)
            defer { scratch.deallocate() }
            for task in range {
                let p = task / bands, b = task % bands
                let own = self.band(b, of: bands)
                let plane = input.value + p * planeSize
                let sourceRow: (Int) -> UnsafePointer<Double> = { r in
                    guard inPlace, !own.contains(r) else { return plane + r * self.columns }
                    // Aside rows of edge e are rows edge − halo ..< edge + halo (clipped at 0).
                    let e = r < own.lowerBound ? b : b + 1
                    let edge = self.band(e, of: bands).lowerBound
                    let first = Swift.max(0, edge - halo)
                    return kept.value + (p * haloRows + (e - 1) * 2 * halo + (r - first)) * self.columns
                }
                self.solveBand(own, halo: halo, sourceRow: sourceRow, destination: output.base + p * planeSize, scratch: scratch)
            }
        }
        if tasks > 1, planes * planeSize >= TensorSweep.parallelValues {
            parallelChunks(tasks, minimumChunk: 1, body)
        } else {
            body(0..<tasks)
        }
    }

    /// Rows of band `b` of `count`.
    func band(_ b: Int, of count: Int) -> Range<Int> { (rows * b / count)..<(rows * (b + 1) / count) }

    /// One band of one plane: rows `own` finished into `destination` (the plane's first value),
    /// reading `halo` rows beyond each end that is not an end of the grid.
    private func solveBand(
        _ own: Range<Int>, halo: Int, sourceRow: (Int) -> UnsafePointer<Double>, destination: UnsafeMutablePointer<Double>,
        scratch: SweepScratch
    ) {
        let nc = columns
        let first = Swift.max(0, own.lowerBound - halo), end = Swift.min(rows, own.upperBound + halo)
        let ring = scratch.ring, ringRows = scratch.ringRows
        @inline(__always) func ringRow(_ r: Int) -> UnsafeMutablePointer<Double> { ring + (r % ringRows) * nc }
        @inline(__always) func finished(_ r: Int) -> UnsafeMutablePointer<Double> { destination + r * nc }
        let previous = scratch.previous, start = scratch.start
        across.multipliers.withUnsafeBufferPointer { l in
            across.inversePivots.withUnsafeBufferPointer { inverse in
                across.backward.withUnsafeBufferPointer { c in
                    var next = first, done = own.lowerBound
                    while next < end {
                        let count = Swift.min(TensorSweep.blockRows, end - next)
                        var from = [UnsafePointer<Double>](repeating: sourceRow(next), count: TensorSweep.blockRows)
                        var to = [UnsafeMutablePointer<Double>](repeating: scratch.sink, count: TensorSweep.blockRows)
                        for k in 0..<count {
                            from[k] = sourceRow(next + k)
                            to[k] = ringRow(next + k)
                        }
                        along.solveRows(from, into: to, columns: nc, lanes: scratch.lanes)
                        // The forward sweep down the columns; a band not at the top starts from zero.
                        for r in next..<(next + count) {
                            let row = ringRow(r), v = inverse[r]
                            if r == first {
                                for j in 0..<nc {
                                    previous[j] = row[j]
                                    row[j] *= v
                                }
                            } else {
                                let m = l[r - 1]
                                for j in 0..<nc {
                                    let y = row[j] - m * previous[j]
                                    previous[j] = y
                                    row[j] = y * v
                                }
                            }
                        }
                        next += count
                        // The backward sweep: exact from the grid's last row, else from zero
                        // `halo` rows below the last row it finishes.
                        let last: Int
                        if next == rows {
                            last = own.upperBound
                        } else if next == end || next - done >= TensorSweep.windowRows + halo {
                            last = Swift.min(own.upperBound, next - halo)
                        } else {
                            continue
                        }
                        guard last > done else { continue }
                        // x at row next − 1 is z there: the grid's last row (c = 0), or the row
                        // above the zero the truncated sweep starts from.
                        let s = next - 1
                        var below: UnsafePointer<Double>
                        var top: Int
                        if last > s {
                            finished(s).update(from: ringRow(s), count: nc)
                            below = UnsafePointer(finished(s))
                            top = s - 1
                        } else {
                            start.update(from: ringRow(s), count: nc)
                            if s - 1 >= last {
                                for r in stride(from: s - 1, through: last, by: -1) {
                                    let z = ringRow(r), m = c[r]
                                    for j in 0..<nc { start[j] = z[j] - m * start[j] }
                                }
                            }
                            below = UnsafePointer(start)
                            top = last - 1
                        }
                        if top >= done {
                            for r in stride(from: top, through: done, by: -1) {
                                let z = ringRow(r), row = finished(r), m = c[r]
                                for j in 0..<nc { row[j] = z[j] - m * below[j] }
                                below = UnsafePointer(row)
                            }
                        }
                        done = last
                    }
                }
            }
        }
    }
}

/// A band's working memory: the ring of rows between the sweeps, the forward sweep's previous row,
/// the start of a truncated backward sweep, the lanes of a block and a row that absorbs the
/// missing rows of a short block.
struct SweepScratch {
    let ringRows: Int
    let ring: UnsafeMutablePointer<Double>
    let previous: UnsafeMutablePointer<Double>
    let start: UnsafeMutablePointer<Double>
    let sink: UnsafeMutablePointer<Double>
    let lanes: UnsafeMutablePointer<SIMD8<Double>>

    init(columns: Int, ringRows: Int) {
        self.ringRows = ringRows
        ring = .allocate(capacity: ringRows * columns)
        previous = .allocate(capacity: columns)
        start = .allocate(capacity: columns)
        sink = .allocate(capacity: columns)
        lanes = .allocate(capacity: columns)
    }

    func deallocate() {
        ring.deallocate()
        previous.deallocate()
        start.deallocate()
        sink.deallocate()
        lanes.deallocate()
    }
}

extension DominantTridiagonalFactors {
    /// Solves A x = b along eight rows of `columns` values at once: `from[k]` is row k's right-hand
    /// side and `to[k]` receives its solution (rows may repeat in `from`, and `to` may equal
    /// `from`). The rows are taken two columns at a time into lanes (a 2 × 8 transpose of
    /// contiguous pairs), the forward sweep runs as they arrive, and the backward sweep puts each
    /// pair of columns back as it finishes them, so the lanes are walked twice, not four times.
    func solveRows(
        _ from: [UnsafePointer<Double>], into to: [UnsafeMutablePointer<Double>], columns n: Int,
        lanes: UnsafeMutablePointer<SIMD8<Double>>
    ) {
        let d0 = to[0], d1 = to[1], d2 = to[2], d3 = to[3], d4 = to[4], d5 = to[5], d6 = to[6], d7 = to[7]
        multipliers.withUnsafeBufferPointer { l in
            inversePivots.withUnsafeBufferPointer { inverse in
                backward.withUnsafeBufferPointer { c in
                    forwardRows(from, columns: n, lanes: lanes, multipliers: l, inversePivots: inverse)
                    @inline(__always) func put(_ j: Int, _ v: SIMD8<Double>) {
                        d0[j] = v[0]
                        d1[j] = v[1]
                        d2[j] = v[2]
                        d3[j] = v[3]
                        d4[j] = v[4]
                        d5[j] = v[5]
                        d6[j] = v[6]
                        d7[j] = v[7]
                    }
                    @inline(__always) func putPair(_ p: UnsafeMutablePointer<Double>, _ j: Int, _ v: SIMD2<Double>) {
                        UnsafeMutableRawPointer(p + j).storeBytes(of: v, as: SIMD2<Double>.self)
                    }
                    // Backward from the last column, finishing columns j − 1 and j together.
                    var x = lanes[n - 1]
                    var j = n - 1
                    if j % 2 == 1 {
                        put(j, x)
                        j -= 1
                        x = lanes[j] - c[j] * x
                    }
                    while j >= 1 {
                        let right = x, left = lanes[j - 1] - c[j - 1] * right
                        let ll = left.lowHalf, lh = left.highHalf, rl = right.lowHalf, rh = right.highHalf
                        putPair(d0, j - 1, transposeEvens(ll.lowHalf, rl.lowHalf))
                        putPair(d1, j - 1, transposeOdds(ll.lowHalf, rl.lowHalf))
                        putPair(d2, j - 1, transposeEvens(ll.highHalf, rl.highHalf))
                        putPair(d3, j - 1, transposeOdds(ll.highHalf, rl.highHalf))
                        putPair(d4, j - 1, transposeEvens(lh.lowHalf, rh.lowHalf))
                        putPair(d5, j - 1, transposeOdds(lh.lowHalf, rh.lowHalf))
                        putPair(d6, j - 1, transposeEvens(lh.highHalf, rh.highHalf))
                        putPair(d7, j - 1, transposeOdds(lh.highHalf, rh.highHalf))
                        j -= 2
                        if j >= 0 { x = lanes[j] - c[j] * left }
                    }
                    if j == 0 { put(0, x) }
                }
            }
        }
    }
}

extension DominantTridiagonalFactors {
    /// The forward sweep of ``solveRows(_:into:columns:lanes:)`` (and of the grid fit's sweep,
    /// which must give the same bits): eight rows of `from`, two columns at a time, transposed
    /// into `lanes` and divided by the pivots as they arrive.
    @inline(__always)
    func forwardRows(
        _ from: [UnsafePointer<Double>], columns n: Int, lanes: UnsafeMutablePointer<SIMD8<Double>>,
        multipliers l: UnsafeBufferPointer<Double>, inversePivots inverse: UnsafeBufferPointer<Double>
    ) {
        let s0 = from[0], s1 = from[1], s2 = from[2], s3 = from[3], s4 = from[4], s5 = from[5], s6 = from[6], s7 = from[7]
        @inline(__always) func column(_ j: Int) -> SIMD8<Double> {
            SIMD8(s0[j], s1[j], s2[j], s3[j], s4[j], s5[j], s6[j], s7[j])
        }
        @inline(__always) func pair(_ p: UnsafePointer<Double>, _ j: Int) -> SIMD2<Double> {
            UnsafeRawPointer(p + j).loadUnaligned(as: SIMD2<Double>.self)
        }
        var previous = column(0)
        lanes[0] = previous * inverse[0]
        var j = 1
        while j + 1 < n {
            let a0 = pair(s0, j), a1 = pair(s1, j), a2 = pair(s2, j), a3 = pair(s3, j)
            let a4 = pair(s4, j), a5 = pair(s5, j), a6 = pair(s6, j), a7 = pair(s7, j)
            let first = SIMD8(
                lowHalf: SIMD4(lowHalf: transposeEvens(a0, a1), highHalf: transposeEvens(a2, a3)),
                highHalf: SIMD4(lowHalf: transposeEvens(a4, a5), highHalf: transposeEvens(a6, a7)))
            let second = SIMD8(
                lowHalf: SIMD4(lowHalf: transposeOdds(a0, a1), highHalf: transposeOdds(a2, a3)),
                highHalf: SIMD4(lowHalf: transposeOdds(a4, a5), highHalf: transposeOdds(a6, a7)))
            let y0 = first - l[j - 1] * previous
            lanes[j] = y0 * inverse[j]
            let y1 = second - l[j] * y0
            lanes[j + 1] = y1 * inverse[j + 1]
            previous = y1
            j += 2
        }
        if j < n {
            let y = column(j) - l[j - 1] * previous
            lanes[j] = y * inverse[j]
        }
    }
}

/// (a₀, b₀) of the pairs a = (a₀, a₁) and b = (b₀, b₁): one step of a transpose of pairs.
@inline(__always) func transposeEvens(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> SIMD2<Double> {
    SIMD4(lowHalf: a, highHalf: b).evenHalf
}

/// (a₁, b₁): the other half of ``transposeEvens(_:_:)``'s step.
@inline(__always) func transposeOdds(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> SIMD2<Double> {
    SIMD4(lowHalf: a, highHalf: b).oddHalf
}
