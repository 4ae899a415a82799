/// A rational bicubic B-spline surface (a NURBS surface of degree 3 × 3) in points space.
///
/// Control points are stored row by row: point (i, j), with i along v and j along u, is
/// `controlPoints[i · countU + j]`, and its weight is `weights[i · countU + j]`. The knot vectors
/// are full (every knot listed as often as its multiplicity) and clamped: the first and last knots
/// appear four times, so the surface's edges are the rational B-spline curves of the boundary rows
/// and columns of control points, and its corners are the corner control points.
public struct NURBSSurface: Hashable, Sendable {
    /// The degree along both directions.
    public static let degree = 3

    /// Control points along u (columns of the control net).
    public let countU: Int
    /// Control points along v (rows of the control net).
    public let countV: Int
    /// `countU + 4` knots along u, non-decreasing and clamped.
    public let knotsU: [Double]
    /// `countV + 4` knots along v, non-decreasing and clamped.
    public let knotsV: [Double]
    /// `countU · countV` control points in points space, row by row.
    public let controlPoints: [Point3D]
    /// One weight per control point, each finite and greater than zero.
    public let weights: [Double]
    /// The control face this surface covers a part of, or `nil` for a surface covering the whole
    /// mesh (a grid).
    public let face: Int?
    /// Whether the surface is the limit surface exactly (up to rounding); `false` for the
    /// approximations next to extraordinary vertices.
    public let isExact: Bool
    /// For an approximation, the largest distance (points) found between it and the limit surface
    /// on a 17 × 17 grid of its parameters; 0 for an exact surface.
    public let deviation: Double

    /// Throws `.invalidValue` unless the counts, knots and weights describe a clamped cubic
    /// B-spline surface (at least 4 × 4 control points, knots non-decreasing with one span of
    /// positive length at least, weights finite and positive).
    public init(
        countU: Int, countV: Int, knotsU: [Double], knotsV: [Double], controlPoints: [Point3D], weights: [Double],
        face: Int? = nil, isExact: Bool = true, deviation: Double = 0
    ) throws {
        guard countU >= 4, countV >= 4, knotsU.count == countU + 4, knotsV.count == countV + 4,
            controlPoints.count == countU * countV, weights.count == controlPoints.count
        else {
            throw MeshError(
                .invalidValue, path: "",
                "a bicubic surface of \(countU) × \(countV) control points needs \(countU + 4) and \(countV + 4) knots and one weight per point"
            )
        }
        for knots in [knotsU, knotsV] {
            guard knots.allSatisfy(\.isFinite), zip(knots, knots.dropFirst()).allSatisfy({ $0 <= $1 }),
                knots[3] < knots[knots.count - 4]
            else {
                throw MeshError(.invalidValue, path: "", "knots must be finite, non-decreasing and span an interval")
            }
        }
        guard weights.allSatisfy({ $0.isFinite && $0 > 0 }), controlPoints.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite })
        else {
            throw MeshError(.invalidValue, path: "", "control points must be finite and weights finite and above zero")
        }
        self.init(
            unchecked: countU, countV: countV, knotsU: knotsU, knotsV: knotsV, controlPoints: controlPoints,
            weights: weights, face: face, isExact: isExact, deviation: deviation)
    }

    init(
        unchecked countU: Int, countV: Int, knotsU: [Double], knotsV: [Double], controlPoints: [Point3D],
        weights: [Double], face: Int?, isExact: Bool, deviation: Double
    ) {
        self.countU = countU
        self.countV = countV
        self.knotsU = knotsU
        self.knotsV = knotsV
        self.controlPoints = controlPoints
        self.weights = weights
        self.face = face
        self.isExact = isExact
        self.deviation = deviation
    }
}

public extension NURBSSurface {
    /// The parameter interval along u: from the fourth knot to the fourth from last.
    var domainU: ClosedRange<Double> { knotsU[3]...knotsU[knotsU.count - 4] }
    /// The parameter interval along v.
    var domainV: ClosedRange<Double> { knotsV[3]...knotsV[knotsV.count - 4] }

    /// The point at (u, v), parameters clamped to the domain: the weighted control points summed
    /// with the Cox–de Boor basis functions of both knot vectors, then divided by the summed
    /// weights. Independent of how the surface was made.
    func evaluate(u: Double, v: Double) -> Point3D {
        let (spanU, basisU) = NURBSSurface.basis(knots: knotsU, count: countU, at: u)
        let (spanV, basisV) = NURBSSurface.basis(knots: knotsV, count: countV, at: v)
        var sum = SIMD4<Double>()
        for a in 0...3 {
            let row = (spanV - 3 + a) * countU
            var rowSum = SIMD4<Double>()
            for b in 0...3 {
                let k = row + spanU - 3 + b
                let w = weights[k]
                let p = controlPoints[k]
                rowSum += basisU[b] * SIMD4(w * p.x, w * p.y, w * p.z, w)
            }
            sum += basisV[a] * rowSum
        }
        return SIMD3(sum.x, sum.y, sum.z) / sum.w
    }
}

extension NURBSSurface {
    /// The span index k (knots[k] ≤ t < knots[k + 1], with 3 ≤ k < count) and the four cubic
    /// basis functions that are not zero there, N(k−3) … N(k), by the Cox–de Boor recurrence
    /// (The NURBS Book, algorithms A2.1 and A2.2).
    static func basis(knots: [Double], count: Int, at parameter: Double) -> (Int, SIMD4<Double>) {
        let t = min(max(parameter, knots[3]), knots[count])
        var span = count - 1
        if t < knots[count] {
            var lo = 3, hi = count
            while hi - lo > 1 {
                let mid = (lo + hi) / 2
                if t < knots[mid] { hi = mid } else { lo = mid }
            }
            span = lo
        }
        var n = SIMD4<Double>(1, 0, 0, 0)
        var left = SIMD4<Double>(), right = SIMD4<Double>()
        for j in 1...3 {
            left[j] = t - knots[span + 1 - j]
            right[j] = knots[span + j] - t
            var saved = 0.0
            for r in 0..<j {
                let denominator = right[r + 1] + left[j - r]
                let term = denominator > 0 ? n[r] / denominator : 0
                n[r] = saved + right[r + 1] * term
                saved = left[j - r] * term
            }
            n[j] = saved
        }
        return (span, n)
    }
}
