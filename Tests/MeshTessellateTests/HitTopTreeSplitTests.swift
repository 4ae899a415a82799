import Testing

@testable import MeshTessellate

// The top tree of the grid build over the control faces of a grid: no two siblings' boxes may
// overlap with positive area, which is what keeps a ray through a row from walking both halves.
// The faces are unit squares on an nx × ny lattice with their centres at (i + ½, j + ½); a node's
// box is the union of its faces' squares, worked out here from the tree's leaves. Splitting at the
// plain median (ties by index) fails this on every lattice below but the power-of-two one.

@Suite struct HitTopTreeSplitTests {
    /// The number of inner nodes whose two children's boxes overlap with positive area.
    static func overlappingSiblings(columns nx: Int, rows ny: Int) -> Int {
        let centres = (0..<(nx * ny)).map { f in SIMD3(Double(f % nx) + 0.5, Double(f / nx) + 0.5, 0) }
        let top = TriangleBVH.GridBuild.topTree(faces: nx * ny, centres: centres)
        // Boxes (min x, max x, min y, max y), children after their parents, so from the end.
        var boxes = [SIMD4<Double>](repeating: .zero, count: top.count)
        var overlaps = 0
        for i in stride(from: top.count - 1, through: 0, by: -1) {
            if top[i].face >= 0 {
                let c = centres[Int(top[i].face)]
                boxes[i] = SIMD4(c.x - 0.5, c.x + 0.5, c.y - 0.5, c.y + 0.5)
            } else {
                let a = boxes[Int(top[i].first)], b = boxes[Int(top[i].first) + 1]
                let overlapX = Swift.min(a[1], b[1]) - Swift.max(a[0], b[0])
                let overlapY = Swift.min(a[3], b[3]) - Swift.max(a[2], b[2])
                if overlapX > 0, overlapY > 0 { overlaps += 1 }
                boxes[i] = SIMD4(Swift.min(a[0], b[0]), Swift.max(a[1], b[1]), Swift.min(a[2], b[2]), Swift.max(a[3], b[3]))
            }
        }
        return overlaps
    }

    @Test(arguments: [(100, 100), (5, 6), (7, 13), (31, 17), (3, 3), (64, 64)])
    func siblingsOverGridFacesDoNotOverlap(columns: Int, rows: Int) {
        #expect(Self.overlappingSiblings(columns: columns, rows: rows) == 0)
    }

    /// Every face is a leaf of the tree exactly once, however the cuts move.
    @Test(arguments: [(100, 100), (7, 13), (1, 9)])
    func everyFaceIsOneLeaf(columns: Int, rows: Int) {
        let centres = (0..<(columns * rows)).map { f in SIMD3(Double(f % columns) + 0.5, Double(f / columns) + 0.5, 0) }
        let top = TriangleBVH.GridBuild.topTree(faces: columns * rows, centres: centres)
        let leaves = top.filter { $0.face >= 0 }.map(\.face).sorted()
        #expect(leaves == Array(0..<Int32(columns * rows)))
    }
}
