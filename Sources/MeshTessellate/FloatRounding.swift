extension Float {
    /// The largest Float not above `x` (the Float bound of a Double range that must not shrink).
    @inline(__always)
    static func roundedDown(_ x: Double) -> Float {
        let f = Float(x)
        return Double(f) > x ? f.nextDown : f
    }

    /// The smallest Float not below `x`.
    @inline(__always)
    static func roundedUp(_ x: Double) -> Float {
        let f = Float(x)
        return Double(f) < x ? f.nextUp : f
    }
}
