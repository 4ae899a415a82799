import Testing

@testable import MeshTessellate

// `Float.roundedDown` and `Float.roundedUp` are the outward roundings of every Float box and depth
// range the exact sort's filters and the hit-testing tree compare: they must never shrink a
// range. Checked here against their definitions, with the standard library's `nextUp` and
// `nextDown` as the only arithmetic: roundedDown(x) is a Float not above x whose next Float up is
// above x, roundedUp the mirror image.

@Suite struct FloatRoundingTests {
    /// Values where rounding has edge cases: zeros, Double values between zero and Float's least
    /// subnormal, Float's subnormal and normal limits and their Double neighbours, values past the
    /// greatest finite Float (which round to infinity or to it), infinities, exact Floats.
    static let specialValues: [Double] = {
        let floats: [Float] = [
            0, .leastNonzeroMagnitude, .leastNormalMagnitude, 1, .pi, .ulpOfOne, 1 + .ulpOfOne, 65_536,
            .greatestFiniteMagnitude, Float.greatestFiniteMagnitude.nextDown,
        ]
        var values: [Double] = [0, -0.0, 1e-300, .leastNonzeroMagnitude, 1e-46, 1e300, .greatestFiniteMagnitude, .infinity]
        for f in floats {
            let d = Double(f)
            values += [d, d.nextUp, d.nextDown, (d + Double(f.nextUp)) / 2]
        }
        values.append(Double(Float.greatestFiniteMagnitude) + Double(Float.greatestFiniteMagnitude.ulp) / 2)
        values.append(Double(Float.greatestFiniteMagnitude) * 1.5)
        return values + values.map { -$0 }
    }()

    /// Doubles across the exponent range, with random significands (most are not Floats), from a
    /// fixed seed so that a failure can be replayed.
    static func randomValues(count: Int) -> [Double] {
        var generator = TessSupport.Random(seed: 0xF10A7)
        return (0..<count).map { _ in
            let magnitude = Double(
                sign: .plus, exponent: Int.random(in: -160...140, using: &generator),
                significand: Double.random(in: 1..<2, using: &generator))
            return Bool.random(using: &generator) ? magnitude : -magnitude
        }
    }

    @Test func roundedDownIsTheLargestFloatNotAbove() {
        for x in Self.specialValues + Self.randomValues(count: 200_000) {
            let r = Float.roundedDown(x)
            #expect(Double(r) <= x, "roundedDown(\(x)) = \(r) is above it")
            #expect(r == .infinity || Double(r.nextUp) > x, "roundedDown(\(x)) = \(r) is not the largest: \(r.nextUp) is not above it")
        }
    }

    @Test func roundedUpIsTheSmallestFloatNotBelow() {
        for x in Self.specialValues + Self.randomValues(count: 200_000) {
            let r = Float.roundedUp(x)
            #expect(Double(r) >= x, "roundedUp(\(x)) = \(r) is below it")
            #expect(r == -.infinity || Double(r.nextDown) < x, "roundedUp(\(x)) = \(r) is not the smallest: \(r.nextDown) is not below it")
        }
    }

    @Test func exactFloatsAndNaNAreKept() {
        for f: Float in [0, 1, -1, .pi, -.pi, .leastNonzeroMagnitude, -.greatestFiniteMagnitude, .infinity, -.infinity] {
            #expect(Float.roundedDown(Double(f)) == f)
            #expect(Float.roundedUp(Double(f)) == f)
        }
        #expect(Float.roundedDown(.nan).isNaN)
        #expect(Float.roundedUp(.nan).isNaN)
    }
}
