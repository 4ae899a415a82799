import SurfaceKit

/// The surface samples of an earlier build, taken over where a new layout samples at the same
/// parameters of the same patches.
///
/// A build writes each output vertex from its layout alone: a node's sample from its source (a
/// cell's corner, an isolated vertex's limit point, a corner ring's point), a segment's inner
/// samples from its cell, side, end fractions and rate, at the indices from its base, and a
/// cell's inner samples from its kind, rates and strips, at the indices from its grid and centre
/// bases. The samples are evaluated the same way each time, so where those are equal, bit for
/// bit, a sample copied from the earlier build has the bits the new build would evaluate.
/// Automatic steps keep each round's samples for the next, where most nodes, segments and cells
/// are as they were.
struct EarlierSamples: Sendable {
    let layout: AdaptiveLayout
    let from: [LayerPoint]
    let to: [Point3D]
    let normals: [Point3D]

    init(layout: AdaptiveLayout, build: AdaptiveBuild) {
        self.layout = layout
        from = build.from
        to = build.unitPositions
        normals = build.normals
    }

    /// Copies node i's sample when the earlier layout's node i has the same source (both are
    /// written at index i). Returns whether it did.
    func copyNode(_ i: Int, layout: AdaptiveLayout, out: AdaptiveBuild.SampleOutput) -> Bool {
        guard i < self.layout.nodes.count, self.layout.nodes[i] == layout.nodes[i] else { return false }
        // A pending node is not sampled.
        if layout.nodes[i] != .pending { copy(i, to: i, out) }
        return true
    }

    /// Copies segment s's inner samples when the earlier layout's segment s is sampled alike:
    /// the same cell, side, rate and end fractions to the bit (its base may differ). Returns
    /// whether it did.
    func copySegment(_ s: Int, layout: AdaptiveLayout, out: AdaptiveBuild.SampleOutput) -> Bool {
        guard s < self.layout.segments.count else { return false }
        let p = self.layout.segments[s], q = layout.segments[s]
        guard p.cell == q.cell, p.side == q.side, p.rate == q.rate, p.fractionA.bitPattern == q.fractionA.bitPattern,
            p.fractionB.bitPattern == q.fractionB.bitPattern
        else { return false }
        copyRange(from: p.base, to: q.base, count: q.rate - 1, out)
        return true
    }

    /// Copies cell c's inner samples (grid points and centres) when `layout` draws its inside as
    /// the earlier layout did: the same kind, rates, strips and side rates (which place the
    /// strips). Returns whether it did.
    func copyInside(cell c: Int, layout: AdaptiveLayout, policy: DiagonalPolicy, out: AdaptiveBuild.SampleOutput) -> Bool {
        let before = self.layout
        guard layout.kind[c] == before.kind[c], layout.nu[c] == before.nu[c], layout.nv[c] == before.nv[c],
            layout.stripQuads[c] == before.stripQuads[c], (0..<4).allSatisfy({ layout.sideRate(c, $0) == before.sideRate(c, $0) })
        else { return false }
        let nu = layout.nu[c], nv = layout.nv[c]
        var centres = 0
        switch layout.kind[c] {
        case .single:
            centres = 1
        case .rowStrip, .columnStrip, .fan:
            return true
        case .ring:
            copyRange(from: before.gridBase[c], to: layout.gridBase[c], count: (nu - 1) * (nv - 1), out)
            centres = nu > 2 && nv > 2 ? (nu - 2) * (nv - 2) : 0
        case .rows, .columns:
            copyRange(from: before.gridBase[c], to: layout.gridBase[c], count: (nu - 1) * (nv - 1), out)
            centres = layout.strips(c).quadCount
        }
        if policy.needsCenters { copyRange(from: before.centerBase[c], to: layout.centerBase[c], count: centres, out) }
        return true
    }

    func copyRange(from a: Int, to b: Int, count: Int, _ out: AdaptiveBuild.SampleOutput) {
        for k in 0..<count { copy(a + k, to: b + k, out) }
    }

    func copy(_ i: Int, to j: Int, _ out: AdaptiveBuild.SampleOutput) {
        out.from.base[j] = from[i]
        out.to.base[j] = to[i]
        out.normals.base[j] = normals[i]
    }
}
