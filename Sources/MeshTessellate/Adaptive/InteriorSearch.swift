import SurfaceKit

/// Chooses, for a cell that missed τ, the interior grid with the fewest triangles that measures
/// within τ, joined to its sides' samples as they are by a ring or, where two opposite sides
/// agree, by strips; and, for a cell that passed, a drawing of fewer triangles that also does.
///
/// A cell's sides carry the larger rate of the cells on either side, so a cell drawn next to
/// denser neighbours is a ring zipping its sides' samples to an interior grid, and the ring's
/// triangles can miss τ where the cell's own grid did not (or pass with a coarser grid than the
/// cell's own). Growing the interior by how far it missed overshoots (the error of a ring is not
/// that of a grid), so here each candidate is drawn as the build would draw it — the same
/// stitcher, the same surface samples, the same points measured — and the cheapest that passes
/// is taken. Once a cell has an interior of its own, candidates cost more than what it drew, so
/// rounds that keep every side still end. An interior asks nothing of the sides, so no neighbour
/// changes.
struct InteriorSearch {
    let cells: [AdaptiveCell]
    let layout: AdaptiveLayout
    /// The built positions in points, every output vertex.
    let points: [Point3D]
    let policy: DiagonalPolicy
    let scale: SIMD3<Double>

    /// The layout and points the search draws its candidates with.
    var drawing: CellDrawing { CellDrawing(cells: cells, layout: layout, points: points) }

    /// Candidates drawn at most per cell: each costs one stitch of the cell. The cheapest
    /// candidates are often too coarse, so fewer trials (24 were measured) leave cells that an
    /// interior would serve to more samples on their sides, which reach their neighbours; on
    /// the held-out ripples no cell took a candidate past the 64th.
    static let mostTrials = 64

    /// The triangles of cell c drawn as a ring around an nu × nv interior, with side rates `sides`.
    func triangles(_ sides: SIMD4<Int>, _ nu: Int, _ nv: Int) -> Int {
        (nu - 2) * (nv - 2) * policy.trianglesPerQuad + sides.wrappedSum() + 2 * (nu + nv) - 8
    }

    /// A candidate interior: its grid, how it meets the sides, and its triangles.
    struct Candidate {
        var rates: SIMD2<Int>
        var shape: CellRates.InteriorShape
        var cost: Int
        /// How far the grid's shape is from the sides' (ties go to the closer).
        var skew: Int
        /// For `.rows` and `.columns`: the strips they are drawn in.
        var strips: AdaptiveLayout.Strips?
    }

    /// Every interior of cell c up to `limit` segments each way: grids of at least 2 × 2 inside
    /// a ring, and, where the left and right sides (or bottom and top) carry the same n ≥ 2
    /// evenly spaced samples, n strips of any number of squares, zipped only against a side
    /// sampled otherwise. A strip layout keeps the rows of the sides that agree, so where one
    /// side differs it costs a few triangles more than the cell's own grid, where a ring that
    /// passes often costs ten or more.
    func candidates(cell c: Int, sides: SIMD4<Int>, limit: Int) -> [Candidate] {
        let wide = SIMD2(max(sides[0], sides[2]), max(sides[1], sides[3]))
        func skew(_ nu: Int, _ nv: Int) -> Int { abs(nu * wide.y - nv * wide.x) }
        var found: [Candidate] = []
        for nu in 2...limit {
            for nv in 2...limit {
                found.append(Candidate(rates: SIMD2(nu, nv), shape: .ring, cost: triangles(sides, nu, nv), skew: skew(nu, nv)))
            }
        }
        let perQuad = policy.trianglesPerQuad
        if sides[1] == sides[3], sides[1] >= 2, layout.evenlySampled(c, 1, sides[1]), layout.evenlySampled(c, 3, sides[3]) {
            let nv = sides[1]
            let firstEven = layout.evenlySampled(c, 0, sides[0]), lastEven = layout.evenlySampled(c, 2, sides[2])
            for nu in 1...limit {
                let strips = AdaptiveLayout.Strips(
                    count: nv, along: nu, first: sides[0], last: sides[2], firstEven: firstEven, lastEven: lastEven)
                found.append(
                    Candidate(
                        rates: SIMD2(nu, nv), shape: .rows, cost: strips.triangles(perQuad: perQuad), skew: skew(nu, nv), strips: strips))
            }
        }
        if sides[0] == sides[2], sides[0] >= 2, layout.evenlySampled(c, 0, sides[0]), layout.evenlySampled(c, 2, sides[2]) {
            let nu = sides[0]
            let firstEven = layout.evenlySampled(c, 3, sides[3]), lastEven = layout.evenlySampled(c, 1, sides[1])
            for nv in 1...limit {
                let strips = AdaptiveLayout.Strips(
                    count: nu, along: nv, first: sides[3], last: sides[1], firstEven: firstEven, lastEven: lastEven)
                found.append(
                    Candidate(
                        rates: SIMD2(nu, nv), shape: .columns, cost: strips.triangles(perQuad: perQuad), skew: skew(nu, nv),
                        strips: strips))
            }
        }
        return found
    }

