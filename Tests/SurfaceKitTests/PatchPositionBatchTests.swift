import TestSupport
import Testing

@testable import SurfaceKit

// Positions of a rational bicubic patch evaluated a batch at a time
// (`RationalPatch.positions(at:into:)`): the same bits as one by one (`position(u:v:)`), which
// automatic steps rely on to measure triangles faster without changing a deviation; and the
// rational B-spline point written out here from the basis polynomials, up to rounding.

@Suite struct PatchPositionBatchTests {
    /// A patch with random homogeneous control values: weights in [0.5, 2], points in [−2, 2].
    static func randomPatch(_ random: inout SplitMix64) -> RationalPatch? {
        let control = (0..<16).map { _ -> SIMD8<Double> in
            let w = random.uniform(0.5...2)
            let from = SIMD2(random.uniform(-2...2), random.uniform(-2...2))
            let to = SIMD3(random.uniform(-2...2), random.uniform(-2...2), random.uniform(-2...2))
            return SIMD8(w * from.x, w * from.y, w * to.x, w * to.y, w * to.z, w, 0, 0)
        }
        return RationalPatch(control: control)
    }

    /// The rational point from the basis (1−t)³/6, (3t³−6t²+4)/6, (−3t³+3t²+3t+1)/6, t³/6 along
    /// u and v over the 4 × 4 control values (rows along v).
    static func writtenOut(_ patch: RationalPatch, u: Double, v: Double) -> SIMD3<Double> {
        func basis(_ t: Double) -> [Double] {
            [
                (1 - t) * (1 - t) * (1 - t) / 6, (3 * t * t * t - 6 * t * t + 4) / 6, (-3 * t * t * t + 3 * t * t + 3 * t + 1) / 6,
                t * t * t / 6,
            ]
        }
        let bu = basis(u), bv = basis(v)
        var sum = SIMD8<Double>()
        for row in 0..<4 {
            for column in 0..<4 { sum += bu[column] * bv[row] * patch.control[4 * row + column] }
        }
        return SIMD3(sum[2], sum[3], sum[4]) / sum[5]
    }

    @Test func batchIsPointByPointToTheBitAndTheWrittenOutPoint() throws {
        var random = SplitMix64(seed: 24)
        var compared = 0
        for _ in 0..<200 {
            let patch = try #require(PatchPositionBatchTests.randomPatch(&random))
            let count = Int.random(in: 1...RationalPatch.positionBatch, using: &random)
            // Mostly inside the unit square, some outside and on its sides.
            let parameters = (0..<count).map { k -> SIMD2<Double> in
                switch k % 4 {
                case 0: SIMD2(random.uniform(-0.5...1.5), random.uniform(-0.5...1.5))
                case 1: SIMD2(Double(Int.random(in: 0...12, using: &random)) / 12, random.uniform(0...1))
                default: SIMD2(random.uniform(0...1), random.uniform(0...1))
                }
            }
            var batch = [SIMD3<Double>](repeating: SIMD3(repeating: .nan), count: count)
            let written = parameters.withUnsafeBufferPointer { p in
                batch.withUnsafeMutableBufferPointer { patch.positions(at: p, into: $0) }
            }
            #expect(written == count)
            for k in 0..<count {
                let one = patch.position(u: parameters[k].x, v: parameters[k].y)
                for lane in 0..<3 { #expect(batch[k][lane].bitPattern == one[lane].bitPattern) }
                let expected = PatchPositionBatchTests.writtenOut(patch, u: parameters[k].x, v: parameters[k].y)
                let size = max(1, (expected * expected).sum().squareRoot())
                let d = batch[k] - expected
                #expect((d * d).sum().squareRoot() <= 1e-12 * size)
                compared += 1
            }
        }
        #expect(compared > 1000)
    }

    /// At most ``RationalPatch/positionBatch`` points, and never past the shorter buffer.
    @Test func writesAtMostTheBatchAndTheShorterBuffer() throws {
        var random = SplitMix64(seed: 7)
        let patch = try #require(PatchPositionBatchTests.randomPatch(&random))
        let batch = RationalPatch.positionBatch
        let parameters = [SIMD2<Double>](repeating: SIMD2(0.25, 0.75), count: batch + 5)
        let sentinel = SIMD3<Double>(repeating: 12345)
        var out = [SIMD3<Double>](repeating: sentinel, count: batch + 5)
        let all = parameters.withUnsafeBufferPointer { p in out.withUnsafeMutableBufferPointer { patch.positions(at: p, into: $0) } }
        #expect(all == batch)
        #expect(out[batch - 1] != sentinel && out[batch] == sentinel)
        var short = [SIMD3<Double>](repeating: sentinel, count: 3)
        let three = parameters.withUnsafeBufferPointer { p in short.withUnsafeMutableBufferPointer { patch.positions(at: p, into: $0) } }
        #expect(three == 3)
        #expect(short.allSatisfy { $0 != sentinel })
    }
}
