import SurfaceKit
import Testing

@testable import MeshTessellate

/// The coverage pass's budget: it belongs to fixed regions of `OverlapCandidates.budgetBlock`
/// triangles, is spent in triangle order, and once a region's budget is spent every later triangle
/// of that region is kept. The rule is written out here for a mesh built so that one region's
/// budget runs out: which triangles are kept, and so the exact order made from them, depends on it.
struct CoverageBudgetTests {
    /// The region a budget belongs to, written out: the exact order's candidates depend on it.
    static let region = 65_536

    /// Flat mesh pieces, counterclockwise on screen.
    struct Mesh {
        var screen: [Point3D] = []
        var triangles: [SIMD3<Int32>] = []

        /// A flat grid of `w` × `h` unit squares from `origin`, two triangles a square; returns, per
        /// triangle, whether one of its corners lies on the grid's border (R's segments there end at
        /// that corner, so it is touched).
        mutating func grid(w: Int, h: Int, origin: SIMD2<Double>) -> [Bool] {
            let base = Int32(screen.count)
            for j in 0...h { for i in 0...w { screen.append(Point3D(origin.x + Double(i), origin.y + Double(j), 0)) } }
            func v(_ i: Int, _ j: Int) -> Int32 { base + Int32(j * (w + 1) + i) }
            func border(_ i: Int, _ j: Int) -> Bool { i == 0 || j == 0 || i == w || j == h }
            var touchesBorder: [Bool] = []
            for j in 0..<h {
                for i in 0..<w {
                    triangles.append(SIMD3(v(i, j), v(i + 1, j), v(i + 1, j + 1)))
                    triangles.append(SIMD3(v(i, j), v(i + 1, j + 1), v(i, j + 1)))
                    touchesBorder.append(border(i, j) || border(i + 1, j) || border(i + 1, j + 1))
                    touchesBorder.append(border(i, j) || border(i + 1, j + 1) || border(i, j + 1))
                }
            }
            return touchesBorder
        }

        /// A flat strip of `quads` thin quads side by side, each `height` tall: every triangle spans
        /// every row of R's grid, so each costs the budget that many rows.
        mutating func tallStrip(quads: Int, width: Double, height: Double) {
            let base = Int32(screen.count)
            for k in 0...quads {
                screen.append(Point3D(Double(k) * width, 0, 0))
                screen.append(Point3D(Double(k) * width, height, 0))
            }
            for k in 0..<quads {
                let b0 = base + Int32(2 * k), t0 = b0 + 1, b1 = b0 + 2, t1 = b0 + 3
                triangles.append(SIMD3(b0, b1, t1))
                triangles.append(SIMD3(b0, t1, t0))
            }
        }

        var signs: [Double] {
            triangles.map { t in
                let a = screen[Int(t.x)], b = screen[Int(t.y)], c = screen[Int(t.z)]
                return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
            }
        }
    }

    @Test func aSpentBudgetKeepsTheRestOfItsWholeRegion() throws {
        #expect(OverlapCandidates.budgetBlock == Self.region)
        // Region 0: a tall strip (16,000 triangles of about 1,000 rows each: far more than the
        // region's budget of 64 a triangle plus 65,536), then a flat grid A up to the region's end.
        // Region 1: grid B, the same grid placed apart. Nothing overlaps anything.
        var mesh = Mesh()
        let stripTriangles = 16_000, gridW = 96, gridH = 258
        mesh.tallStrip(quads: stripTriangles / 2, width: 0.001, height: 2_000)
        let gridA = mesh.grid(w: gridW, h: gridH, origin: SIMD2(20, 0))
        #expect(stripTriangles + gridA.count == Self.region)
        let gridB = mesh.grid(w: gridW, h: gridH, origin: SIMD2(130, 0))

        // The rule, written out: region 0's budget runs out within the strip, so every triangle
        // from some index inside the strip to the region's end is kept, grid A's whole included;
        // region 1's budget (64 a triangle plus 65,536) covers grid B's triangles, of a row or two
        // each, so none of B's inner triangles, which overlap nothing, is kept. Budgets of finer
        // blocks would give grid A's triangles past the first block a fresh budget and drop them.
        var found: [[Bool]] = []
        for threads in [1, 2] {
            let flags = try #require(
                ParallelLimit.withThreads(threads) {
                    OverlapCandidates.candidates(screen: mesh.screen, triangles: mesh.triangles, signs: mesh.signs, scale: 2_000)
                }, "\(threads) threads")
            let spentFrom = ((0..<Self.region).last { !flags[$0] } ?? -1) + 1
            #expect(spentFrom <= stripTriangles, "\(threads) threads: kept from \(spentFrom)")
            let innerA = gridA.indices.filter { !gridA[$0] }.map { stripTriangles + $0 }
            let innerB = gridB.indices.filter { !gridB[$0] }.map { Self.region + $0 }
            #expect(!innerA.isEmpty && innerA.allSatisfy { flags[$0] }, "\(threads) threads")
            #expect(!innerB.isEmpty && innerB.allSatisfy { !flags[$0] }, "\(threads) threads")
            found.append(flags)
        }
        #expect(zip(found[0], found[1]).allSatisfy { $0 == $1 }, "the same candidates on one thread and on two")
    }
}