    /// An interior that measures within the target: its grid, how it meets the sides, its triangles.
    typealias Found = (rates: SIMD2<Int>, shape: CellRates.InteriorShape, cost: Int)

    /// The cheapest interior for cell c that measures within `target`, with its triangles,
    /// costing more than `least` triangles, other than `excluding` (the drawing the cell has),
    /// and at most `limit` segments each way; `nil` when none of the candidates tried does.
    /// `scratch` holds `points` and, past them, each candidate's interior samples; `out` its
    /// triangles (both kept across calls so that a round copies the points once).
    func cheapestPassing(
        cell c: Int, least: Int, below most: Int = .max, excluding: (SIMD2<Int>, CellRates.InteriorShape)?, limit: Int,
        target: Double, scratch: inout [Point3D], out: inout [SIMD3<Int32>]
    ) -> Found? {
        guard let patch = cells[c].patch, limit >= 2 else { return nil }
        let sides = SIMD4(layout.sideRate(c, 0), layout.sideRate(c, 1), layout.sideRate(c, 2), layout.sideRate(c, 3))
        var candidates = self.candidates(cell: c, sides: sides, limit: limit).filter { candidate in
            candidate.cost > least && candidate.cost < most
                && !(excluding.map { $0.0 == candidate.rates && $0.1 == candidate.shape } ?? false)
        }
        candidates.sort { ($0.cost, $0.skew, $0.shape, $0.rates.x) < ($1.cost, $1.skew, $1.shape, $1.rates.x) }
        let base = points.count
        // A sample's point, as the build samples it: `position(u:v:)` is the `to` of
        // `evaluate(u:v:)` to the bit without the derivatives and normal, which a trial never uses.
        func point(_ uv: SIMD2<Double>) -> Point3D { patch.position(u: uv.x, v: uv.y) * scale }
        for candidate in candidates.prefix(InteriorSearch.mostTrials) {
            let nu = candidate.rates.x, nv = candidate.rates.y
            let gridCount = (nu - 1) * (nv - 1)
            scratch.removeSubrange(base...)
            // The interior's samples at the parameters the build samples them at.
            let du = 1 / Double(nu), dv = 1 / Double(nv)
            for j in 1..<nv {
                for i in 1..<nu { scratch.append(point(SIMD2(Double(i) * du, Double(j) * dv))) }
            }
            if policy.needsCenters {
                if let strips = candidate.strips {
                    // A centre per square, strip by strip, as the build numbers them.
                    for s in 0..<strips.count where strips.isSquares(s) {
                        for k in 0..<strips.along {
                            let square = candidate.shape == .rows ? SIMD2(Double(k), Double(s)) : SIMD2(Double(s), Double(k))
                            scratch.append(point((square + 0.5) * SIMD2(du, dv)))
                        }
                    }
                } else {
                    for j in 1..<(nv - 1) {
                        for i in 1..<(nu - 1) {
                            scratch.append(point(SIMD2((Double(i) + 0.5) * du, (Double(j) + 0.5) * dv)))
                        }
                    }
                }
            }
            var trial = CellStitcher.TrialInterior(nu: nu, nv: nv, gridBase: base, centerBase: base + gridCount)
            trial.kind = candidate.shape == .rows ? .rows : candidate.shape == .columns ? .columns : .ring
            trial.strips = candidate.strips
            let deviation = measure(cell: c, patch: patch, points: scratch, out: &out, count: candidate.cost, target: target, trial: trial)
            if deviation <= target { return (candidate.rates, candidate.shape, candidate.cost) }
        }
        return nil
    }

