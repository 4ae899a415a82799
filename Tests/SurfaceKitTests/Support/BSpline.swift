import Foundation

// An evaluator for uniform rational bicubic B-spline patches, written independently of SurfaceKit so
// that tests can compare the subdivision surface against mathematics rather than against itself.

/// A control value in homogeneous form: `(W·from.x, W·from.y, W·to.x, W·to.y, W·to.z, W, 0, 0)`.
typealias HomogeneousPoint = SIMD8<Double>

extension SIMD8 where Scalar == Double {
    /// The homogeneous value of a control point: every coordinate multiplied by its weight `w`.
    init(from: SIMD2<Double>, to: SIMD3<Double>, weight w: Double) {
        self.init(w * from.x, w * from.y, w * to.x, w * to.y, w * to.z, w, 0, 0)
    }

    var hWeight: Double { self[5] }
    var hFrom: SIMD2<Double> { SIMD2(self[0], self[1]) }
    var hTo: SIMD3<Double> { SIMD3(self[2], self[3], self[4]) }
    /// `from` after the division by W.
    var projectedFrom: SIMD2<Double> { hFrom / hWeight }
    /// `to` after the division by W.
    var projectedTo: SIMD3<Double> { hTo / hWeight }
}

/// Small vector helpers (SurfaceKit's own are internal; the tests use these).
enum Vec {
    static func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { (a * b).sum() }
    static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }
    static func length(_ a: SIMD3<Double>) -> Double { dot(a, a).squareRoot() }
    static func length(_ a: SIMD2<Double>) -> Double { (a * a).sum().squareRoot() }
    static func normalize(_ a: SIMD3<Double>) -> SIMD3<Double> { a / length(a) }
    /// The angle between two non-zero vectors, in radians (robust near 0).
    static func angle(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        let c = length(cross(a, b)), d = dot(a, b)
        return atan2(c, d)
    }
    /// Largest absolute component difference.
    static func maxDiff(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        let d = a - b
        return max(abs(d.x), abs(d.y), abs(d.z))
    }
    static func maxDiff(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
        let d = a - b
        return max(abs(d.x), abs(d.y))
    }
}

/// The uniform cubic B-spline basis on one knot interval, t ∈ [0, 1], written out as polynomials.
enum CubicBSpline {
    /// (B₀, B₁, B₂, B₃)(t) = ((1−t)³/6, (3t³−6t²+4)/6, (−3t³+3t²+3t+1)/6, t³/6).
    static func basis(_ t: Double) -> SIMD4<Double> {
        let s = 1 - t
        return SIMD4(
            s * s * s / 6,
            (3 * t * t * t - 6 * t * t + 4) / 6,
            (-3 * t * t * t + 3 * t * t + 3 * t + 1) / 6,
            t * t * t / 6)
    }

    /// The derivatives of ``basis(_:)``: (−(1−t)²/2, (9t²−12t)/6, (−9t²+6t+3)/6, t²/2).
    static func derivative(_ t: Double) -> SIMD4<Double> {
        let s = 1 - t
        return SIMD4(
            -s * s / 2,
            (9 * t * t - 12 * t) / 6,
            (-9 * t * t + 6 * t + 3) / 6,
            t * t / 2)
    }
}

/// One sample of a rational surface: the layer point, the surface point (unit space), and the unit
/// normal in points space.
struct PatchSample {
    var from: SIMD2<Double>
    var to: SIMD3<Double>
    var normal: SIMD3<Double>
}

/// A rational bicubic B-spline patch over a 4×4 grid of homogeneous control values.
/// `control[a][b]`: `a` runs along u (columns), `b` along v (rows); the patch covers the knot interval
/// between control columns 1 and 2 and rows 1 and 2, with (u, v) ∈ [0, 1]².
struct RationalBicubicPatch {
    var control: [[HomogeneousPoint]]

    init(control: [[HomogeneousPoint]]) {
        precondition(control.count == 4 && control.allSatisfy { $0.count == 4 })
        self.control = control
    }

    /// The homogeneous value and its two parameter derivatives.
    func homogeneous(u: Double, v: Double) -> (HomogeneousPoint, HomogeneousPoint, HomogeneousPoint) {
        let bu = CubicBSpline.basis(u), bv = CubicBSpline.basis(v)
        let du = CubicBSpline.derivative(u), dv = CubicBSpline.derivative(v)
        var s = HomogeneousPoint(), su = HomogeneousPoint(), sv = HomogeneousPoint()
        for a in 0..<4 {
            for b in 0..<4 {
                let c = control[a][b]
                s += bu[a] * bv[b] * c
                su += du[a] * bv[b] * c
                sv += bu[a] * dv[b] * c
            }
        }
        return (s, su, sv)
    }

    /// The rational point P = S/W and the normal normalize(Pu × Pv) in points space, with
    /// Pu = (Su − P·Wu)/W (quotient rule), points = unit `to` scaled per axis by `pointScale`.
    func evaluate(u: Double, v: Double, pointScale: SIMD3<Double>) -> PatchSample {
        let (s, su, sv) = homogeneous(u: u, v: v)
        let w = s.hWeight
        let p = s.projectedTo
        let pu = (su.hTo - p * su.hWeight) / w
        let pv = (sv.hTo - p * sv.hWeight) / w
        let n = Vec.cross(pu * pointScale, pv * pointScale)
        return PatchSample(from: s.projectedFrom, to: p, normal: Vec.normalize(n))
    }
}
