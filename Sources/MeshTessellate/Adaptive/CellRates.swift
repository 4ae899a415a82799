import RealModule
import SurfaceKit

/// The density each cell asks for: segments along its u and along its v.
struct CellRates: Sendable {
    var u: [Int]
    var v: [Int]
    /// Per cell, an interior grid drawn inside a joining ring in place of its own rates (zero:
    /// none). Unlike `u` and `v` it asks nothing of the cell's sides, so a cell that misses τ can
    /// be made denser inside without changing a neighbour (``searchInteriors(_:search:tolerance:)``).
    var interior: [SIMD2<Int>] = []
    /// Per cell with an interior grid of its own, how it is joined to the sides (empty: rings).
    var interiorShape: [InteriorShape] = []

    /// How a cell's own interior grid meets its sides.
    enum InteriorShape: UInt8, Sendable, Comparable {
        /// A ring of triangles zips every side's samples to the grid's outer row.
        case ring
        /// Lines along u at the left and right sides' samples (nv of them, evenly spaced), nu
        /// segments each: squares between lines, a zipper only against a bottom or top side
        /// sampled otherwise (``AdaptiveLayout/Kind/rows``).
        case rows
        /// The same with u and v exchanged (``AdaptiveLayout/Kind/columns``).
        case columns

        static func < (a: InteriorShape, b: InteriorShape) -> Bool { a.rawValue < b.rawValue }
    }

    /// Cell c's interior grid, when it has one of its own.
    func interiorGrid(_ c: Int) -> SIMD2<Int>? {
        c < interior.count && interior[c] != .zero ? interior[c] : nil
    }

    /// How cell c's own interior grid meets its sides (a ring when it has none).
    func shape(_ c: Int) -> InteriorShape {
        c < interiorShape.count ? interiorShape[c] : .ring
    }