    /// Triangles a cell that takes denser rates is charged for each segment they add to one of
    /// its sides: the neighbour there draws at least one more triangle a segment and, zipped to
    /// a side denser than its own grid, may miss τ and take a denser interior. Tuned on the
    /// held-out ripples: of 1, 3, 4, 5, 6 and 8, only 5 takes the 26 × 16 one under 0.35 of
    /// uniform (3 and 6 leave it 3 and 4 triangles over; 3 takes up to 0.6% fewer on five
    /// others), 1 takes more than without denser grids on the 24 × 24 one at τ = 0.35 pt, and 8
    /// leaves most cells in rings.
    static let sideGrowthCost = 5
    /// How many segments past its sides' rates a cell's denser grid may take each way: its own
    /// rates missed τ, and the grid at its sides' rates can miss it too.
    static let raiseReach = 1

    /// For cell c, drawn from its own `rates` (no interior of its own) and missing τ: the grid
    /// with at least its sides' rates each way and at most ``raiseReach`` more that measures
    /// within `target` drawn alone (as the build draws a cell whose sides carry its grid) and
    /// costs fewer than `below` triangles, counting ``sideGrowthCost`` for every segment it adds
    /// to a side; the cheapest such. `nil` when none does.
    ///
    /// Its sides carry the larger need of the cells on either side, so a cell next to denser
    /// neighbours is drawn as a ring or strips around its own grid, and where that misses, the
    /// cheapest interior that passes can cost twice its grid or more (a 2 × 2 grid with one side
    /// of three segments took a 4 × 4 interior, 25 triangles, on the 26 × 16 held-out ripple):
    /// the grid at its sides' rates, 3 × 2 there, takes 12.
    func raisedGrid(cell c: Int, rates: SIMD2<Int>, below: Int, target: Double) -> SIMD2<Int>? {
        guard let patch = cells[c].patch else { return nil }
        let r = SIMD4(layout.sideRate(c, 0), layout.sideRate(c, 1), layout.sideRate(c, 2), layout.sideRate(c, 3))
        let cap = AdaptiveTessellator.maximumRate
        let least = SIMD2(min(cap, max(rates.x, r[0], r[2])), min(cap, max(rates.y, r[1], r[3])))
        var options: [(cost: Int, rates: SIMD2<Int>)] = []
        for nu in least.x...min(cap, least.x + InteriorSearch.raiseReach) {
            for nv in least.y...min(cap, least.y + InteriorSearch.raiseReach) where SIMD2(nu, nv) != rates {
                let added = (nu - r[0]) + (nu - r[2]) + (nv - r[1]) + (nv - r[3])
                let cost = policy.trianglesPerQuad * nu * nv + InteriorSearch.sideGrowthCost * added
                if cost < below { options.append((cost, SIMD2(nu, nv))) }
            }
        }
        options.sort { ($0.cost, $0.rates.x) < ($1.cost, $1.rates.x) }
        let grids = MeasuredRates(patch: patch, scale: scale, policy: policy)
        return options.first { grids.measuredAsBuilt(nu: $0.rates.x, nv: $0.rates.y, mark: target) <= target }?.rates
    }

    /// The largest distance of cell c's triangles drawn with `trial`, measured as the build does
    /// for the pass mark `target` (ten points, the dense lattice near the mark); once over
    /// `target`, some distance over it.
    func measure(
        cell c: Int, patch: RationalPatch, points: [Point3D], out: inout [SIMD3<Int32>], count: Int, target: Double,
        trial: CellStitcher.TrialInterior
    ) -> Double {
        if out.count < count { out = [SIMD3<Int32>](repeating: .zero, count: count) }
        return out.withUnsafeMutableBufferPointer { buffer -> Double in
            guard let base = buffer.baseAddress else { return .infinity }
            var stitcher = CellStitcher(
                cell: c, layout: layout, points: points, policy: policy, patch: patch, fanCorner: cells[c].fanCorner,
                bound: cells[c].bound, scale: scale, output: SharedMutableBuffer(base: base), parameters: nil,
                origin: cells[c].origin, size: cells[c].size, cursor: 0)
            stitcher.trial = trial
            stitcher.mark = target
            stitcher.stopAbove = target
            stitcher.run()
            return stitcher.deviation
        }
    }
}

