import SurfaceKit
import Testing

@testable import MeshTessellate

// The ranked order rounds each candidate's box and depth range outward in vector operations
// (`Float.roundedDown(_: SIMD4<Double>)`, `Float.outwardBox`), which must give the very bits the
// scalar forms gave (the draw order is compared bit for bit, and every filter reads these
// bounds): checked here lane for lane against the scalar roundings and against the definition of
// an outward rounding (nextUp / nextDown as the only arithmetic). The exact order's projection
// without a pool (`SortPool.project`) must give the pool's screen positions bit for bit: checked
// against SurfaceKit's `screenFromPoints` and a projection written out from the matrix entries.

@Suite struct OutwardBoxSortTests {
    /// Values where rounding has edge cases (both zeros, subnormals, Float's limits and their
    /// neighbours, past the greatest Float, infinities), and random ones across the exponents.
    static let values: [Double] = {
        let floats: [Float] = [0, .leastNonzeroMagnitude, .leastNormalMagnitude, 1, .pi, 65_536, .greatestFiniteMagnitude]
        var values: [Double] = [0, -0.0, 1e-300, .leastNonzeroMagnitude, 1e-46, 1e300, .greatestFiniteMagnitude, .infinity]
        for f in floats {
            let d = Double(f)
            values += [d, d.nextUp, d.nextDown, (d + Double(f.nextUp)) / 2]
        }
        values.append(Double(Float.greatestFiniteMagnitude) * 1.5)
        var generator = TessSupport.Random(seed: 0x0B0C5)
        for _ in 0..<100_000 {
            values.append(
                Double(
                    sign: .plus, exponent: Int.random(in: -160...140, using: &generator),
                    significand: Double.random(in: 1..<2, using: &generator)))
        }
        return values + values.map { -$0 }
    }()

    /// Each group of four values, rotated so that every value meets every lane.
    static func lanes(_ values: [Double]) -> [SIMD4<Double>] {
        (0..<values.count).map { i in
            SIMD4(values[i], values[(i + 1) % values.count], values[(i + 2) % values.count], values[(i + 3) % values.count])
        }
    }

    /// The first few lanes that break a rule, described (the value lists are long, so one
    /// expectation a lane would make the debug test run slowly; these fail with the lanes named).
    struct Misses {
        private(set) var count = 0
        private(set) var first: [String] = []
        mutating func check(_ holds: Bool, _ description: @autoclosure () -> String) {
            guard !holds else { return }
            count += 1
            if first.count < 8 { first.append(description()) }
        }
    }

    @Test func vectorRoundedDownIsTheLargestFloatNotAboveEachLane() {
        var misses = Misses()
        for x in Self.lanes(Self.values) {
            let r = Float.roundedDown(x)
            for k in 0..<4 {
                misses.check(Double(r[k]) <= x[k], "lane \(k): roundedDown(\(x[k])) = \(r[k]) is above it")
                misses.check(r[k] == .infinity || Double(r[k].nextUp) > x[k], "lane \(k): \(r[k]) is not the largest below \(x[k])")
                misses.check(r[k].bitPattern == Float.roundedDown(x[k]).bitPattern, "lane \(k) of \(x[k]): not the scalar bits")
            }
        }
        #expect(misses.count == 0, "\(misses.count) lanes, first: \(misses.first)")
    }

    @Test func outwardBoxHoldsTheBoxWithTheScalarBits() {
        let values = Self.values
        var misses = Misses()
        for i in 0..<values.count {
            let lower = SIMD2(values[i], values[(i + 7) % values.count])
            let upper = SIMD2(values[(i + 1) % values.count], values[(i + 13) % values.count])
            let box = Float.outwardBox(lower: lower, upper: upper)
            for k in 0..<2 {
                misses.check(
                    Double(box[k]) <= lower[k] && (box[k] == .infinity || Double(box[k].nextUp) > lower[k]),
                    "lower \(lower[k]) rounded to \(box[k])")
                misses.check(
                    Double(box[k + 2]) >= upper[k] && (box[k + 2] == -.infinity || Double(box[k + 2].nextDown) < upper[k]),
                    "upper \(upper[k]) rounded to \(box[k + 2])")
                misses.check(box[k].bitPattern == Float.roundedDown(lower[k]).bitPattern, "lower \(lower[k]): not the scalar bits")
                misses.check(box[k + 2].bitPattern == Float.roundedUp(upper[k]).bitPattern, "upper \(upper[k]): not the scalar bits")
            }
        }
        #expect(misses.count == 0, "\(misses.count) lanes, first: \(misses.first)")
    }

    /// The zeros and NaN, whose bits a careless negation would change (0 − x makes −0 of +0;
    /// the scalar `-` flips the sign bit of every value, NaN included).
    @Test func zerosAndNaNKeepTheScalarBits() {
        for (lo, hi) in [(0.0, 0.0), (-0.0, -0.0), (0.0, -0.0), (-0.0, 0.0), (Double.nan, .nan), (-Double.nan, -Double.nan)] {
            let box = Float.outwardBox(lower: SIMD2(lo, lo), upper: SIMD2(hi, hi))
            #expect(box[0].bitPattern == Float.roundedDown(lo).bitPattern)
            #expect(box[2].bitPattern == Float.roundedUp(hi).bitPattern)
            #expect(box[2].bitPattern == (-Float.roundedDown(-hi)).bitPattern)
        }
        #expect(Float.outwardBox(lower: SIMD2(0, 0), upper: SIMD2(0, 0))[2].sign == Float.roundedUp(0).sign)
    }

    /// The projection into kept scratch: the bits of `LayerGeometry.screenFromPoints` for a
    /// vertex in front of the eye (and close to a projection written out from the matrix
    /// entries), `.zero` and a report for one at or behind it.
    @Test func projectionKeepsTheGeometrysBits() {
        let transform = Transform3D.rotation(angle: -.pi / 4, axis: SIMD3(1, 0, 0))
            .concatenating(.translation(3, -2, 1)).concatenating(.perspective(eyeDistance: 500))
        let geometry = LayerGeometry(size: SIMD2(640, 480), depthScale: 200, anchor: LayerPoint(0.3, 0.6), transform: transform)
        var generator = TessSupport.Random(seed: 0x5C4EE)
        var positions = (0..<5_000).map { _ in
            SIMD3(
                Double.random(in: -400...1000, using: &generator), Double.random(in: -400...900, using: &generator),
                Double.random(in: -300...300, using: &generator))
        }
        positions += [.zero, SIMD3(-0.0, -0.0, -0.0), SIMD3(192, 288, 0)]
        var screen = [Point3D](repeating: SIMD3(.nan, .nan, .nan), count: positions.count)
        let anyBehind = positions.withUnsafeBufferPointer { p in
            screen.withUnsafeMutableBufferPointer { SortPool.project(p, geometry: geometry, into: $0) }
        }
        var behind = 0
        for (p, s) in zip(positions, screen) {
            guard let expected = geometry.screenFromPoints(p) else {
                behind += 1
                #expect(s == .zero)
                continue
            }
            for k in 0..<3 { #expect(s[k].bitPattern == expected[k].bitPattern, "\(p): \(s) is not \(expected)") }
            let (written, w) = SortSupport.project(p, geometry: geometry)
            #expect(w > LayerGeometry.clipW)
            #expect(abs(s.x - written.x) <= 1e-9 * (1 + abs(written.x)) && abs(s.y - written.y) <= 1e-9 * (1 + abs(written.y)))
        }
        #expect(anyBehind == (behind > 0))
        #expect(behind > 0 && behind < positions.count)
    }
}