    /// Estimates every patch cell's rates for tolerance `tolerance` (points); corner squares take 1.
    static func estimate(cells: [AdaptiveCell], scale: SIMD3<Double>, policy: DiagonalPolicy, tolerance: Double) throws -> CellRates {
        let count = cells.count
        let target = tolerance / AdaptiveTessellator.safety
        var needs = [SIMD2<Double>](repeating: SIMD2(1, 1), count: count)
        needs.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let out = SharedMutableBuffer(base: base)
            parallelChunks(count, minimumChunk: 2048) { range in
                for c in range {
                    guard let patch = cells[c].patch else { continue }
                    let samples = CellRates.secondDerivatives(patch, scale: scale)
                    let estimate = CellRates.rates(samples: samples, policy: policy, tolerance: target)
                    guard estimate.x <= Double(MeasuredRates.largestSearch), estimate.y <= Double(MeasuredRates.largestSearch) else {
                        out.base[c] = estimate
                        continue
                    }
                    let lowered = MeasuredRates(patch: patch, scale: scale, policy: policy).lowered(
                        SIMD2(Int(estimate.x), Int(estimate.y)), target: tolerance / AdaptiveTessellator.unmeasuredMargin)
                    out.base[c] = SIMD2(Double(lowered.x), Double(lowered.y))
                }
            }
        }
        // A cell asking for more than the most segments: refuse, with the count it would take.
        let cap = Double(AdaptiveTessellator.maximumRate)
        if let c = needs.indices.first(where: { !(needs[$0].x <= cap && needs[$0].y <= cap) }) {
            let total = needs.reduce(0.0) { $0 + 2 * min($1.x, 1e9) * min($1.y, 1e9) }
            throw MeshError(
                .limitExceeded, path: "faces[\(cells[c].face)]",
                "a tolerance of \(tolerance) points needs \(CellRates.describe(needs[c])) segments along this face (the most is \(AdaptiveTessellator.maximumRate)); about \(CellRates.describe(total)) triangles in all"
            )
        }
        return CellRates(u: needs.map { Int($0.x) }, v: needs.map { Int($0.y) })
    }

    /// Makes the failing cells denser in proportion to how far they missed (the error of a grid
    /// goes with the square of its spacing), at least doubling them when `aggressive`. Every
    /// failing rate below the most grows by one or more, none shrinks. Returns false when none
    /// could grow (all at the most segments).
    mutating func densify(_ cells: [Int], deviations: [Double], tolerance: Double, aggressive: Bool = false) -> Bool {
        var grew = false
        let cap = AdaptiveTessellator.maximumRate
        // In Double, capped before converting: a deviation that overflowed to infinity (absurd
        // coordinates) asks for the most segments instead of trapping in Int(_:).
        func grown(_ rate: Int, _ factor: Double) -> Int {
            let wanted = (Double(rate) * factor).rounded(.up)
            return wanted < Double(cap) ? max(rate + 1, Int(wanted)) : cap
        }
        for c in cells {
            let missed = (deviations[c] / tolerance).squareRoot() * 1.15
            // NaN (a deviation that could not be measured) stays NaN, which `grown` sends to the cap.
            let factor = aggressive ? (missed >= 2 || missed.isNaN ? missed : 2) : missed
            let nu = min(cap, grown(u[c], factor))
            let nv = min(cap, grown(v[c], factor))
            if nu != u[c] || nv != v[c] { grew = true }
            u[c] = nu
            v[c] = nv
            // The grown rates reach the sides; the cell is drawn afresh from them.
            if c < interior.count { interior[c] = .zero }
            if c < interiorShape.count { interiorShape[c] = .ring }
        }
        return grew
    }

    /// Interiors are searched up to this many times the sides' largest rate: past that a ring's
    /// triangles are as narrow as the sides' samples allow, and a cell still over τ needs more
    /// samples on its sides (``densify(_:deviations:tolerance:aggressive:)``).
    static let interiorReach = 2

    static func describe(_ x: Double) -> String {
        x.isFinite && x < 1e15 ? "\(Int(x.rounded(.up)))" : "an unbounded number of"
    }

    static func describe(_ need: SIMD2<Double>) -> String {
        describe(max(need.x, need.y))
    }

    /// A face's second derivatives P_uu, P_uv and P_vv in points, sampled on a 3 × 3 grid of
    /// parameters (u, v ∈ {0, ½, 1}). For a polynomial patch P_uu is linear in u and P_vv in
    /// v, so their largest values along those directions are at the sampled ends; between the
    /// other samples ``samplingMargin`` covers what they miss, and the measurement after building
    /// has the last word.
    static func secondDerivatives(_ patch: RationalPatch, scale: SIMD3<Double>) -> [PatchCurvature] {
        patch.curvatureGrid(samples: 3).map { c in
            PatchCurvature(uu: c.uu * scale, uv: c.uv * scale, vv: c.vv * scale)
        }
    }

    /// What sampled maxima may miss between the samples.
    static let samplingMargin = 1.1

    /// The distance from the surface of a grid of nu × nv cells split into triangles by `policy`,
    /// for second derivatives `samples`. Interpolating a quadratic along a segment d errs by
    /// |dᵀHd|/8 at its midpoint, and on a triangle whose quadratic form is semi-definite (as on
    /// a ripple, bent one way) the largest error is at an edge midpoint. A cell's edges are
    /// (hu, 0), (0, hv) and a diagonal (hu, ±hv): the error of the diagonal is
    /// |hu²P_uu ± 2·hu·hv·P_uv + hv²P_vv|/8. A fixed diagonal has a known direction in the
    /// cell's (u, v): `first` joins (0, 0) to (1, 1), the + sign, and `second` joins (1, 0) to
    /// (0, 1), the − sign (the interior grid's quads are split that way; the ring's triangles are
    /// measured). `shortest` and `surface` pick the diagonal across which the surface bends less,
    /// so they take the better sign (the measurement catches a face where they did not); `center`
    /// splits at the centre, so its half-diagonals err a quarter as much.
    static func error(_ samples: [PatchCurvature], nu: Double, nv: Double, policy: DiagonalPolicy) -> Double {
        let hu = 1 / nu, hv = 1 / nv
        func norm(_ p: Point3D) -> Double { (p * p).sum().squareRoot() }
        var worst = 0.0
        for c in samples {
            let a = c.uu * (hu * hu), b = c.uv * (2 * hu * hv), d = c.vv * (hv * hv)
            let plus = norm(a + b + d), minus = norm(a - b + d)
            let diagonal: Double
            switch policy {
            case .first: diagonal = plus
            case .second: diagonal = minus
            case .shortest, .surface: diagonal = min(plus, minus)
            case .center: diagonal = max(plus, minus) / 4
            }
            worst = max(worst, norm(a), norm(d), diagonal)
        }
        return worst / 8 * samplingMargin
    }

    /// The fewest segments (nu, nv), by product, whose grid is within `tolerance` by
    /// ``error(_:nu:nv:policy:)``; infinite when no grid of at most the most segments is.
    static func rates(samples: [PatchCurvature], policy: DiagonalPolicy, tolerance: Double) -> SIMD2<Double> {
        func fits(_ nu: Double, _ nv: Double) -> Bool {
            let e = error(samples, nu: nu, nv: nv, policy: policy)
            return e <= tolerance
        }
        if fits(1, 1) { return SIMD2(1, 1) }
        var largestUU = 0.0, largestVV = 0.0
        for c in samples {
            largestUU = max(largestUU, (c.uu * c.uu).sum().squareRoot())
            largestVV = max(largestVV, (c.vv * c.vv).sum().squareRoot())
        }
        guard largestUU.isFinite, largestVV.isFinite else { return SIMD2(.infinity, .infinity) }
        let limit = Double(AdaptiveTessellator.maximumRate)
        // The edges alone need nu ≥ √(|P_uu|·margin/8τ) and likewise nv.
        let startU = max(1, (largestUU * samplingMargin / (8 * tolerance)).squareRoot().rounded(.up))
        let startV = max(1, (largestVV * samplingMargin / (8 * tolerance)).squareRoot().rounded(.up))
        var best = SIMD2<Double>(.infinity, .infinity)
        var bestProduct = Double.infinity
        // Beyond the most segments: the edges' own need, which the caller reports.
        guard startU <= limit, startV <= limit else { return SIMD2(startU, startV) }
        for step in 0..<64 {
            let nu = startU + Double(step)
            if nu > limit || nu * startV >= bestProduct { break }
            // The smallest nv that fits: doubling, then halving the bracket.
            var low = startV
            if !fits(nu, low) {
                var high = low * 2
                while high <= limit, !fits(nu, high) { high *= 2 }
                if high > limit {
                    guard fits(nu, limit) else { continue }
                    high = limit
                }
                while high - low > 1 {
                    let middle = ((low + high) / 2).rounded(.down)
                    if fits(nu, middle) { high = middle } else { low = middle }
                }
                low = high
            }
            if nu * low < bestProduct {
                bestProduct = nu * low
                best = SIMD2(nu, low)
            }
        }
        return best.x.isFinite ? best : SIMD2(startU, limit + 1)
    }
}