extension InteriorSearch {
    /// Cells one part of a parallel search takes at least: a cell's search costs from nothing (a
    /// cell not drawn inside a ring or strips) to ``mostTrials`` stitches, so fewer cells a part
    /// would not pay for its copy of `points`.
    static let leastCellsPerPart = 8

    /// Bytes the parts' copies of `points` may take together: each part copies all of them
    /// (some 13-16 MB on an 800,000-triangle mesh), so on many cores the copies alone would
    /// outgrow the mesh. 64 MiB allows several parts on any mesh this size, and the search on
    /// fewer parts only takes longer.
    static let scratchBudget = 64 << 20

    /// How many parts search `count` cells over `points` points: at most the cores, each of at
    /// least ``leastCellsPerPart`` cells, their copies of `points` within ``scratchBudget``;
    /// never fewer than 1.
    static func partCount(cells count: Int, points: Int) -> Int {
        let perCopy = Swift.max(1, points * MemoryLayout<Point3D>.stride)
        return Swift.max(1, Swift.min(ProcessInfoCores.count, count / leastCellsPerPart, scratchBudget / perCopy))
    }

    /// `body(c, scratch, out)` for every c of `cells`, on all cores, the results in the order of
    /// `cells`. Part p takes every parts-th cell from the p-th, so the cells that search long
    /// (which lie together, where the surface bends most) are spread over the parts; each part
    /// has its own `scratch` (starting as `points`) and `out`.
    ///
    /// The same results as one `body` after the other on one thread: a cell's search reads only
    /// the layout, the built points, the cell's own patch and whatever `body` captured before the
    /// parts start, and writes only its scratch, which every candidate overwrites past `points`
    /// before reading (``cheapestPassing(cell:least:below:excluding:limit:target:scratch:out:)``).
    func eachCell<Result>(_ cells: [Int], _ body: (Int, inout [Point3D], inout [SIMD3<Int32>]) -> Result) -> [Result] {
        // The part count decides only which thread searches which cell; the results are taken
        // in the order of `cells` whatever it is, so capping it for memory changes no output.
        let parts = InteriorSearch.partCount(cells: cells.count, points: points.count)
        let found = parallelParts(parts) { p -> [Result] in
            var scratch = points
            var out: [SIMD3<Int32>] = []
            return stride(from: p, to: cells.count, by: parts).map { body(cells[$0], &scratch, &out) }
        }
        return cells.indices.map { found[$0 % parts][$0 / parts] }
    }
}

extension CellRates {
    /// Gives each of `cells` the cheapest interior grid inside a joining ring that measures within
    /// τ with its sides as they are (``InteriorSearch``), up to ``interiorReach`` times its sides'
    /// larger rate. A cell's first search may take any interior but the one it drew; once it
    /// has an interior of its own, it must take a costlier one.
    /// When `raising`, a cell without an interior of its own takes instead the denser rates of
    /// ``InteriorSearch/raisedGrid(cell:rates:below:target:)`` where they cost less.
    /// Returns the cells for which no candidate passed (left unchanged): they need more samples
    /// on their sides; and whether a cell took denser rates, which reach its sides (so every
    /// cell is measured again).
    ///
    /// The cells are searched on all cores (``InteriorSearch/eachCell(_:_:)``) and take what
    /// they found in the order of `failing`: a cell's search reads only its own rates and
    /// interior, which no other cell's result changes.
    mutating func searchInteriors(
        _ failing: [Int], search: InteriorSearch, tolerance: Double, raising: Bool = true
    ) -> (unserved: [Int], raised: Bool) {
        if interior.count != u.count { interior = [SIMD2<Int>](repeating: .zero, count: u.count) }
        if interiorShape.count != u.count { interiorShape = [InteriorShape](repeating: .ring, count: u.count) }
        let layout = search.layout
        let asSearched = self
        let target = tolerance / AdaptiveTessellator.unmeasuredMargin
        let results = search.eachCell(failing) { c, scratch, out -> (found: InteriorSearch.Found?, raised: SIMD2<Int>?) in
            let limit = CellRates.interiorLimit(c, layout: layout)
            // The first search of a cell may take any interior but the one it drew; once the
            // cell has an interior of its own, only one of more triangles.
            let least = asSearched.interiorGrid(c) != nil ? layout.triangleBase[c + 1] - layout.triangleBase[c] : 0
            let drawn = CellRates.drawnInterior(c, layout: layout)
            let found = search.cheapestPassing(
                cell: c, least: least, excluding: drawn, limit: limit, target: target, scratch: &scratch, out: &out)
            // A cell drawn from its own rates may do better as a grid as dense as its sides (or
            // one segment denser), though that reaches its neighbours' sides.
            guard raising, asSearched.interiorGrid(c) == nil else { return (found, nil) }
            let raised = search.raisedGrid(
                cell: c, rates: SIMD2(asSearched.u[c], asSearched.v[c]), below: found?.cost ?? .max, target: target)
            return (found, raised)
        }
        var unchanged: [Int] = []
        var raised = false
        for (c, result) in zip(failing, results) {
            if let grid = result.raised {
                u[c] = grid.x
                v[c] = grid.y
                raised = true
            } else if let found = result.found {
                interior[c] = found.rates
                interiorShape[c] = found.shape
            } else {
                unchanged.append(c)
            }
        }
        return (unchanged, raised)
    }

