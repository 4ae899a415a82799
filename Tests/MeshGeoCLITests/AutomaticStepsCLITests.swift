import Foundation
import Testing

/// Automatic steps from the command line: `--tolerance`, what `info` reports, and refusals.
@Suite struct AutomaticStepsCLITests {
    /// A 6 × 6 grid on a 100 × 100 pt layer bent by z = 0.1·sin(2πx)·cos(2πy) (10 pt high, depth
    /// scaled by the width), with automatic steps.
    static func bentGrid() -> String {
        let n = 6
        var vertices: [String] = []
        for i in 0...n {
            for j in 0...n {
                let x = Double(j) / Double(n), y = Double(i) / Double(n)
                let z = 0.1 * sin(2 * Double.pi * x) * cos(2 * Double.pi * y)
                vertices.append("{\"from\": [\(x), \(y)], \"to\": [\(x), \(y), \(z)]}")
            }
        }
        var faces: [String] = []
        for i in 0..<n {
            for j in 0..<n {
                let a = i * (n + 1) + j
                faces.append("{\"indices\": [\(a), \(a + 1), \(a + n + 2), \(a + n + 1)]}")
            }
        }
        return """
            {"vertices": [\(vertices.joined(separator: ", "))],
             "faces": [\(faces.joined(separator: ", "))],
             "depthNormalization": "width", "subdivisionSteps": -1, "layer": {"size": [100, 100]}}
            """
    }

    /// The number after `label` on the `tessellation:` line of `text` (up to a space or comma).
    static func number(after label: String, in text: String) -> Double? {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("tessellation: ") }),
            let range = line.range(of: label)
        else { return nil }
        let rest = line[range.upperBound...].prefix { !" ,\n".contains($0) }
        return Double(rest)
    }

    /// `info` states the default tolerance (0.001 × 100 pt), the rates, a measured deviation
    /// within it, and the triangle count `tessellate` then writes; a looser tolerance takes fewer.
    @Test func infoReportsWhatTessellateMakes() throws {
        let ws = try CLIWorkspace()
        try ws.write("bent.json", Self.bentGrid())
        let info = try ws.run(["info", "bent.json"])
        #expect(info.status == 0, "\(info.err)")
        #expect(info.out.contains("subdivisionSteps: -1 (automatic, tolerance 0.1 points)"), "\(info.out)")
        #expect(info.out.contains("automatic steps: "), "\(info.out)")
        let deviation = try #require(Self.number(after: "largest measured deviation ", in: info.out))
        #expect(deviation > 0 && deviation <= 0.1)
        let triangles = try #require(Self.number(after: "points, ", in: info.out))
        let obj = try ws.run(["tessellate", "bent.json"])
        #expect(obj.status == 0, "\(obj.err)")
        #expect(Double(obj.lines.filter { $0.hasPrefix("f ") }.count) == triangles)
        // Uniform steps 0 would be 72 triangles; a curved surface at 0.1 pt needs more.
        #expect(triangles > 72)

        let loose = try ws.run(["info", "bent.json", "--tolerance", "1"])
        #expect(loose.out.contains("tolerance 1.0 points"), "\(loose.out)")
        let fewer = try #require(Self.number(after: "points, ", in: loose.out))
        #expect(fewer < triangles)
    }

    /// A tolerance that is not a positive number is a usage error (64); one no face can meet is
    /// refused (65) naming the face and the segments it would need.
    @Test func badAndUnreachableTolerances() throws {
        let ws = try CLIWorkspace()
        try ws.write("bent.json", Self.bentGrid())
        for value in ["0", "-1", "nan", "inf"] {
            let output = try ws.run(["tessellate", "bent.json", "--tolerance", value])
            #expect(output.status == 64, "\(value): \(output.err)")
        }
        let output = try ws.run(["tessellate", "bent.json", "--tolerance", "1e-12"])
        let rest = CLITests.expectFailure(output, code: 65, file: "bent.json")
        #expect(rest.hasPrefix("faces["), "\(rest)")
        #expect(rest.contains("segments along this face"), "\(rest)")
    }

    /// A bent L of three quads (its inner corner a boundary vertex with three faces), with
    /// automatic steps at the default tolerance: `tessellate` succeeds (it was refused with 65),
    /// writes the triangles `info` reports, and `info` states the isolation within 0.1 points.
    @Test func irregularVertexAtTheDefaultTolerance() throws {
        var vertices: [String] = []
        for k in 0..<9 {
            let x = Double(k % 3) / 2, y = Double(k / 3) / 2
            vertices.append("{\"from\": [\(x), \(y)], \"to\": [\(x), \(y), \(0.1 * sin(2 * x + 2 * y))]}")
        }
        let json = """
            {"vertices": [\(vertices.joined(separator: ", "))],
             "faces": [{"indices": [0, 1, 4, 3]}, {"indices": [1, 2, 5, 4]}, {"indices": [3, 4, 7, 6]}],
             "depthNormalization": "width", "subdivisionSteps": -1, "layer": {"size": [100, 100]}}
            """
        let ws = try CLIWorkspace()
        try ws.write("l.json", json)
        let info = try ws.run(["info", "l.json"])
        #expect(info.status == 0, "\(info.err)")
        #expect(info.out.contains("irregular vertices: 1 isolated in up to "), "\(info.out)")
        let deviation = try #require(Self.number(after: "largest measured deviation ", in: info.out))
        #expect(deviation > 0 && deviation <= 0.1)
        let triangles = try #require(Self.number(after: "points, ", in: info.out))
        let obj = try ws.run(["tessellate", "l.json"])
        #expect(obj.status == 0, "\(obj.err)")
        #expect(Double(obj.lines.filter { $0.hasPrefix("f ") }.count) == triangles)
        #expect(triangles < 5000)
    }
}
