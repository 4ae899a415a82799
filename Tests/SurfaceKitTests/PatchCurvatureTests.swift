import Foundation
import TestSupport
import Testing

@testable import SurfaceKit

// Second derivatives of rational patches (RationalPatch+Curvature), which automatic steps builds
// its rates on. Expected values: a uniform cubic B-spline reproduces quadratics, so a control net
// sampled from z = a·i² + b·i·j + c·j² has P_uu = 2a, P_uv = b and P_vv = 2c everywhere; and for a
// rational patch, central differences of the patch point from the basis in Support/BSpline.swift.

@Suite struct PatchCurvatureTests {
    /// Homogeneous control value (W·from, W·to, W, 0, 0).
    static func control(_ to: SIMD3<Double>, weight w: Double) -> SIMD8<Double> {
        SIMD8(0, 0, w * to.x, w * to.y, w * to.z, w, 0, 0)
    }

    /// The rational point at (u, v) from the B-spline basis written out in Support/BSpline.swift.
    static func point(_ net: [SIMD3<Double>], _ weights: [Double], u: Double, v: Double) -> SIMD3<Double> {
        let bu = CubicBSpline.basis(u), bv = CubicBSpline.basis(v)
        var sum = SIMD3<Double>.zero, weight = 0.0
        for row in 0..<4 {
            for column in 0..<4 {
                let k = 4 * row + column
                sum += bv[row] * bu[column] * weights[k] * net[k]
                weight += bv[row] * bu[column] * weights[k]
            }
        }
        return sum / weight
    }

    @Test func quadraticNetHasConstantSecondDerivatives() throws {
        let a = 0.3, b = -0.7, c = 1.1
        var values: [SIMD8<Double>] = []
        for j in 0..<4 {
            for i in 0..<4 {
                let x = Double(i), y = Double(j)
                values.append(Self.control(SIMD3(x, y, a * x * x + b * x * y + c * y * y), weight: 1))
            }
        }
        let patch = try #require(RationalPatch(control: values))
        for (u, v) in [(0.0, 0.0), (0.3, 0.8), (1.0, 0.5), (0.5, 1.0)] {
            let d = patch.curvature(u: u, v: v)
            #expect(Vec.length(d.uu - SIMD3(0, 0, 2 * a)) < 1e-12)
            #expect(Vec.length(d.uv - SIMD3(0, 0, b)) < 1e-12)
            #expect(Vec.length(d.vv - SIMD3(0, 0, 2 * c)) < 1e-12)
        }
    }

    @Test func rationalPatchMatchesCentralDifferences() throws {
        var rng = SplitMix64(seed: 11)
        var net: [SIMD3<Double>] = [], weights: [Double] = []
        for j in 0..<4 {
            for i in 0..<4 {
                net.append(SIMD3(Double(i) + rng.uniform(-0.2...0.2), Double(j) + rng.uniform(-0.2...0.2), rng.uniform(-1...1)))
                weights.append(rng.uniform(0.5...2))
            }
        }
        let patch = try #require(RationalPatch(control: zip(net, weights).map { Self.control($0, weight: $1) }))
        let h = 1e-4
        let grid = patch.curvatureGrid(samples: 3)
        #expect(grid.count == 9)
        for j in 0..<3 {
            for i in 0..<3 {
                let u = Double(i) / 2, v = Double(j) / 2
                func p(_ du: Double, _ dv: Double) -> SIMD3<Double> { Self.point(net, weights, u: u + du, v: v + dv) }
                let uu = (p(h, 0) - 2 * p(0, 0) + p(-h, 0)) / (h * h)
                let vv = (p(0, h) - 2 * p(0, 0) + p(0, -h)) / (h * h)
                let uv = (p(h, h) - p(h, -h) - p(-h, h) + p(-h, -h)) / (4 * h * h)
                let d = patch.curvature(u: u, v: v)
                #expect(Vec.length(d.uu - uu) < 1e-5 * max(1, Vec.length(uu)), "uu at \(u), \(v)")
                #expect(Vec.length(d.uv - uv) < 1e-5 * max(1, Vec.length(uv)), "uv at \(u), \(v)")
                #expect(Vec.length(d.vv - vv) < 1e-5 * max(1, Vec.length(vv)), "vv at \(u), \(v)")
                // The grid shares the along-u sums; it must give the same values.
                let g = grid[3 * j + i]
                #expect(Vec.length(g.uu - d.uu) + Vec.length(g.uv - d.uv) + Vec.length(g.vv - d.vv) < 1e-12)
                #expect(Vec.length(patch.position(u: u, v: v) - p(0, 0)) < 1e-12)
            }
        }
    }
}
