import Foundation
import Testing

@testable import SurfaceKit

/// The allowance for a corner region's far side sampled more finely than the region asked
/// (``CornerContinuation/segmentChordAllowance(rate:curve:)``, taken by
/// ``CornerContinuation/farSideAllowance(rate:from:scale:)`` where it is smaller): checked
/// against the exact distance of a parabola from its chords, and against the finer polylines
/// themselves, drawn from a separate evaluation of the patch.
@Suite struct FarSideChordTests {
    typealias G = CornerFanSampledBoundTests

    static func norm(_ p: SIMD3<Double>) -> Double { (p * p).sum().squareRoot() }

    /// A uniform cubic B-spline span in the monomial basis, (1/6)·[t³ t² t 1]·M·P: written out here,
    /// apart from the bound's own basis functions.
    static func curve(_ p: [SIMD3<Double>], _ t: Double) -> SIMD3<Double> {
        let a = -p[0] + 3 * p[1] - 3 * p[2] + p[3]
        let b = 3 * p[0] - 6 * p[1] + 3 * p[2]
        let c = -3 * p[0] + 3 * p[2]
        let d = p[0] + 4 * p[1] + p[2]
        return (((a * t + b) * t + c) * t + d) / 6
    }

    /// A parabola (third difference zero) has C″ = P₀ − 2P₁ + P₂ everywhere, and over a segment of
    /// length 1/n its distance from the chord at the same parameter is (s(1/n − s)/2)·|C″|, largest
    /// at the middle: |C″|/(8n²). The measured allowance covers it and exceeds it by at most its
    /// margin, 1/(32·32) of it.
    @Test(arguments: 1...4)
    func parabolaMatchesItsExactChordDistance(rate n: Int) {
        let p0 = SIMD3<Double>(0, 0, 0), p1 = SIMD3<Double>(1, 0.4, -0.2), p2 = SIMD3<Double>(2.3, 0.5, 0.3)
        let p3 = 3 * p2 - 3 * p1 + p0
        let exact = Self.norm(p0 - 2 * p1 + p2) / Double(8 * n * n)
        let allowance = CornerContinuation.segmentChordAllowance(rate: n, curve: [p0, p1, p2, p3])
        let margin = exact / Double(CornerContinuation.samplesPerSegment * CornerContinuation.samplesPerSegment)
        #expect(allowance >= exact * (1 - 1e-12), "allowance \(allowance) below the exact \(exact)")
        #expect(allowance <= exact + margin * (1 + 1e-9) + 1e-15, "allowance \(allowance), exact \(exact)")
    }

    /// Random cubic spans: the allowance covers each segment's distance from its chord, found by
    /// evaluating the monomial form densely, and is within its margin of the densest figure.
    @Test(arguments: 0..<12)
    func cubicCoversTheDenseChordDistance(seed: Int) {
        var g = G.Generator(state: UInt64(seed) &* 7_919 &+ 11)
        let p = (0..<4).map { i in SIMD3(Double(i) + 0.4 * g.next(), 0.8 * g.next(), 0.8 * g.next()) }
        let second = max(Self.norm(p[0] - 2 * p[1] + p[2]), Self.norm(p[1] - 2 * p[2] + p[3]))
        for n in 1...4 {
            var dense = 0.0
            for j in 0..<n {
                let a = Double(j) / Double(n), b = Double(j + 1) / Double(n)
                let start = Self.curve(p, a), end = Self.curve(p, b)
                for i in 0...600 {
                    let f = Double(i) / 600
                    dense = max(dense, Self.norm(Self.curve(p, a + f * (b - a)) - (start + f * (end - start))))
                }
            }
            let allowance = CornerContinuation.segmentChordAllowance(rate: n, curve: p)
            // The allowance's own margin, plus what the dense lattice can miss between its points.
            let h = 1 / Double(n * CornerContinuation.samplesPerSegment), hd = 1 / Double(600 * n)
            #expect(allowance >= dense * (1 - 1e-12), "n \(n): allowance \(allowance) below the dense \(dense)")
            #expect(allowance <= dense + (h * h + hd * hd) / 8 * second + 1e-12, "n \(n): allowance \(allowance), dense \(dense)")
        }
    }

    /// What the allowance stands for: a far side of a patch sampled at k·n evenly spaced segments
    /// (surface points from ``RationalPatch/evaluate(u:v:)``) against the same side at n, both
    /// polylines parametrized along the side; their largest distance is within the allowance.
    @Test(arguments: 0..<8)
    func finerPolylineStaysWithinTheAllowance(seed: Int) throws {
        var g = G.Generator(state: UInt64(seed) &* 104_729 &+ 5)
        let (patch, _) = try G.patch(&g)
        func side(_ t: Double) -> SIMD3<Double> { patch.evaluate(u: t, v: 0).to }
        func polyline(_ segments: Int, _ t: Double) -> SIMD3<Double> {
            let x = t * Double(segments)
            let j = min(Int(x.rounded(.down)), segments - 1)
            let f = x - Double(j)
            let a = side(Double(j) / Double(segments)), b = side(Double(j + 1) / Double(segments))
            return a + f * (b - a)
        }
        for n in 1...3 {
            let allowance = CornerContinuation.farSideAllowance(rate: n, from: (patch, 0), scale: SIMD3(1, 1, 1))
            for k in [2, 3, 5] {
                var worst = 0.0
                for i in 0...900 {
                    let t = Double(i) / 900
                    worst = max(worst, Self.norm(polyline(k * n, t) - polyline(n, t)))
                }
                #expect(allowance.isFinite, "n \(n): no allowance")
                #expect(worst <= allowance * (1 + 1e-12), "n \(n), k \(k): \(worst) > \(allowance)")
            }
        }
    }
}
