import SurfaceKit
import TestSupport
import Testing

@testable import MeshTessellate

// The deviation automatic steps measure on a triangle (`CellStitcher.measured`) is computed
// faster (surface points a batch at a time, each lattice measuring only the points the coarser
// ones left out) and must stay the same to the bit. The reference here measures the way it was
// first written: point by point with `position(u:v:)`, at the ten points, then at every
// barycentric twelfth and every twenty-fourth, corners left out, the lattices written out here.

@Suite struct AutomaticMeasuredBatchTests {
    static let ten: [SIMD3<Double>] = [
        SIMD3(1, 1, 1) / 3, SIMD3(0.5, 0.5, 0), SIMD3(0, 0.5, 0.5), SIMD3(0.5, 0, 0.5),
        SIMD3(2, 1, 1) / 4, SIMD3(1, 2, 1) / 4, SIMD3(1, 1, 2) / 4,
        SIMD3(0.25, 0.75, 0), SIMD3(0, 0.25, 0.75), SIMD3(0.75, 0, 0.25),
    ]

    /// Barycentric (i, j, k)/n, i + j + k = n, without the three corners.
    static func lattice(_ n: Int) -> [SIMD3<Double>] {
        var result: [SIMD3<Double>] = []
        for i in 0...n {
            for j in 0...(n - i) where i != n && j != n && i + j != 0 {
                result.append(SIMD3(Double(i), Double(j), Double(n - i - j)) / Double(n))
            }
        }
        return result
    }

    /// The deviation as first measured: ten points; over half the mark, the twelfths; within 2%
    /// of the mark, the twenty-fourths.
    static func reference(
        uv: (SIMD2<Double>, SIMD2<Double>, SIMD2<Double>), points: (Point3D, Point3D, Point3D), patch: RationalPatch,
        scale: SIMD3<Double>, mark: Double
    ) -> Double {
        func largest(_ weights: [SIMD3<Double>], _ start: Double) -> Double {
            var result = start
            for w in weights {
                let p = w.x * uv.0 + w.y * uv.1 + w.z * uv.2
                let d = patch.position(u: p.x, v: p.y) * scale - (w.x * points.0 + w.y * points.1 + w.z * points.2)
                result = max(result, (d * d).sum().squareRoot())
            }
            return result
        }
        let ten = largest(AutomaticMeasuredBatchTests.ten, 0)
        guard !(ten <= mark * 0.5) else { return ten }
        let twelfths = largest(lattice(12), ten)
        guard !(twelfths <= mark / 1.02) else { return twelfths }
        return largest(lattice(24), twelfths)
    }

    @Test func latticesAreTheirPointCountsAndCoverTheWholeLattices() {
        #expect(AutomaticMeasuredBatchTests.lattice(12).count == 88)
        #expect(AutomaticMeasuredBatchTests.lattice(24).count == 322)
        #expect(CellStitcher.denseAdded.count == 78)
        #expect(CellStitcher.finestAdded.count == 234)
        for w in AutomaticMeasuredBatchTests.lattice(12) {
            #expect(CellStitcher.measuredPoints.contains(w) || CellStitcher.denseAdded.contains(w))
        }
        for w in AutomaticMeasuredBatchTests.lattice(24) {
            #expect(CellStitcher.measuredPoints.contains(w) || CellStitcher.denseAdded.contains(w) || CellStitcher.finestAdded.contains(w))
        }
    }

    /// Random triangles of random patches, with the corners on the surface as the build puts
    /// them, and marks that stop at the ten points, at the twelfths and at the twenty-fourths:
    /// the same distance to the bit as the reference.
    @Test func sameDistanceToTheBitAsPointByPoint() throws {
        var random = SplitMix64(seed: 2409)
        var branches = [0, 0, 0]
        for _ in 0..<300 {
            var control: [SIMD8<Double>] = []
            for _ in 0..<16 {
                let w = random.uniform(0.6...1.6)
                let to = SIMD3(random.uniform(-1...1), random.uniform(-1...1), random.uniform(-1...1))
                control.append(SIMD8(0, 0, w * to.x, w * to.y, w * to.z, w, 0, 0))
            }
            let patch = try #require(RationalPatch(control: control))
            let scale = SIMD3(random.uniform(100...1000), random.uniform(100...1000), random.uniform(1...1000))
            let uv = (0..<3).map { _ in SIMD2(random.uniform(0...1), random.uniform(0...1)) }
            let p = uv.map { patch.position(u: $0.x, v: $0.y) * scale }
            let ten = AutomaticMeasuredBatchTests.reference(
                uv: (uv[0], uv[1], uv[2]), points: (p[0], p[1], p[2]), patch: patch, scale: scale, mark: .infinity)
            // Past 2·ten the ten points decide; near ten the twelfths; 0 measures everything.
            for (branch, mark) in [3 * ten, 1.1 * ten, 0].enumerated() {
                let expected = AutomaticMeasuredBatchTests.reference(
                    uv: (uv[0], uv[1], uv[2]), points: (p[0], p[1], p[2]), patch: patch, scale: scale, mark: mark)
                let measured = CellStitcher.measured(
                    uv: (uv[0], uv[1], uv[2]), points: (p[0], p[1], p[2]), on: patch, scale: scale, mark: mark)
                #expect(measured.bitPattern == expected.bitPattern, "mark \(mark): \(measured) against \(expected)")
                if expected != ten || branch == 0 { branches[branch] += 1 }
            }
        }
        // Each branch was taken (the lattices found more than the ten points on most triangles).
        #expect(branches[0] == 300 && branches[1] > 100 && branches[2] > 100)
    }
}
