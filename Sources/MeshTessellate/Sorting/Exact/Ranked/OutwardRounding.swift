extension Float {
    /// `Float.roundedDown` of each lane of `x`, bit for bit, in vector operations: the ranked
    /// order rounds six bounds outward for each of its candidates (box and depth range): one
    /// lane at a time, about 4% of the exact order's time on W3; four at a time, about half that.
    ///
    /// Lane for lane the scalar form's operations: the same conversion to Float (round to
    /// nearest), the same comparison of that Float widened back with x, and the same step on the
    /// bits (one less for a positive Float, one more for a negative one, ±0 to the negative Float
    /// nearest zero), chosen where the conversion rounded up. NaN stays NaN as there.
    @inline(__always)
    static func roundedDown(_ x: SIMD4<Double>) -> SIMD4<Float> {
        let f = SIMD4<Float>(x)
        let bits = unsafeBitCast(f, to: SIMD4<UInt32>.self)
        let step = (bits &+ ((bits &>> 31) &<< 1) &- 1).replacing(with: 0x8000_0001, where: bits & 0x7fff_ffff .== 0)
        // All ones in the lanes whose Float is above x, narrowed to the Float lanes.
        let above = SIMD4<UInt32>(
            truncatingIfNeeded: SIMD4<Int64>(repeating: 0).replacing(with: -1, where: SIMD4<Double>(f) .> x))
        return unsafeBitCast((step & above) | (bits & ~above), to: SIMD4<Float>.self)
    }

    /// The Float box around the Double box from `lower` to `upper` (least x and y, then greatest
    /// x and y): `roundedDown` of the lower corner and `roundedUp` of the upper, bit for bit.
    /// roundedUp(x) is −roundedDown(−x), so this is one `roundedDown` of (lower, −upper) with the
    /// upper lanes negated back. Both negations flip the sign bit alone, as the scalar `-` does
    /// (NaN and ±0 included): not `0 − x` (SIMD's prefix minus), which makes −0 of +0.
    @inline(__always)
    static func outwardBox(lower: SIMD2<Double>, upper: SIMD2<Double>) -> SIMD4<Float> {
        let down = roundedDown(SIMD4(lower.x, lower.y, -upper.x, -upper.y))
        return unsafeBitCast(unsafeBitCast(down, to: SIMD4<UInt32>.self) ^ SIMD4(0, 0, 1 << 31, 1 << 31), to: SIMD4<Float>.self)
    }
}
