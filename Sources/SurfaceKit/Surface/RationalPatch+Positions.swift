extension RationalPatch {
    /// The most parameters ``positions(at:into:)`` takes in one call: its scratch stays on the
    /// stack at this size.
    public static let positionBatch = 16

    /// ``position(u:v:)`` at each of the first `count` parameters of `parameters`, written to
    /// the first `count` entries of `positions`, where `count` is the smallest of the two buffers'
    /// sizes and ``positionBatch``; returns `count`.
    ///
    /// Each position is the same to the bit as ``position(u:v:)``'s: the same basis weights and
    /// the same products added in the same order, on the same four lanes (`W·to` and `W`). The
    /// control values' lanes are gathered once for the whole batch, and the points do not depend
    /// on each other, so the processor works on several at once where calling
    /// ``position(u:v:)`` point by point waits for each in turn.
    @discardableResult
    public func positions(at parameters: UnsafeBufferPointer<SIMD2<Double>>, into positions: UnsafeMutableBufferPointer<Point3D>)
        -> Int
    {
        let count = min(parameters.count, positions.count, RationalPatch.positionBatch)
        return control.withUnsafeBufferPointer { c in
            guard c.count >= 16 else {
                for i in 0..<count { positions[i] = position(u: parameters[i].x, v: parameters[i].y) }
                return count
            }
            return withUnsafeTemporaryAllocation(of: SIMD4<Double>.self, capacity: 16) { lanes in
                for k in 0..<16 { lanes[k] = RationalPatch.toLanes(c[k]) }
                // As in `position(u:v:)`: each row's sum left to right, then the rows added to a
                // zero sum one by one, then divided by the weight.
                @inline(__always) func point(_ bu: SIMD4<Double>, _ bv: SIMD4<Double>) -> Point3D {
                    @inline(__always) func row(_ b: Int) -> SIMD4<Double> {
                        bu[0] * lanes[b] + bu[1] * lanes[b + 1] + bu[2] * lanes[b + 2] + bu[3] * lanes[b + 3]
                    }
                    var s = SIMD4<Double>()
                    s += bv[0] * row(0)
                    s += bv[1] * row(4)
                    s += bv[2] * row(8)
                    s += bv[3] * row(12)
                    return SIMD3(s[0], s[1], s[2]) / s[3]
                }
                // Two points at a time: their four parameters' bases in one pass of four lanes
                // (lane by lane the operations of `basis(_:)`, so the same weights), and the two
                // sums side by side, which the processor overlaps.
                var i = 0
                while i + 1 < count {
                    let b = RationalPatch.bases(SIMD4(lowHalf: parameters[i], highHalf: parameters[i + 1]))
                    positions[i] = point(SIMD4(b.0[0], b.1[0], b.2[0], b.3[0]), SIMD4(b.0[1], b.1[1], b.2[1], b.3[1]))
                    positions[i + 1] = point(SIMD4(b.0[2], b.1[2], b.2[2], b.3[2]), SIMD4(b.0[3], b.1[3], b.2[3], b.3[3]))
                    i += 2
                }
                if i < count {
                    positions[i] = point(RationalPatch.basis(parameters[i].x), RationalPatch.basis(parameters[i].y))
                }
                return count
            }
        }
    }

    /// ``basis(_:)`` of four parameters at once: the weights of B₀ to B₃, each for the four
    /// lanes of `t`. Every lane takes the same operations in the same order as ``basis(_:)``.
    @inline(__always)
    static func bases(_ t: SIMD4<Double>) -> (SIMD4<Double>, SIMD4<Double>, SIMD4<Double>, SIMD4<Double>) {
        let s = 1 - t, t2 = t * t, t3 = t2 * t
        return (s * s * s / 6, (3 * t3 - 6 * t2 + 4) / 6, (-3 * t3 + 3 * t2 + 3 * t + 1) / 6, t3 / 6)
    }
}
