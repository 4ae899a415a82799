/// Second derivatives of a patch's `to`, which bound how far a flat triangle can stray from it.
public struct PatchCurvature: Hashable, Sendable {
    /// ∂²P/∂u², ∂²P/∂u∂v and ∂²P/∂v² of the rational point, in unit coordinates.
    public var uu: Point3D
    public var uv: Point3D
    public var vv: Point3D

    public init(uu: Point3D, uv: Point3D, vv: Point3D) {
        self.uu = uu
        self.uv = uv
        self.vv = vv
    }
}

extension RationalPatch {
    /// The second derivatives of the rational point `to` at (u, v).
    ///
    /// With S the homogeneous (polynomial) point and W its weight, P = S/W gives
    /// P_uu = (S_uu − 2 P_u W_u − P W_uu)/W, P_uv = (S_uv − P_u W_v − P_v W_u − P W_uv)/W and
    /// P_vv = (S_vv − 2 P_v W_v − P W_vv)/W.
    public func curvature(u: Double, v: Double) -> PatchCurvature {
        let bu = RationalPatch.basis(u), bv = RationalPatch.basis(v)
        let du = RationalPatch.derivative(u), dv = RationalPatch.derivative(v)
        let ddu = RationalPatch.secondDerivative(u), ddv = RationalPatch.secondDerivative(v)
        var s = SIMD8<Double>(), su = s, sv = s, suu = s, suv = s, svv = s
        for row in 0..<4 {
            var r = SIMD8<Double>(), ru = r, ruu = r
            for column in 0..<4 {
                let c = control[4 * row + column]
                r += bu[column] * c
                ru += du[column] * c
                ruu += ddu[column] * c
            }
            s += bv[row] * r
            su += bv[row] * ru
            sv += dv[row] * r
            suu += bv[row] * ruu
            suv += dv[row] * ru
            svv += ddv[row] * r
        }
        return RationalPatch.curvature(s: s, su: su, sv: sv, suu: suu, suv: suv, svv: svv)
    }

    /// ``curvature(u:v:)`` on the n × n grid of parameters u, v ∈ {0, 1/(n−1), …, 1} (v-major),
    /// sharing the along-u sums of each column of parameters: about half the work of calling
    /// ``curvature(u:v:)`` n² times, with no allocation but the result.
    ///
    /// The second derivatives of `to` need only the `to` lanes and the weight (lanes 2–5), so the
    /// sums and the quotient rule run on those four lanes: each lane is computed as
    /// ``curvature(u:v:)`` computes it, the same products in the same order, so the result is the
    /// same to the bit for half the arithmetic.
    public func curvatureGrid(samples n: Int) -> [PatchCurvature] {
        guard n >= 2 else { return n == 1 ? [curvature(u: 0, v: 0)] : [] }
        return control.withUnsafeBufferPointer { c in
            guard c.count >= 16 else { return RationalPatch.grid(n).map { curvature(u: $0.x, v: $0.y) } }
            return withUnsafeTemporaryAllocation(of: SIMD4<Double>.self, capacity: 3 * n) { weights in
                withUnsafeTemporaryAllocation(of: SIMD4<Double>.self, capacity: 12 * n) { along in
                    // Basis, first and second derivative weights of every sampled parameter.
                    for i in 0..<n {
                        let t = Double(i) / Double(n - 1)
                        weights[3 * i] = RationalPatch.basis(t)
                        weights[3 * i + 1] = RationalPatch.derivative(t)
                        weights[3 * i + 2] = RationalPatch.secondDerivative(t)
                    }
                    // Along u, for every sampled u and control row: the value and its first two
                    // derivatives.
                    for i in 0..<n {
                        let b = weights[3 * i], d = weights[3 * i + 1], dd = weights[3 * i + 2]
                        for row in 0..<4 {
                            let c0 = RationalPatch.toLanes(c[4 * row]), c1 = RationalPatch.toLanes(c[4 * row + 1])
                            let c2 = RationalPatch.toLanes(c[4 * row + 2]), c3 = RationalPatch.toLanes(c[4 * row + 3])
                            let k = 3 * (4 * i + row)
                            along[k] = (b[0] * c0 + b[1] * c1) + (b[2] * c2 + b[3] * c3)
                            along[k + 1] = (d[0] * c0 + d[1] * c1) + (d[2] * c2 + d[3] * c3)
                            along[k + 2] = (dd[0] * c0 + dd[1] * c1) + (dd[2] * c2 + dd[3] * c3)
                        }
                    }
                    // Appended into reserved room: `Array(unsafeUninitializedCapacity:)` looks up
                    // the storage's generic metadata on every call.
                    var result: [PatchCurvature] = []
                    result.reserveCapacity(n * n)
                    for j in 0..<n {
                        let b = weights[3 * j], d = weights[3 * j + 1], dd = weights[3 * j + 2]
                        for i in 0..<n {
                            var s = SIMD4<Double>(), su = s, sv = s, suu = s, suv = s, svv = s
                            for row in 0..<4 {
                                let k = 3 * (4 * i + row)
                                let r = along[k], ru = along[k + 1], ruu = along[k + 2]
                                s += b[row] * r
                                su += b[row] * ru
                                sv += d[row] * r
                                suu += b[row] * ruu
                                suv += d[row] * ru
                                svv += dd[row] * r
                            }
                            result.append(RationalPatch.curvature(toLanes: s, su: su, sv: sv, suu: suu, suv: suv, svv: svv))
                        }
                    }
                    return result
                }
            }
        }
    }

