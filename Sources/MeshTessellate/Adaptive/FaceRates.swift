import RealModule
import SurfaceKit

/// The density each control face asks for: segments along u and along v.
struct FaceRates: Sendable {
    var u: [Int]
    var v: [Int]
    /// −1 for a B-spline face; for a face at an extraordinary or non-manifold vertex, the dyadic
    /// level n of its grid (rates 2ⁿ).
    var level: [Int]
    /// Each irregular face's exact samples on the grid of level n + 1 (its points and the centres
    /// and midpoints of its cells).
    var grids: [Int: FaceGrid]
    /// For irregular faces, the deviation measured on that finer grid; 0 elsewhere.
    var irregularDeviation: [Double]

    var irregularCount: Int { grids.count }

    /// Estimates every face's rates for tolerance `tolerance` (points).
    static func estimate(
        surfaces: FaceSurfaces, patches: [RationalPatch?], mesh: MeshTransform, weights: [Double],
        scale: SIMD3<Double>, policy: DiagonalPolicy, tolerance: Double, maximumTriangles: Int
    ) throws -> FaceRates {
        let count = surfaces.faceCount
        let target = tolerance / AdaptiveTessellator.safety
        var needs = [SIMD2<Double>](repeating: SIMD2(1, 1), count: count)
        needs.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let out = SharedMutableBuffer(base: base)
            parallelChunks(count, minimumChunk: 2048) { range in
                for f in range {
                    guard let patch = patches[f] else { continue }
                    let samples = FaceRates.secondDerivatives(patch, scale: scale)
                    out.base[f] = FaceRates.rates(samples: samples, policy: policy, tolerance: target)
                }
            }
        }
        // A face asking for more than the most segments: refuse, with the count it would take.
        let cap = Double(AdaptiveTessellator.maximumRate)
        if let f = needs.indices.first(where: { !(needs[$0].x <= cap && needs[$0].y <= cap) }) {
            let total = needs.reduce(0.0) { $0 + 2 * min($1.x, 1e9) * min($1.y, 1e9) }
            throw MeshError(
                .limitExceeded, path: "faces[\(f)]",
                "a tolerance of \(tolerance) points needs \(FaceRates.describe(needs[f])) segments along this face (the most is \(AdaptiveTessellator.maximumRate)); about \(FaceRates.describe(total)) triangles in all"
            )
        }
        var rates = FaceRates(
            u: needs.map { Int($0.x) }, v: needs.map { Int($0.y) }, level: [Int](repeating: -1, count: count),
            grids: [:], irregularDeviation: [Double](repeating: 0, count: count))
        // Irregular faces: each refines its own ring, in parallel. Their refinement work shares a
        // quarter of the triangle budget (at least 2²⁰ quads in all; a refined quad costs a few
        // hundred bytes while it lives), so a mesh with many of them, or one whose surface
        // converges slowly next to such a vertex, is refused before it takes long or much memory.
        let irregular = (0..<count).filter { patches[$0] == nil }
        let share = max(4096, max(maximumTriangles / 4, 1 << 20) / max(1, irregular.count))
        var found = [Result<(Int, FaceGrid, Double), MeshError>?](repeating: nil, count: irregular.count)
        found.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let out = SharedMutableBuffer(base: base)
            parallelChunks(irregular.count, minimumChunk: 1) { range in
                for k in range {
                    do {
                        out.base[k] = .success(
                            try FaceRates.irregularLevel(
                                face: irregular[k], surfaces: surfaces, mesh: mesh, weights: weights, scale: scale,
                                tolerance: tolerance, maximumQuads: share, maximumTriangles: maximumTriangles))
                    } catch let error as MeshError {
                        out.base[k] = .failure(error)
                    } catch {
                        out.base[k] = .failure(MeshError(.invalidValue, path: "faces[\(irregular[k])]", "\(error)"))
                    }
                }
            }
        }
        for (k, f) in irregular.enumerated() {
            guard let (n, grid, deviation) = try found[k]?.get() else { continue }
            rates.level[f] = n
            rates.u[f] = 1 << n
            rates.v[f] = 1 << n
            rates.grids[f] = grid
            rates.irregularDeviation[f] = deviation
        }
        return rates
    }

    /// Makes the failing B-spline faces denser in proportion to how far they missed. Returns false
    /// when none could grow (all at the most segments).
    mutating func densify(_ faces: [Int], deviations: [Double], tolerance: Double) -> Bool {
        var grew = false
        let cap = AdaptiveTessellator.maximumRate
        // In Double, capped before converting: a deviation that overflowed to infinity (absurd
        // coordinates) asks for the most segments instead of trapping in Int(_:).
        func grown(_ rate: Int, _ factor: Double) -> Int {
            let wanted = (Double(rate) * factor).rounded(.up)
            return wanted < Double(cap) ? max(rate + 1, Int(wanted)) : cap
        }
        for f in faces where level[f] < 0 {
            let factor = (deviations[f] / tolerance).squareRoot() * 1.15
            let nu = min(cap, grown(u[f], factor))
            let nv = min(cap, grown(v[f], factor))
            if nu != u[f] || nv != v[f] { grew = true }
            u[f] = nu
            v[f] = nv
        }
        return grew
    }

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
    /// |hu²P_uu ± 2·hu·hv·P_uv + hv²P_vv|/8. Fixed diagonals take the worse sign; `shortest` and
    /// `surface` pick the diagonal across which the surface bends less, so they take the better
    /// one (the measurement catches a face where they did not); `center` splits at the centre,
    /// so its half-diagonals err a quarter as much.
    static func error(_ samples: [PatchCurvature], nu: Double, nv: Double, policy: DiagonalPolicy) -> Double {
        let hu = 1 / nu, hv = 1 / nv
        func norm(_ p: Point3D) -> Double { (p * p).sum().squareRoot() }
        var worst = 0.0
        for c in samples {
            let a = c.uu * (hu * hu), b = c.uv * (2 * hu * hv), d = c.vv * (hv * hv)
            let plus = norm(a + b + d), minus = norm(a - b + d)
            let diagonal: Double
            switch policy {
            case .first, .second: diagonal = max(plus, minus)
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

    /// The smallest dyadic level whose grid is within `tolerance` for an irregular face, measured
    /// on the next level's exact points, with that next level's grid. Refining the face's ring to
    /// level L makes ring × 4ᴸ quads; past `maximumQuads` the request is refused with the count.
    static func irregularLevel(
        face f: Int, surfaces: FaceSurfaces, mesh: MeshTransform, weights: [Double], scale: SIMD3<Double>,
        tolerance: Double, maximumQuads: Int, maximumTriangles: Int
    ) throws -> (Int, FaceGrid, Double) {
        let ringFaces = surfaces.ring(ofFace: f).count
        var evaluated = 3
        for _ in 0..<SubdivisionPlan.maximumSteps {
            let quads = Double(ringFaces) * Double.pow(4, Double(evaluated))
            guard evaluated <= SubdivisionPlan.maximumSteps, quads <= Double(maximumQuads) else {
                throw MeshError(
                    .limitExceeded, path: "faces[\(f)]",
                    "a tolerance of \(tolerance) points needs \(evaluated - 1) or more refinement steps near this face's extraordinary vertex (\(FaceRates.describe(2 * Double.pow(4, Double(evaluated - 1)))) or more triangles on it; the budget of \(maximumTriangles) triangles allows it \(maximumQuads) quads of refinement work: raise --max-triangles or the tolerance)"
                )
            }
            let grid = try surfaces.grid(
                ofFace: f, level: evaluated, vertices: mesh.vertices, weights: weights, pointScale: scale)
            var deviations: [Double] = []
            for n in 0..<evaluated {
                let deviation = dyadicDeviation(grid, level: n, scale: scale)
                if deviation <= tolerance, let coarse = grid.coarsened(to: 1 << (n + 1)) {
                    return (n, coarse, deviation)
                }
                deviations.append(deviation)
            }
            // Predict the level from how fast the deviation fell over the last two levels: by
            // four on smooth patches, by as little as two next to a kink or a non-manifold vertex.
            let last = deviations[deviations.count - 1], before = deviations[deviations.count - 2]
            var ratio = last > 0 && before.isFinite ? before / last : 4
            ratio = min(4, max(1.5, ratio.isFinite ? ratio : 4))
            let more = last.isFinite ? Int((Double.log(last / tolerance) / Double.log(ratio)).rounded(.up)) : 1
            evaluated += min(max(more, 1), 4)
        }
        throw MeshError(
            .limitExceeded, path: "faces[\(f)]", "no refinement level up to \(evaluated) meets a tolerance of \(tolerance) points")
    }

    /// An upper estimate of the distance between the level-n triangles and the surface, from the
    /// grid's exact points at the midpoints of their edges: an error that is quadratic over a
    /// triangle is at most 4/3 of its largest value at the edge midpoints.
    static func dyadicDeviation(_ grid: FaceGrid, level n: Int, scale: SIMD3<Double>) -> Double {
        let cells = 1 << n
        let stride = grid.resolution / cells, half = stride / 2
        guard half >= 1 else { return .infinity }
        func p(_ i: Int, _ j: Int) -> Point3D { grid.samples.to[grid.index(i, j)] * scale }
        func gap(_ m: Point3D, _ a: Point3D, _ b: Point3D) -> Double {
            let d = m - (a + b) / 2
            return (d * d).sum().squareRoot()
        }
        var worst = 0.0
        for j in 0..<cells {
            for i in 0..<cells {
                let x = i * stride, y = j * stride
                let a = p(x, y), b = p(x + stride, y), c = p(x + stride, y + stride), d = p(x, y + stride)
                let centre = p(x + half, y + half)
                worst = max(
                    worst, gap(p(x + half, y), a, b), gap(p(x + stride, y + half), b, c),
                    gap(p(x + half, y + stride), d, c), gap(p(x, y + half), a, d),
                    gap(centre, a, c), gap(centre, b, d))
            }
        }
        return worst * 4 / 3
    }
}
