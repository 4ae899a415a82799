import SurfaceKit

extension FaceSampler {
    /// A ring corner of a corner region, sampled when its isolation was proven.
    func ring(cell c: Int, point: Int) -> Sample {
        let s = cells[c].ringSamples[point]
        return Sample(from: s.from, to: s.to, normal: s.normal)
    }
}

extension CellStitcher {
    /// A corner region at an irregular vertex drawn as nested rings (``CornerRingBound``), cut as
    /// ``RingTriangulation`` cuts them: each ring's two trapezoids zipped between its squares'
    /// chains, the innermost square a fan from the vertex's limit point. The outer ring's chain
    /// is the region's far sides, with the samples its neighbours put there: a multiple of its
    /// rate n₀ (the layout makes it so), each of its n₀ segments a fan from the inner sample the
    /// ring joins it to.
    mutating func rings() {
        let k = fanCorner
        let corners = layout.cornerNodes[cell]
        let vertex = Local(id: corners[k], uv: UnitSquare.corner(k))
        let ids = layout.ringNodes[layout.ringStart[cell]..<layout.ringStart[cell + 1]]
        let origin = UnitSquare.corner(k)
        let across = UnitSquare.corner((k + 1) % 4) - origin, up = UnitSquare.corner((k + 3) % 4) - origin
        // The ring squares' chains, outermost first.
        var chains: [[Local]] = []
        var next = ids.startIndex
        for r in layout.ringRange(cell) {
            let n = layout.ringRates[r]
            let shrink = Double(sign: .plus, exponent: -layout.ringDepths[r], significand: 1)
            var chain: [Local] = []
            for p in 0...(2 * n) {
                let q = shrink * RingTriangulation.position(p, rate: n)
                chain.append(Local(id: ids[next], uv: origin + q.x * across + q.y * up))
                next += 1
            }
            chains.append(chain)
        }
        // The outer ring: the far sides k + 1 → k + 2 and k + 2 → k + 3, r samples a segment.
        let first = side((k + 1) % 4), second = side((k + 2) % 4)
        let n0 = max(1, layout.ringFarRate(cell))
        let fine = [max(1, (first.count - 1) / n0), max(1, (second.count - 1) / n0)]
        func outer(_ o: Int) -> Local {
            o <= n0 ? first[min(o * fine[0], first.count - 1)] : second[min((o - n0) * fine[1], second.count - 1)]
        }
        if let inner = chains.first {
            for step in RingTriangulation.ring(outer: n0, inner: (inner.count - 1) / 2) {
                guard step.outerStep else {
                    triangle(outer(step.outer), inner[step.inner], inner[step.inner + 1])
                    continue
                }
                let (chain, o, r) = step.outer < n0 ? (first, step.outer, fine[0]) : (second, step.outer - n0, fine[1])
                let end = step.outer + 1 == n0 || step.outer + 1 == 2 * n0 ? chain.count - 1 : (o + 1) * r
                for j in (o * r)..<end { triangle(inner[step.inner], chain[j], chain[j + 1]) }
            }
        }
        for r in chains.indices.dropFirst() {
            let o = chains[r - 1], i = chains[r]
            for step in RingTriangulation.ring(outer: (o.count - 1) / 2, inner: (i.count - 1) / 2) {
                if step.outerStep {
                    triangle(o[step.outer], o[step.outer + 1], i[step.inner])
                } else {
                    triangle(o[step.outer], i[step.inner], i[step.inner + 1])
                }
            }
        }
        if let last = chains.last {
            for j in 0..<(last.count - 1) { triangle(vertex, last[j], last[j + 1]) }
        }
    }
}