    /// The n × n grid of parameters of ``curvatureGrid(samples:)``, v-major.
    static func grid(_ n: Int) -> [SIMD2<Double>] {
        (0..<(n * n)).map { SIMD2(Double($0 % n) / Double(n - 1), Double($0 / n) / Double(n - 1)) }
    }

    /// ``curvature(s:su:sv:suu:suv:svv:)`` on lanes 2–5 alone (`W·to` and `W`), lane for lane the
    /// same operations.
    @inline(__always)
    static func curvature(
        toLanes s: SIMD4<Double>, su: SIMD4<Double>, sv: SIMD4<Double>, suu: SIMD4<Double>, suv: SIMD4<Double>, svv: SIMD4<Double>
    ) -> PatchCurvature {
        let inverse = 1 / s[3]
        let p = s * inverse
        let pu = (su - p * su[3]) * inverse
        let pv = (sv - p * sv[3]) * inverse
        let puu = (suu - 2 * pu * su[3] - p * suu[3]) * inverse
        let puv = (suv - pu * sv[3] - pv * su[3] - p * suv[3]) * inverse
        let pvv = (svv - 2 * pv * sv[3] - p * svv[3]) * inverse
        return PatchCurvature(
            uu: SIMD3(puu[0], puu[1], puu[2]), uv: SIMD3(puv[0], puv[1], puv[2]), vv: SIMD3(pvv[0], pvv[1], pvv[2]))
    }

    /// P's second derivatives from the homogeneous point and its derivatives (quotient rule): the
    /// same operations on lanes 2–5 (`W·to` and `W`), which SIMD does lane by lane, so the same bits.
    @inline(__always)
    static func curvature(
        s: SIMD8<Double>, su: SIMD8<Double>, sv: SIMD8<Double>, suu: SIMD8<Double>, suv: SIMD8<Double>, svv: SIMD8<Double>
    ) -> PatchCurvature {
        func lanes(_ x: SIMD8<Double>) -> SIMD4<Double> { SIMD4(x[2], x[3], x[4], x[5]) }
        return curvature(toLanes: lanes(s), su: lanes(su), sv: lanes(sv), suu: lanes(suu), suv: lanes(suv), svv: lanes(svv))
    }

    /// The second derivative of the uniform cubic B-spline basis.
    @inline(__always)
    static func secondDerivative(_ t: Double) -> SIMD4<Double> {
        SIMD4(1 - t, 3 * t - 2, 1 - 3 * t, t)
    }
}

extension RationalPatch {
    /// The rational point `to` at (u, v), without derivatives (cheaper than ``evaluate(u:v:)``).
    ///
    /// Only the `to` lanes and the weight (lanes 2–5 of each control value) enter the result, so
    /// the sums run on those four lanes alone: every lane is the same products added in the same
    /// order as on the whole homogeneous value, so the result is the same to the bit, for half
    /// the arithmetic.
    public func position(u: Double, v: Double) -> Point3D {
        let bu = RationalPatch.basis(u), bv = RationalPatch.basis(v)
        return control.withUnsafeBufferPointer { c in
            guard c.count >= 16 else { return RationalPatch.position(bu: bu, bv: bv, control: control) }
            @inline(__always) func row(_ b: Int) -> SIMD4<Double> {
                bu[0] * RationalPatch.toLanes(c[b]) + bu[1] * RationalPatch.toLanes(c[b + 1])
                    + bu[2] * RationalPatch.toLanes(c[b + 2]) + bu[3] * RationalPatch.toLanes(c[b + 3])
            }
            var s = SIMD4<Double>()
            s += bv[0] * row(0)
            s += bv[1] * row(4)
            s += bv[2] * row(8)
            s += bv[3] * row(12)
            return SIMD3(s[0], s[1], s[2]) / s[3]
        }
    }

    /// ``position(u:v:)`` on the whole homogeneous values (traps, as indexing does, when there
    /// are fewer than 16).
    static func position(bu: SIMD4<Double>, bv: SIMD4<Double>, control: [SIMD8<Double>]) -> Point3D {
        var s = SIMD8<Double>()
        for row in 0..<4 {
            let b = 4 * row
            let r = bu[0] * control[b] + bu[1] * control[b + 1] + bu[2] * control[b + 2] + bu[3] * control[b + 3]
            s += bv[row] * r
        }
        return SIMD3(s[2], s[3], s[4]) / s[5]
    }

    /// Lanes 2–5 of a homogeneous value: `W·to` and `W`.
    @inline(__always)
    static func toLanes(_ x: SIMD8<Double>) -> SIMD4<Double> {
        SIMD4(lowHalf: x.lowHalf.highHalf, highHalf: x.highHalf.lowHalf)
    }
}

extension FaceGrid {
    /// The same face's samples on a coarser grid whose resolution divides this one's.
    public func coarsened(to resolution: Int) -> FaceGrid? {
        guard resolution >= 1, resolution <= self.resolution, self.resolution % resolution == 0 else { return nil }
        let stride = self.resolution / resolution, side = resolution + 1
        var result = SurfaceSamples()
        result.from.reserveCapacity(side * side)
        result.to.reserveCapacity(side * side)
        result.normals.reserveCapacity(side * side)
        for j in 0..<side {
            for i in 0..<side {
                let k = index(i * stride, j * stride)
                result.from.append(samples.from[k])
                result.to.append(samples.to[k])
                result.normals.append(samples.normals[k])
            }
        }
        return FaceGrid(resolution: resolution, samples: result)
    }
}
