/// The limit surface of one evaluated mesh as patches, one per sub-quad of a ``SubdivisionPlan``:
/// the level-n refined homogeneous control points and the plan that says how they connect.
///
/// Made by ``SubdivisionPlan/limitPatches(vertices:weights:)``. A sub-quad whose four corners are
/// regular at level n (interior of valence 4, boundary with two faces, or a corner of one face) has
/// a uniform rational bicubic B-spline patch; one that touches an extraordinary vertex has none.
public struct LimitPatches: Sendable {
    public let plan: SubdivisionPlan
    /// Homogeneous control values of the level-n refined mesh, in the plan's point order.
    public let refined: [SIMD8<Double>]

    init(plan: SubdivisionPlan, refined: [SIMD8<Double>]) {
        self.plan = plan
        self.refined = refined
    }

    /// The B-spline patch of sub-quad `q` (in the plan's order), or `nil` when `q` is out of range or
    /// its neighbourhood is not regular (it touches an extraordinary or non-manifold vertex).
    public func patch(ofQuad q: Int) -> RationalPatch? {
        guard q >= 0, q < plan.quadCount else { return nil }
        let level = plan.storage.final
        let g = Int(plan.storage.quadFaces[q])
        guard let indices = level.regularNeighbourhood(ofFace: g) else { return nil }
        var control = [SIMD8<Double>](repeating: .zero, count: 16)
        for slot in 0..<16 where indices[slot] >= 0 {
            control[slot] = refined[Int(indices[slot])]
        }
        TopologyLevel.fillPhantoms(&control, indices: indices)
        return RationalPatch(control: control)
    }
}
