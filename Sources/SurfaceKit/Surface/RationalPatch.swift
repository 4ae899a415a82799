/// A uniform rational bicubic B-spline patch: the limit surface over one sub-quad whose 4 × 4
/// neighbourhood of refined control points is regular (Docs/surface.md).
///
/// Control values are homogeneous, `(W·from.x, W·from.y, W·to.x, W·to.y, W·to.z, W, 0, 0)`, stored
/// row by row: `control[4·row + column]`, rows along v (top to bottom), columns along u (left to
/// right). The patch covers the knot interval between rows 1 and 2 and columns 1 and 2, so
/// (u, v) = (0, 0) is the sub-quad's top-left corner and (1, 1) its bottom-right.
public struct RationalPatch: Hashable, Sendable {
    public var control: [SIMD8<Double>]

    /// Returns `nil` unless there are exactly 16 control values.
    public init?(control: [SIMD8<Double>]) {
        guard control.count == 16 else { return nil }
        self.control = control
    }

    /// The rational point at (u, v) with its first derivatives, in unit coordinates.
    public func evaluate(u: Double, v: Double) -> PatchPoint {
        let bu = RationalPatch.basis(u), bv = RationalPatch.basis(v)
        let du = RationalPatch.derivative(u), dv = RationalPatch.derivative(v)
        var s = SIMD8<Double>(), su = SIMD8<Double>(), sv = SIMD8<Double>()
        for row in 0..<4 {
            var r = SIMD8<Double>(), ru = SIMD8<Double>()
            for column in 0..<4 {
                let c = control[4 * row + column]
                r += bu[column] * c
                ru += du[column] * c
            }
            s += bv[row] * r
            su += bv[row] * ru
            sv += dv[row] * r
        }
        // Quotient rule on P = S/W: P' = (S' − P·W')/W.
        let w = s[5]
        let p = s / w
        let pu = (su - p * su[5]) / w
        let pv = (sv - p * sv[5]) / w
        return PatchPoint(
            from: SIMD2(p[0], p[1]), to: SIMD3(p[2], p[3], p[4]),
            fromU: SIMD2(pu[0], pu[1]), fromV: SIMD2(pv[0], pv[1]),
            toU: SIMD3(pu[2], pu[3], pu[4]), toV: SIMD3(pv[2], pv[3], pv[4]))
    }
}

/// A point of a ``RationalPatch`` with its first derivatives along u and v, in unit coordinates.
public struct PatchPoint: Hashable, Sendable {
    public var from: LayerPoint
    public var to: Point3D
    public var fromU: SIMD2<Double>
    public var fromV: SIMD2<Double>
    public var toU: Point3D
    public var toV: Point3D
}

extension RationalPatch {
    /// The uniform cubic B-spline basis on one knot interval.
    @inline(__always)
    static func basis(_ t: Double) -> SIMD4<Double> {
        let s = 1 - t, t2 = t * t, t3 = t2 * t
        return SIMD4(s * s * s, 3 * t3 - 6 * t2 + 4, -3 * t3 + 3 * t2 + 3 * t + 1, t3) / 6
    }

    @inline(__always)
    static func derivative(_ t: Double) -> SIMD4<Double> {
        let s = 1 - t
        return SIMD4(-s * s / 2, (3 * t * t - 4 * t) / 2, (-3 * t * t + 2 * t + 1) / 2, t * t / 2)
    }
}
