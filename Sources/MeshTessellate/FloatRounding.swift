extension Float {
    /// The largest Float not above `x` (the Float bound of a Double range that must not shrink).
    ///
    /// Without a branch on the rounding: whether `Float(x)` rounded up is a coin toss from one call
    /// to the next, and `nextDown` branches on its cases, so the plain form mispredicts about once
    /// a call where boxes are rounded by the hundred thousand. The step down is on the bits: one
    /// less for a positive value (or +∞, giving the greatest finite), one more for a negative one,
    /// and ±0 steps to the negative Float nearest zero. NaN stays NaN (no comparison holds).
    @inline(__always)
    static func roundedDown(_ x: Double) -> Float {
        let f = Float(x)
        let bits = f.bitPattern
        let step: UInt32 = bits & 0x7fff_ffff == 0 ? 0x8000_0001 : bits &+ ((bits >> 31) << 1) &- 1
        return Float(bitPattern: Double(f) > x ? step : bits)
    }

    /// The smallest Float not below `x` (negation is exact, so this is `roundedDown` mirrored).
    @inline(__always)
    static func roundedUp(_ x: Double) -> Float {
        -roundedDown(-x)
    }
}
