/// Triangles from automatic steps, with what was chosen.
public struct AdaptiveTessellation: Sendable {
    public var mesh: TriangleMesh
    public var report: AdaptiveReport
}