    /// The densest interior rate a search of cell c tries: ``interiorReach`` times its sides'
    /// larger rate (at least 2), at most ``AdaptiveTessellator/maximumRate``.
    static func interiorLimit(_ c: Int, layout: AdaptiveLayout) -> Int {
        let sides = SIMD2(max(layout.sideRate(c, 0), layout.sideRate(c, 2)), max(layout.sideRate(c, 1), layout.sideRate(c, 3)))
        return min(AdaptiveTessellator.maximumRate, CellRates.interiorReach * max(sides.x, sides.y, 2))
    }

    /// Cell c's interior grid and how it meets the sides, as `layout` draws it; `nil` for a cell
    /// of any other ``AdaptiveLayout/Kind``.
    static func drawnInterior(_ c: Int, layout: AdaptiveLayout) -> (SIMD2<Int>, InteriorShape)? {
        let rates = SIMD2(layout.nu[c], layout.nv[c])
        switch layout.kind[c] {
        case .ring: return (rates, .ring)
        case .rows: return (rates, .rows)
        case .columns: return (rates, .columns)
        default: return nil
        }
    }

    /// Gives each of `passing` (cells that measured within τ) drawn as an interior grid inside a
    /// ring or in strips the cheapest drawing with fewer triangles that also measures within τ
    /// with its sides as they are, if any. A cell's own rates were estimated for the cell alone,
    /// but the sides carry the larger need of the cells on either side, and a ring or strips
    /// zipped to denser sides often pass with a coarser interior. Returns the cells changed.
    /// The cells are searched on all cores (``InteriorSearch/eachCell(_:_:)``), each on its own;
    /// those `settled` finds drawn as when they last found nothing are not searched again.
    mutating func cheapenInteriors(_ passing: [Int], search: InteriorSearch, tolerance: Double, settled: SettledCells? = nil) -> [Int] {
        if interior.count != u.count { interior = [SIMD2<Int>](repeating: .zero, count: u.count) }
        if interiorShape.count != u.count { interiorShape = [InteriorShape](repeating: .ring, count: u.count) }
        let layout = search.layout
        let target = tolerance / AdaptiveTessellator.unmeasuredMargin
        let current = search.drawing
        let results = search.eachCell(passing) { c, scratch, out -> InteriorSearch.Found? in
            guard let drawn = CellRates.drawnInterior(c, layout: layout), !(settled?.settles(c, current: current) ?? false) else {
                return nil
            }
            let limit = CellRates.interiorLimit(c, layout: layout)
            let count = layout.triangleBase[c + 1] - layout.triangleBase[c]
            return search.cheapestPassing(
                cell: c, least: 0, below: count, excluding: drawn, limit: limit, target: target, scratch: &scratch, out: &out)
        }
        var changed: [Int] = []
        for (c, result) in zip(passing, results) {
            guard let found = result else { continue }
            interior[c] = found.rates
            interiorShape[c] = found.shape
            changed.append(c)
        }
        return changed
    }
}
