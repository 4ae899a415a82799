import Foundation
import Testing

@testable import SurfaceKit

/// The sampled bounds on a corner fan's distance from the surface (``CornerContinuation``): each
/// must lie above the largest distance found by evaluating the patch densely with
/// ``RationalPatch/evaluate(u:v:)`` (a separate evaluation from the bound's own B-spline sums), and
/// close to it, since its margin falls with the square of the sampling grid.
@Suite struct CornerFanSampledBoundTests {
    /// A small deterministic generator (splitmix64), so the cases are the same on every run.
    struct Generator {
        var state: UInt64
        mutating func next() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return Double(z >> 11) / Double(1 << 53) * 2 - 1
        }
    }

    /// A curved patch: control points of a smooth bent sheet plus noise, weight 1.
    static func patch(_ g: inout Generator) throws -> (RationalPatch, [SIMD3<Double>]) {
        var points: [SIMD3<Double>] = []
        let bend = g.next(), twist = g.next()
        for row in 0..<4 {
            for column in 0..<4 {
                let x = Double(column - 1), y = Double(row - 1)
                let z = 0.3 * bend * x * x + 0.2 * twist * x * y - 0.25 * y * y
                points.append(SIMD3(x + 0.1 * g.next(), y + 0.1 * g.next(), z + 0.05 * g.next()))
            }
        }
        let control = points.map { SIMD8($0.x, $0.y, $0.x, $0.y, $0.z, 1, 0, 0) }
        return (try #require(RationalPatch(control: control)), points)
    }

    static func norm(_ p: SIMD3<Double>) -> Double { (p * p).sum().squareRoot() }

    /// Two linear maps meeting along the diagonal s = t of the piece (like the two triangles of a
    /// fan across a piece it bisects): the bound covers both, each on its own side.
    @Test(arguments: 0..<12)
    func sampledBoundCoversTheDenseMaximum(seed: Int) throws {
        var g = Generator(state: UInt64(seed) &* 7919 &+ 17)
        let (patch, points) = try Self.patch(&g)
        let s00 = patch.evaluate(u: 0, v: 0).to, s11 = patch.evaluate(u: 1, v: 1).to
        let s10 = patch.evaluate(u: 1, v: 0).to, s01 = patch.evaluate(u: 0, v: 1).to
        // Triangle 0 below the diagonal (t ≤ s) through S(0,0), S(1,0), S(1,1); triangle 1 above.
        func linear(_ i: Int, _ q: SIMD2<Double>) -> SIMD3<Double> {
            i == 0 ? s00 + q.x * (s10 - s00) + q.y * (s11 - s10) : s00 + q.y * (s01 - s00) + q.x * (s11 - s01)
        }
        let bound = CornerContinuation.sampledBound(
            points, giveUp: .infinity,
            triangles: { corners in
                let below = corners.map { $0.y <= $0.x }
                return below.allSatisfy { $0 } ? [0] : below.allSatisfy { !$0 } ? [1] : [0, 1]
            }, linear: linear)
        var dense = 0.0
        let n = 160
        for j in 0...n {
            for i in 0...n {
                let q = SIMD2(Double(i), Double(j)) / Double(n)
                let surface = patch.evaluate(u: q.x, v: q.y).to
                dense = max(dense, Self.norm(surface - linear(q.y <= q.x ? 0 : 1, q)))
            }
        }
        // The margin: (h²/8)(max second difference along s + along t), h = 1/8.
        var second = 0.0
        for a in 0..<4 {
            for b in 0..<2 {
                second = max(second, Self.norm(points[4 * a + b] - 2 * points[4 * a + b + 1] + points[4 * a + b + 2]))
                second = max(second, Self.norm(points[4 * b + a] - 2 * points[4 * (b + 1) + a] + points[4 * (b + 2) + a]))
            }
        }
        #expect(bound >= dense * (1 - 1e-12), "bound \(bound) below the dense maximum \(dense)")
        // Cells that meet the diagonal (touching it counts) compare both maps at all their
        // corners, up to two cells' widths from it: allow the two maps' difference there,
        // (s − t)(S(1,0) + S(0,1) − S(0,0) − S(1,1)), besides twice the margin.
        let kink = Self.norm(s10 + s01 - s00 - s11) / 4
        #expect(bound <= dense + 2 * second / 256 + kink + 1e-12, "bound \(bound), dense \(dense)")
    }

    /// A boundary curve against its chord: the sampled bound covers the dense maximum, and is at
    /// most the control points' own bound (``CornerContinuation/chordBound``, which takes the
    /// smaller).
    @Test(arguments: 0..<12)
    func chordBoundCoversTheDenseMaximum(seed: Int) throws {
        var g = Generator(state: UInt64(seed) &* 104_729 &+ 3)
        let (patch, _) = try Self.patch(&g)
        let start = patch.evaluate(u: 0, v: 0).to, end = patch.evaluate(u: 1, v: 0).to
        let bound = CornerContinuation.chordBound(patch, side: 0, from: start, to: end, scale: SIMD3(1, 1, 1))
        var dense = 0.0
        for i in 0...400 {
            let t = Double(i) / 400
            dense = max(dense, Self.norm(patch.evaluate(u: t, v: 0).to - (start + t * (end - start))))
        }
        #expect(bound >= dense * (1 - 1e-12), "bound \(bound) below the dense maximum \(dense)")
        #expect(bound <= dense * 1.05 + 1e-12, "bound \(bound), dense \(dense)")
    }
}
