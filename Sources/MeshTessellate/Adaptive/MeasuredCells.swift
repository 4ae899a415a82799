import SurfaceKit

/// Deviations measured in an earlier round of automatic steps, for the cells drawn the same way
/// since, so a round measures only the cells it redraws.
///
/// A cell's triangles, and so its measured deviation, depend only on its patch, its kind, its
/// grid's rates, the parameters and points of the samples on its sides (its corners among them)
/// and the points inside it, which are its patch at parameters that its kind and rates give
/// (``CellDrawing``). A round that only gives failing cells a denser interior
/// (``CellRates/searchInteriors(_:search:tolerance:raising:)``) changes no side, so every other
/// cell is drawn exactly as before and its measured deviation still holds. A round that changes
/// rates keeps the `earlier` layout and points: a cell is then taken as measured only where
/// ``CellDrawing/alike(_:_:_:)`` finds it drawn alike, bit for bit.
struct MeasuredCells {
    var deviations: [Double]
    /// Per cell: whether it kept its drawing inside its sides since `deviations` was measured.
    var unchanged: [Bool]
    /// When rates changed since: the layout and points-space positions `deviations` were
    /// measured on (`nil`: every side is as it was).
    var earlier: CellDrawing?

    /// Cell c's deviation when it is drawn as when measured; `current` is cell c drawn now.
    func deviation(_ c: Int, current: CellDrawing) -> Double? {
        guard c < unchanged.count, unchanged[c] else { return nil }
        if let earlier, !CellDrawing.alike(c, earlier, current) { return nil }
        return deviations[c]
    }
}

/// A layout with the points-space positions built from it: what decides how each cell is drawn.
struct CellDrawing: Sendable {
    let cells: [AdaptiveCell]
    let layout: AdaptiveLayout
    let points: [Point3D]

    /// Whether patch cell c is drawn alike in `a` and `b`: the same kind, grid rates, strips and
    /// triangle count, the same rate and even spacing on each side, and on each side the same
    /// samples, each at the same parameter and point to the bit. The stitcher draws and measures
    /// a cell from exactly these (its interior points are its patch at parameters its kind and
    /// rates give, evaluated the same way in both), so its triangles have the same corners'
    /// parameters and points and the same measured distances; and every search of an interior
    /// for it (``InteriorSearch``), which sees the cell only through them, finds the same.
    /// Cells without a patch are never alike (they cost nothing to draw again).
    static func alike(_ c: Int, _ a: CellDrawing, _ b: CellDrawing) -> Bool {
        let x = a.layout, y = b.layout
        guard a.cells[c].patch != nil, x.kind[c] == y.kind[c], x.nu[c] == y.nu[c], x.nv[c] == y.nv[c],
            x.stripQuads[c] == y.stripQuads[c],
            x.triangleBase[c + 1] - x.triangleBase[c] == y.triangleBase[c + 1] - y.triangleBase[c]
        else { return false }
        for k in 0..<4 {
            let n = x.sideRate(c, k)
            guard n == y.sideRate(c, k), x.evenlySampled(c, k, n) == y.evenlySampled(c, k, n) else { return false }
        }
        return a.withSides(of: c) { first in
            b.withSides(of: c) { second in
                for k in 0..<4 {
                    guard first[k].count == second[k].count else { return false }
                    for (p, q) in zip(first[k], second[k]) {
                        guard same(p.uv, q.uv), same(a.points[Int(p.id)], b.points[Int(q.id)]) else { return false }
                    }
                }
                return true
            }
        }
    }

    /// `body` with cell c's four sides' samples, as the stitcher walks them.
    func withSides<R>(of c: Int, _ body: ([[CellStitcher.Local]]) -> R) -> R {
        // The stitcher only reads here: its output is a slot never written.
        var slot = SIMD3<Int32>.zero
        return withUnsafeMutablePointer(to: &slot) { base in
            let stitcher = CellStitcher(
                cell: c, layout: layout, points: points, policy: .shortest, patch: nil, fanCorner: -1, bound: 0, scale: .one,
                output: SharedMutableBuffer(base: base), parameters: nil, origin: .zero, size: 1, cursor: 0)
            return body((0..<4).map { stitcher.side($0) })
        }
    }

    /// Bit for bit: −0 and 0 differ, a NaN equals itself.
    static func same<V: SIMD>(_ p: V, _ q: V) -> Bool where V.Scalar == Double {
        p.indices.allSatisfy { p[$0].bitPattern == q[$0].bitPattern }
    }
}

/// The passing cells for which no cheaper drawing passed (``CellRates/cheapenInteriors(_:search:tolerance:settled:)``),
/// with the drawing they were searched on: a cell drawn alike later (``CellDrawing/alike(_:_:_:)``)
/// would find none again, so it is not searched.
struct SettledCells: Sendable {
    let drawing: CellDrawing
    /// Per cell: searched on `drawing` and left as it was.
    let settled: [Bool]

    init(drawing: CellDrawing, searched: [Int], changed: [Int]) {
        self.drawing = drawing
        var settled = [Bool](repeating: false, count: drawing.cells.count)
        for c in searched { settled[c] = true }
        for c in changed { settled[c] = false }
        self.settled = settled
    }

    /// Whether cell c, drawn now as `current`, was searched drawn alike and kept its drawing.
    func settles(_ c: Int, current: CellDrawing) -> Bool {
        c < settled.count && settled[c] && CellDrawing.alike(c, drawing, current)
    }
}
