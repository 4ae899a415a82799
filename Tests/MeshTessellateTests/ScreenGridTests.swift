import Testing

@testable import MeshTessellate

// The grids of the screen searches map positions to cells by multiplying with the cells per unit.
// The searches need that map monotone and clamped to the grid, and the coverage pass needs each
// row's centre line (origin + (row + ½) × height) to land in that row.

@Suite struct ScreenGridTests {
    @Test func rowCentresLandInTheirRowsAndTheMapIsMonotone() {
        var random = TessSupport.Random(seed: 0x9_2026)
        // About 3.5e-310, below the least normal Double.
        let tiny = Double.leastNormalMagnitude / 64
        let boxes: [(SIMD2<Double>, SIMD2<Double>, Double, Int)] = [
            (SIMD2(0, 0), SIMD2(100, 50), 1.3, 5_000),
            (SIMD2(-1e6, 3e5), SIMD2(2e6, 3.5e5), 917, 200_000),
            (SIMD2(1e-9, -2e-9), SIMD2(3e-9, 5e-9), 1e-11, 50_000),
            // An extent of subnormal size: its cells would be too small for their reciprocal.
            (SIMD2(0, 0), SIMD2(tiny, 1.5 * tiny), tiny / 40, 1_000),
        ]
        for (lo, hi, mean, count) in boxes {
            let grid = ScreenGrid(lo: lo, hi: hi, meanExtent: mean, count: count)
            #expect(grid.columnsPerUnit.isFinite && grid.rowsPerUnit.isFinite)
            for y in 0..<grid.rows {
                #expect(grid.row(grid.origin.y + (Double(y) + 0.5) * grid.cellHeight) == y)
            }
            for x in 0..<grid.columns {
                #expect(grid.column(grid.origin.x + (Double(x) + 0.5) * grid.cellWidth) == x)
            }
            // Monotone and inside the grid, for points in and around the box.
            let points = (0..<2_000).map { _ in
                SIMD2(
                    lo.x + (hi.x - lo.x) * random.uniform(-0.2...1.2), lo.y + (hi.y - lo.y) * random.uniform(-0.2...1.2))
            }.sorted { $0.x < $1.x }
            var previous = -1
            for p in points {
                let c = grid.column(p.x)
                #expect(c >= previous && c >= 0 && c < grid.columns)
                previous = c
            }
            #expect(grid.row(.nan) == 0 && grid.column(.infinity) == grid.columns - 1)
        }
    }
}
