/// How finely the surface is tessellated.
///
/// `fixed(0)` draws the control mesh itself; `fixed(n)` splits every face into 2ⁿ × 2ⁿ sub-quads
/// whose corners lie on the limit surface; `automatic` (Core Animation's −1) lets the tessellator
/// choose.
public enum SubdivisionSteps: Hashable, Sendable {
    case automatic
    case fixed(Int)

    /// The largest fixed number of steps mesh.json records (2³¹ − 1): what the reader accepts, and
    /// so what commands that write mesh.json accept. Tessellation refuses far fewer.
    public static let largestRecorded = Int(Int32.max)

    /// The integer form used by mesh.json and Core Animation: −1 for automatic.
    public var rawValue: Int {
        switch self {
        case .automatic: -1
        case .fixed(let n): n
        }
    }

    /// `nil` for integers below −1.
    public init?(rawValue: Int) {
        if rawValue == -1 {
            self = .automatic
        } else if rawValue >= 0 {
            self = .fixed(rawValue)
        } else {
            return nil
        }
    }
}
