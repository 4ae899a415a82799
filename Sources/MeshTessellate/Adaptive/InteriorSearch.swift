import SurfaceKit

/// Chooses, for a cell that missed τ, the interior grid with the fewest triangles that measures
/// within τ inside a joining ring to its sides' samples as they are.
///
/// A cell's sides carry the larger rate of the cells on either side, so a cell drawn next to
/// denser neighbours is a ring zipping its sides' samples to an interior grid, and the ring's
/// triangles can miss τ where the cell's own grid did not. Growing the interior by how far it
/// missed overshoots (the error of a ring is not that of a grid), so here each candidate grid is
/// drawn as the build would draw it — the same stitcher, the same surface samples, the same
/// points measured — and the cheapest that passes is taken. Once a cell has an interior of its
/// own, candidates cost more than what it drew, so rounds that keep every side still end. An interior asks nothing
/// of the sides, so no neighbour changes.
struct InteriorSearch {
    let cells: [AdaptiveCell]
    let layout: AdaptiveLayout
    /// The built positions in points, every output vertex.
    let points: [Point3D]
    let sampler: FaceSampler
    let policy: DiagonalPolicy
    let scale: SIMD3<Double>

    /// Candidates drawn at most per cell: each costs one stitch of the cell. The cheapest
    /// candidates are often too coarse, so fewer trials (24 were measured) leave cells that an
    /// interior would serve to more samples on their sides, which reach their neighbours; on
    /// the held-out ripples no cell took a candidate past the 64th.
    static let mostTrials = 64

    /// The triangles of cell c drawn as a ring around an nu × nv interior, with side rates `sides`.
    func triangles(_ sides: SIMD4<Int>, _ nu: Int, _ nv: Int) -> Int {
        (nu - 2) * (nv - 2) * policy.trianglesPerQuad + sides.wrappedSum() + 2 * (nu + nv) - 8
    }

    /// The cheapest interior for cell c that measures within `target`, costing more than
    /// `least` triangles, other than `excluding`, and at most `limit` segments each way; `nil`
    /// when none of the candidates tried does.
    /// `scratch` holds `points` and, past them, each candidate's interior samples; `out` its
    /// triangles (both kept across calls so that a round copies the points once).
    func cheapestPassing(
        cell c: Int, least: Int, excluding: SIMD2<Int>?, limit: Int, target: Double, scratch: inout [Point3D],
        out: inout [SIMD3<Int32>]
    ) -> SIMD2<Int>? {
        guard let patch = cells[c].patch, limit >= 2 else { return nil }
        let sides = SIMD4(layout.sideRate(c, 0), layout.sideRate(c, 1), layout.sideRate(c, 2), layout.sideRate(c, 3))
        let wide = SIMD2(max(sides[0], sides[2]), max(sides[1], sides[3]))
        var candidates: [(cost: Int, skew: Int, rates: SIMD2<Int>)] = []
        for nu in 2...limit {
            for nv in 2...limit {
                let cost = triangles(sides, nu, nv)
                guard cost > least, SIMD2(nu, nv) != excluding else { continue }
                candidates.append((cost, abs(nu * wide.y - nv * wide.x), SIMD2(nu, nv)))
            }
        }
        candidates.sort { ($0.cost, $0.skew, $0.rates.x) < ($1.cost, $1.skew, $1.rates.x) }
        let base = points.count
        for candidate in candidates.prefix(InteriorSearch.mostTrials) {
            let nu = candidate.rates.x, nv = candidate.rates.y
            let gridCount = (nu - 1) * (nv - 1)
            let centerCount = policy.needsCenters ? (nu - 2) * (nv - 2) : 0
            scratch.removeSubrange(base...)
            // The interior's samples at the parameters the build samples them at.
            let du = 1 / Double(nu), dv = 1 / Double(nv)
            for j in 1..<nv {
                for i in 1..<nu { scratch.append(sampler.sample(cell: c, SIMD2(Double(i) * du, Double(j) * dv)).to * scale) }
            }
            if centerCount > 0 {
                for j in 1..<(nv - 1) {
                    for i in 1..<(nu - 1) {
                        scratch.append(sampler.sample(cell: c, SIMD2((Double(i) + 0.5) * du, (Double(j) + 0.5) * dv)).to * scale)
                    }
                }
            }
            let deviation = measure(
                cell: c, patch: patch, points: scratch, out: &out, count: candidate.cost, target: target,
                trial: CellStitcher.TrialInterior(nu: nu, nv: nv, gridBase: base, centerBase: base + gridCount))
            if deviation <= target { return candidate.rates }
        }
        return nil
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

extension CellRates {
    /// Gives each of `cells` the cheapest interior grid inside a joining ring that measures within
    /// τ with its sides as they are (``InteriorSearch``), up to ``interiorReach`` times its sides'
    /// larger rate. A cell's first search may take any interior but the one it drew; once it
    /// has an interior of its own, it must take a costlier one.
    /// Returns the cells for which no candidate passed (left unchanged): they need more samples
    /// on their sides.
    mutating func searchInteriors(_ failing: [Int], search: InteriorSearch, tolerance: Double) -> [Int] {
        if interior.count != u.count { interior = [SIMD2<Int>](repeating: .zero, count: u.count) }
        let layout = search.layout
        var unchanged: [Int] = []
        var scratch = search.points
        var out: [SIMD3<Int32>] = []
        for c in failing {
            let sides = SIMD2(max(layout.sideRate(c, 0), layout.sideRate(c, 2)), max(layout.sideRate(c, 1), layout.sideRate(c, 3)))
            let limit = min(AdaptiveTessellator.maximumRate, CellRates.interiorReach * max(sides.x, sides.y, 2))
            // The first search of a cell may take any interior but the one it drew; once the
            // cell has an interior of its own, only one of more triangles.
            let least = interiorGrid(c) != nil ? layout.triangleBase[c + 1] - layout.triangleBase[c] : 0
            let drawn = layout.kind[c] == .ring ? SIMD2(layout.nu[c], layout.nv[c]) : nil
            if let found = search.cheapestPassing(
                cell: c, least: least, excluding: drawn, limit: limit, target: tolerance / AdaptiveTessellator.unmeasuredMargin,
                scratch: &scratch, out: &out)
            {
                interior[c] = found
            } else {
                unchanged.append(c)
            }
        }
        return unchanged
    }
}
