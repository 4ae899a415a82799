import SurfaceKit

extension FaceSampler {
    /// A ring corner of a corner region, sampled when its isolation was proven.
    func ring(cell c: Int, point: Int) -> Sample {
        let s = cells[c].ringSamples[point]
        return Sample(from: s.from, to: s.to, normal: s.normal)
    }
}

extension CellStitcher {
    /// A corner region at an irregular vertex drawn as nested rings (``CornerRingBound``): the
    /// outer ring zips the region's far sides, with whatever samples its neighbours put there, to
    /// the first inner square's corners, as fans from its two corners on the region's sides and
    /// two triangles at the far corner; each further ring is four triangles around its outer
    /// square's far corner; the innermost square is a fan of two from the vertex's limit point.
    mutating func rings() {
        let k = fanCorner
        let corners = layout.cornerNodes[cell]
        let vertex = Local(id: corners[k], uv: UnitSquare.corner(k))
        let ids = layout.ringNodes[layout.ringStart[cell]..<layout.ringStart[cell + 1]]
        let levels = ids.count / 3
        let origin = UnitSquare.corner(k)
        /// Ring r's corner k + j (j = 1, 2, 3): the fraction `shrink` of the way from the vertex to
        /// the region's corner k + j.
        func point(_ r: Int, _ j: Int, shrink: Double) -> Local {
            let far = UnitSquare.corner((k + j) % 4)
            return Local(id: ids[ids.startIndex + 3 * r + j - 1], uv: origin + shrink * (far - origin))
        }
        let shrinks = ringShrinks()
        // The outer ring: fans from I₁ over the far side k + 1 → k + 2 and from I₃ over k + 2 → k + 3.
        let first = side((k + 1) % 4), second = side((k + 2) % 4)
        let i1 = point(0, 1, shrink: shrinks[0]), i2 = point(0, 2, shrink: shrinks[0]), i3 = point(0, 3, shrink: shrinks[0])
        for i in 0..<(first.count - 1) { triangle(i1, first[i], first[i + 1]) }
        let o2 = Local(id: corners[(k + 2) % 4], uv: UnitSquare.corner((k + 2) % 4))
        triangle(o2, i1, i2)
        triangle(o2, i2, i3)
        for i in 0..<(second.count - 1) { triangle(i3, second[i], second[i + 1]) }
        for r in 1..<levels {
            let o = (1...3).map { point(r - 1, $0, shrink: shrinks[r - 1]) }
            let n = (1...3).map { point(r, $0, shrink: shrinks[r]) }
            triangle(o[1], o[0], n[0])
            triangle(o[1], n[0], n[1])
            triangle(o[1], n[1], n[2])
            triangle(o[1], n[2], o[2])
        }
        let last = levels - 1
        triangle(vertex, point(last, 1, shrink: shrinks[last]), point(last, 2, shrink: shrinks[last]))
        triangle(vertex, point(last, 2, shrink: shrinks[last]), point(last, 3, shrink: shrinks[last]))
    }

    /// Each ring square's side as a share of the region's: 2⁻⁽ˡᵉᵛᵉˡ ⁻ ʳᵉᵍⁱᵒⁿ⁾.
    func ringShrinks() -> [Double] {
        let start = layout.ringStart[cell] / 3, end = layout.ringStart[cell + 1] / 3
        return layout.ringDepths[start..<end].map { Double(sign: .plus, exponent: -$0, significand: 1) }
    }
}
