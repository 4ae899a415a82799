/// How many points one unit of depth (`to.z`) is, as a function of the layer's size.
///
/// Matches Core Animation's `kCADepthNormalization…` constants. One unit maps to the full size
/// (`average` of a 100 × 200 layer maps z = 1.5 to 225 points), and `none` keeps z in points.
public enum DepthNormalization: String, CaseIterable, Hashable, Sendable {
    case none
    case width
    case height
    case min
    case max
    case average

    /// Points per unit of depth for a layer of the given size.
    public func depthScale(for size: SIMD2<Double>) -> Double {
        switch self {
        case .none: 1
        case .width: size.x
        case .height: size.y
        case .min: Swift.min(size.x, size.y)
        case .max: Swift.max(size.x, size.y)
        case .average: (size.x + size.y) / 2
        }
    }
}
