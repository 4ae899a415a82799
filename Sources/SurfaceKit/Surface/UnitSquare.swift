/// The unit square of a face's (u, v) parameters, its corners numbered 0…3 in the order of the
/// face's vertices: (0, 0), (1, 0), (1, 1), (0, 1). One definition for the isolation, its bounds
/// and the automatic layout, which must agree on every corner and side point.
package enum UnitSquare {
    /// Corner k: (0, 0), (1, 0), (1, 1), (0, 1).
    package static func corner(_ k: Int) -> SIMD2<Double> {
        SIMD2(k == 1 || k == 2 ? 1 : 0, k >= 2 ? 1 : 0)
    }

    /// The point at fraction s along side k, from corner k to corner k + 1.
    package static func side(_ k: Int, _ s: Double) -> SIMD2<Double> {
        switch k {
        case 0: SIMD2(s, 0)
        case 1: SIMD2(1, s)
        case 2: SIMD2(1 - s, 1)
        default: SIMD2(0, 1 - s)
        }
    }
}
