import Foundation
import Testing

// Numbers that would overflow (counts from steps, coordinates, sizes, transforms, weight ratios),
// the final guard against writing NaN or infinity, writers whose output every reader takes, and
// messages for odd input (UTF-16, CRLF, control characters).

@Suite struct NumbersCLITests {
    /// A 2 × 2 identity grid as mesh.json, with `edit` applied to its parsed form.
    static func grid(steps: Int = 2, _ edit: (inout [String: Any]) -> Void = { _ in }) throws -> String {
        var vertices: [[String: Any]] = []
        for r in 0...2 {
            for c in 0...2 {
                let x = Double(c) / 2, y = Double(r) / 2
                vertices.append(["from": [x, y], "to": [x, y, 0.0]])
            }
        }
        var faces: [[String: Any]] = []
        for r in 0..<2 {
            for c in 0..<2 {
                let a = r * 3 + c
                faces.append(["indices": [a, a + 1, a + 4, a + 3]])
            }
        }
        var document: [String: Any] = ["vertices": vertices, "faces": faces, "subdivisionSteps": steps]
        edit(&document)
        return String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self)
    }

    static func setWeight(_ document: inout [String: Any], face: Int, corner: Int, _ value: Double) {
        var faces = document["faces"] as? [[String: Any]] ?? []
        var w: [Double] = [1, 1, 1, 1]
        w[corner] = value
        faces[face]["w"] = w
        document["faces"] = faces
    }

    static func setTo(_ document: inout [String: Any], vertex: Int, _ value: [Double]) {
        var vertices = document["vertices"] as? [[String: Any]] ?? []
        vertices[vertex]["to"] = value
        document["vertices"] = vertices
    }

    /// Numbers written as text in an output that are not finite.
    static func containsNonFinite(_ text: String) -> Bool {
        text.range(of: #"(?i)\bnan\b|\binf|null"#, options: .regularExpression) != nil
    }

    // MARK: Counts

    @Test func infoAtThirtyStepsSaturatesInsteadOfOverflowing() throws {
        let dir = try CLIWorkspace()
        try dir.write("steps30.json", try Self.grid(steps: 30))
        let result = try dir.run(["info", "steps30.json"])
        #expect(result.status == 0, "\(result.err)")
        // Points: V + E(2ⁿ − 1) + F(2ⁿ − 1)² with V = 9, E = 12, F = 4, n = 30; triangles 2·F·4ⁿ = 2⁶⁶.
        let side = (1 << 30) - 1
        let points = 9 + 12 * side + 4 * side * side
        #expect(result.out.contains("tessellation at 30 steps: \(points) points, more than \(Int.max) triangles"))
        // Below the overflow the counts are exact: steps 20, 2·4·4²⁰ triangles.
        try dir.write("steps20.json", try Self.grid(steps: 20))
        let twenty = try dir.run(["info", "steps20.json"])
        #expect(twenty.out.contains("\(8 << 40) triangles"))
        for steps in ["62", "63", "2147483647"] {
            try dir.write("s.json", try Self.grid(steps: Int(steps) ?? 0))
            let huge = try dir.run(["info", "s.json"])
            #expect(huge.status == 0 && huge.out.contains("more than \(Int.max) points"), "\(steps): \(huge.err)")
        }
    }

    // MARK: Ranges

    struct RangeCase: Sendable, CustomTestStringConvertible {
        var name: String
        var json: @Sendable () throws -> String
        var path: String
        var testDescription: String { name }
    }

    static let outOfRange: [RangeCase] = [
        RangeCase(name: "weight 1e17", json: { try grid { setWeight(&$0, face: 0, corner: 0, 1e17) } }, path: "faces[0].w[0]"),
        RangeCase(name: "weight 1e-17", json: { try grid { setWeight(&$0, face: 3, corner: 2, 1e-17) } }, path: "faces[3].w[2]"),
        RangeCase(name: "weight 1e120", json: { try grid { setWeight(&$0, face: 1, corner: 1, 1e120) } }, path: "faces[1].w[1]"),
        RangeCase(name: "to near 1e307", json: { try grid { setTo(&$0, vertex: 4, [0.5, 1e307, 0]) } }, path: "vertices[4].to[1]"),
        RangeCase(
            name: "from 2e9",
            json: {
                try grid {
                    var vertices = $0["vertices"] as? [[String: Any]] ?? []
                    vertices[8]["from"] = [2e9, 1.0]
                    $0["vertices"] = vertices
                }
            }, path: "vertices[8].from[0]"),
        RangeCase(name: "size 1e308", json: { try grid { $0["layer"] = ["size": [1e308, 10]] } }, path: "layer.size[0]"),
        RangeCase(name: "size 1e-300", json: { try grid { $0["layer"] = ["size": [10, 1e-300]] } }, path: "layer.size[1]"),
        RangeCase(
            name: "transform 1e308",
            json: { try grid { $0["layer"] = ["transform": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 1e308, 1]] } },
            path: "layer.transform[14]"),
        RangeCase(name: "anchor 1e300", json: { try grid { $0["layer"] = ["anchor": [1e300, 0.5]] } }, path: "layer.anchor[0]"),
    ]

    /// Every command refuses the input with exit 65 naming the path, and writes nothing.
    @Test(arguments: outOfRange)
    func outsideTheRangeIsRefusedNamingThePath(_ c: RangeCase) throws {
        let dir = try CLIWorkspace()
        try dir.write("mesh.json", try c.json())
        for command in [
            ["validate", "mesh.json"], ["info", "mesh.json"], ["tessellate", "mesh.json", "-o", "out.obj"],
            ["tessellate", "mesh.json", "--space", "screen", "--format", "glb", "-o", "out.glb"], ["sort", "mesh.json", "-o", "out.obj"],
            ["hit", "mesh.json", "--at", "0.5,0.5", "-o", "out.jsonl"], ["render", "mesh.json", "-o", "out.svg"],
            ["render", "mesh.json", "-o", "out.png"], ["fit", "mesh.json", "-o", "out.json"],
        ] {
            let result = try dir.run(command)
            #expect(result.status == 65, "\(c.name) \(command)")
            #expect(result.errLines.count == 1, "\(c.name) \(command)")
            #expect(result.err.hasPrefix("meshgeo: error: mesh.json: \(c.path): "), "\(c.name) \(command): \(result.err)")
            #expect(result.stdout.isEmpty)
        }
        #expect(try dir.listing() == ["mesh.json"])
    }

    /// At the limits the results are finite, and the surface stays where mathematics puts it:
    /// inside the convex hull of the control points (a rational surface with positive weights is
    /// a convex combination of them), here the unit square of the flat grid.
    @Test func atTheLimitsEveryOutputIsFinite() throws {
        let dir = try CLIWorkspace()
        let cases: [(String, String)] = [
            ("heavy", try Self.grid { Self.setWeight(&$0, face: 1, corner: 2, 1e6) }),
            ("light", try Self.grid { Self.setWeight(&$0, face: 0, corner: 0, 1e-6) }),
            (
                "scaled",
                try Self.grid { doc in
                    var faces = doc["faces"] as? [[String: Any]] ?? []
                    for f in faces.indices { faces[f]["w"] = [1e100, 1e100, f == 2 ? 1e94 : 1e100, 1e100] }
                    doc["faces"] = faces
                }
            ),
        ]
        for (name, json) in cases {
            try dir.write("\(name).json", json)
            let obj = try dir.run(["tessellate", "\(name).json", "--steps", "3"])
            #expect(obj.status == 0, "\(name): \(obj.err)")
            #expect(!Self.containsNonFinite(obj.out), "\(name)")
            for line in obj.lines where line.hasPrefix("v ") {
                let numbers = line.split(separator: " ").dropFirst().compactMap { Double(String($0)) }
                #expect(numbers.count == 3)
                #expect(numbers.allSatisfy { $0 >= -1e-12 && $0 <= 1 + 1e-12 }, "\(name): \(line)")
            }
            for command in [
                ["sort", "\(name).json"], ["hit", "\(name).json", "--at", "0.25,0.75", "--exact"], ["render", "\(name).json"],
            ] {
                let result = try dir.run(command)
                #expect(result.status == 0 && !Self.containsNonFinite(result.out), "\(name) \(command): \(result.err)")
            }
        }
        // Coordinates, size and transform at their limits, with a perspective.
        try dir.write(
            "big.json",
            try Self.grid { doc in
                Self.setTo(&doc, vertex: 4, [1e9, -1e9, 1e9])
                doc["layer"] = ["size": [1e9, 1e9], "transform": [1e9, 0, 0, 0, 0, 1e9, 0, 0, 0, 0, 1e9, -1e-9, 0, 0, 0, 1e9]]
            })
        for space in ["unit", "points", "screen"] {
            let result = try dir.run(["tessellate", "big.json", "--space", space, "--steps", "2"])
            #expect(result.status == 0 && !Self.containsNonFinite(result.out), "\(space): \(result.err)")
        }
    }

    // MARK: Writers and readers agree

    @Test func whatACommandWritesEveryCommandReads() throws {
        let dir = try CLIWorkspace()
        let tooBig = try dir.run(["identity", "--rows", "2000", "--columns", "2000", "-o", "big.json"])
        #expect(tooBig.status == 64)
        #expect(tooBig.errLines.count == 1 && tooBig.err.contains("256 MiB"))
        #expect(try dir.run(["identity", "--rows", "2", "--columns", "2", "--steps", "99999999999"]).status == 64)
        let largest = try dir.run(["identity", "--rows", "1", "--columns", "1", "--steps", "2147483647", "-o", "s.json"])
        #expect(largest.status == 0)
        #expect(try dir.run(["validate", "s.json"]).out == "ok\n")
        // Interpolation far outside 0…1 blames the fraction, not the second file.
        try dir.write("a.json", try Self.grid())
        try dir.write("b.json", try Self.grid { Self.setTo(&$0, vertex: 4, [0.5, 0.5, 1]) })
        for fraction in ["1e308", "2e9"] {
            let result = try dir.run(["interpolate", "a.json", "b.json", "--fraction", fraction, "-o", "i.json"])
            #expect(result.status == 65)
            #expect(result.err.hasPrefix("meshgeo: error: --fraction "), "\(result.err)")
            #expect(!result.err.contains("b.json"))
        }
        #expect(!dir.exists("i.json"))
        // A light pointing nowhere: refused by validate as by render, with the path.
        try dir.write("dark.json", try Self.grid { $0["layer"] = ["light": ["direction": [0, 0, 0]]] })
        for command in [["validate", "dark.json"], ["render", "dark.json"], ["info", "dark.json"]] {
            let result = try dir.run(command)
            #expect(result.status == 65 && result.err.contains("dark.json: layer.light.direction:"), "\(command)")
        }
    }

    @Test func aCutTextureIsRefusedNotEmbedded() throws {
        let dir = try CLIWorkspace()
        try dir.write("quad.json", try Self.grid())
        #expect(try dir.run(["render", "quad.json", "-o", "whole.png", "--scale", "16"]).status == 0)
        let png = try dir.read("whole.png")
        try dir.write("cut.png", png.prefix(png.count - 20))
        let cut = try dir.run(["tessellate", "quad.json", "--format", "glb", "--texture", "cut.png", "-o", "t.glb"])
        #expect(cut.status == 65)
        #expect(cut.errLines.count == 1 && cut.err.hasPrefix("meshgeo: error: cut.png: "))
        // The bundled JPEG texture cut in half, and whole.
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples")
        let jpeg = try Data(contentsOf: examples.appendingPathComponent("texture.jpg"))
        try dir.write("cut.jpg", jpeg.prefix(jpeg.count / 2))
        let cutJPEG = try dir.run(["tessellate", "quad.json", "--format", "glb", "--texture", "cut.jpg", "-o", "t.glb"])
        #expect(cutJPEG.status == 65, "\(cutJPEG.err)")
        #expect(cutJPEG.errLines.count == 1 && cutJPEG.err.hasPrefix("meshgeo: error: cut.jpg: "), "\(cutJPEG.err)")
        try dir.write("whole.jpg", jpeg)
        #expect(try dir.run(["tessellate", "quad.json", "--format", "glb", "--texture", "whole.jpg", "-o", "t.glb"]).status == 0)
    }

    // MARK: Messages

    @Test func utf16InputIsNamedAsSuch() throws {
        let dir = try CLIWorkspace()
        let text = try Self.grid()
        for (name, bom, bigEndian) in [
            ("le.json", [UInt8(0xFF), 0xFE], false), ("be.json", [0xFE, 0xFF], true), ("plain.json", [], false),
        ] {
            var bytes = bom
            for unit in text.utf16 {
                bytes += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
            }
            try dir.write(name, Data(bytes))
            let result = try dir.run(["validate", name])
            #expect(result.status == 65)
            #expect(result.err.contains("UTF-16") && result.err.contains("UTF-8"), "\(name): \(result.err)")
            #expect(!result.err.contains("unexpected byte"))
        }
    }

    @Test func pointsFilesWithCRLFAndControlCharacters() throws {
        let dir = try CLIWorkspace()
        try dir.write("quad.json", try Self.grid())
        try dir.write("lf.txt", "0.25 0.25\n0.75 0.5\n\n0.5 0.5\n")
        try dir.write("crlf.txt", "0.25 0.25\r\n0.75 0.5\r\n\r\n0.5 0.5\r\n")
        let lf = try dir.run(["hit", "quad.json", "--points", "lf.txt"])
        let crlf = try dir.run(["hit", "quad.json", "--points", "crlf.txt"])
        #expect(lf.status == 0 && crlf.status == 0, "\(crlf.err)")
        #expect(lf.lines.count == 3 && crlf.out == lf.out)
        // A bad fourth line, with CRLF ends and an escape character: one line, the right number,
        // the control character escaped.
        try dir.write("bad.txt", "0.25 0.25\r\n0.75 0.5\r\n\r\n1 \u{1B}[31mred\r\n")
        let bad = try dir.run(["hit", "quad.json", "--points", "bad.txt"])
        #expect(bad.status == 65)
        #expect(bad.errLines.count == 1)
        #expect(bad.err.contains("line 4:"), "\(bad.err)")
        #expect(!bad.err.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(bad.err.contains("\\u{1B}[31mred"))
        // A file name with a newline is still one line.
        try dir.write("two\nlines.json", "{")
        let named = try dir.run(["validate", "two\nlines.json"])
        #expect(named.status == 65 && named.errLines.count == 1 && named.err.contains("two\\nlines.json"))
    }
}
