import Foundation
import Testing

// Issue 9: every class of bad input has a defined answer from the tool — an exit code and one line
// on standard error naming the JSON path (or the line and column of a syntax error, or the line of
// a hit query) — and a few inputs that look odd but are valid succeed. CLITests covers the classes
// it already had (index out of range, wrong types, unknown keys, 1e999, weights, repeated
// vertices, non-integral indices, an edge of three faces, inconsistent orientation, a NaN
// literal, the budget, missing input, usage, a missing output directory, an untouched output);
// the classes here are the rest.

@Suite struct BadInputTests {
    // MARK: Fixtures

    /// One unit quad with a replaceable vertex 0, face and extra top-level text.
    static func quad(
        vertex0: String = #"{"from": [0, 0], "to": [0, 0, 0]}"#,
        face: String = #"{"indices": [0, 1, 2, 3]}"#, extra: String = ""
    ) -> String {
        CLIFixtures.quad(
            vertices: [
                vertex0, #"{"from": [1, 0], "to": [1, 0, 0]}"#,
                #"{"from": [1, 1], "to": [1, 1, 0]}"#, #"{"from": [0, 1], "to": [0, 1, 0]}"#,
            ],
            faces: [face], extra: extra)
    }

    static func withLayer(_ layer: String) -> String { quad(extra: ",\n  \"layer\": " + layer) }

    static func transform(_ entries: String) -> String { withLayer("{\"transform\": " + entries + "}") }

    /// A bad document, the JSON path its error must name, and words the message must contain.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var json: String
        var path: String
        var message: [String]
        var testDescription: String { name }
    }

    static let digits5000 = String(repeating: "7", count: 5000)

    static let dataCases: [Case] = [
        // Indices.
        Case(
            name: "index 2^32", json: quad(face: #"{"indices": [0, 4294967296, 2, 3]}"#),
            path: "faces[0].indices[1]", message: ["4294967296 is out of range (4 vertices)"]),
        Case(
            name: "index 2^32 + 1 (wraps to 1 in 32 bits)", json: quad(face: #"{"indices": [0, 4294967297, 2, 3]}"#),
            path: "faces[0].indices[1]", message: ["out of range"]),
        Case(
            name: "negative index", json: quad(face: #"{"indices": [0, 1, 2, -4]}"#),
            path: "faces[0].indices[3]", message: ["-4 is out of range"]),
        Case(
            name: "index as a string", json: quad(face: #"{"indices": ["0", 1, 2, 3]}"#),
            path: "faces[0].indices[0]", message: ["expected a number, found a string"]),
        Case(
            name: "five indices", json: quad(face: #"{"indices": [0, 1, 2, 3, 0]}"#),
            path: "faces[0].indices", message: ["found 5 elements"]),
        Case(
            name: "index 1e400 (overflows a Double)", json: quad(face: #"{"indices": [0, 1, 1e400, 3]}"#),
            path: "faces[0].indices[2]", message: ["not a finite number"]),
        Case(
            name: "index with 5000 digits", json: quad(face: "{\"indices\": [0, 1, 2, \(digits5000)]}"),
            path: "faces[0].indices[3]", message: ["…"]),
        // Numbers.
        Case(
            name: "Infinity literal", json: quad(vertex0: #"{"from": [Infinity, 0], "to": [0, 0, 0]}"#),
            path: "vertices[0].from[0]", message: ["Infinity is not allowed"]),
        Case(
            name: "-Infinity literal", json: quad(vertex0: #"{"from": [0, 0], "to": [0, -Infinity, 0]}"#),
            path: "vertices[0].to[1]", message: ["-Infinity is not allowed"]),
        Case(
            name: "NaN literal in a weight", json: quad(face: #"{"indices": [0, 1, 2, 3], "w": [1, NaN, 1, 1]}"#),
            path: "faces[0].w[1]", message: ["NaN is not allowed"]),
        Case(
            name: "overflowing weight", json: quad(face: #"{"indices": [0, 1, 2, 3], "w": [1, 1, 1e309, 1]}"#),
            path: "faces[0].w[2]", message: ["1e309 is not a finite number"]),
        Case(
            name: "weight that underflows to 0", json: quad(face: #"{"indices": [0, 1, 2, 3], "w": [1e-400, 1, 1, 1]}"#),
            path: "faces[0].w[0]", message: ["greater than 0"]),
        Case(
            name: "a number with 5000 digits", json: quad(vertex0: "{\"from\": [0, 0], \"to\": [0, 0, \(digits5000)]}"),
            path: "vertices[0].to[2]", message: ["not a finite number"]),
        // Steps.
        Case(
            name: "subdivisionSteps 1e30", json: quad(extra: ",\n  \"subdivisionSteps\": 1e30"),
            path: "subdivisionSteps", message: ["1e30 is too large"]),
        Case(
            name: "subdivisionSteps 2^32", json: quad(extra: ",\n  \"subdivisionSteps\": 4294967296"),
            path: "subdivisionSteps", message: ["too large"]),
        Case(
            name: "subdivisionSteps -2", json: quad(extra: ",\n  \"subdivisionSteps\": -2"),
            path: "subdivisionSteps", message: ["-2 is not allowed"]),
        Case(
            name: "subdivisionSteps 2.5", json: quad(extra: ",\n  \"subdivisionSteps\": 2.5"),
            path: "subdivisionSteps", message: ["2.5 is not an integer"]),
        // Enumerations.
        Case(
            name: "unknown depthNormalization", json: quad(extra: ",\n  \"depthNormalization\": \"sideways\""),
            path: "depthNormalization", message: ["unknown depth normalization 'sideways'"]),
        Case(
            name: "depthNormalization in the wrong case", json: quad(extra: ",\n  \"depthNormalization\": \"Width\""),
            path: "depthNormalization", message: ["did you mean 'width'?"]),
        Case(
            name: "depthNormalization as a number", json: quad(extra: ",\n  \"depthNormalization\": 2"),
            path: "depthNormalization", message: ["expected a string"]),
        // Layer sizes.
        Case(
            name: "zero layer width", json: withLayer(#"{"size": [0, 480]}"#),
            path: "layer.size[0]", message: ["must be greater than 0"]),
        Case(
            name: "negative layer height", json: withLayer(#"{"size": [320, -480]}"#),
            path: "layer.size[1]", message: ["must be greater than 0"]),
        Case(
            name: "negative zero layer width", json: withLayer(#"{"size": [-0, 480]}"#),
            path: "layer.size[0]", message: ["must be greater than 0"]),
        Case(
            name: "overflowing layer size", json: withLayer(#"{"size": [1e999, 480]}"#),
            path: "layer.size[0]", message: ["not a finite number"]),
        // Transforms.
        Case(
            name: "transform of 17 numbers", json: transform("[1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1, 0]"),
            path: "layer.transform", message: ["found 17 elements"]),
        Case(
            name: "transform as nested rows", json: transform("[[1,0,0,0], [0,1,0,0], [0,0,1,0], [0,0,0,1]]"),
            path: "layer.transform", message: ["found 4 elements"]),
        Case(
            name: "transform as an object", json: transform(#"{"m11": 1}"#),
            path: "layer.transform", message: ["found an object"]),
        Case(
            name: "transform entry null", json: transform("[1,0,0,0, 0,1,0,0, 0,0,1,null, 0,0,0,1]"),
            path: "layer.transform[11]", message: ["found null"]),
        Case(
            name: "transform entry NaN", json: transform("[1,0,0,0, 0,NaN,0,0, 0,0,1,0, 0,0,0,1]"),
            path: "layer.transform[5]", message: ["NaN is not allowed"]),
        Case(
            name: "transform entry overflowing", json: transform("[1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,-2e308]"),
            path: "layer.transform[15]", message: ["not a finite number"]),
    ]

    /// Each class fails with exit 65 and one line naming the path, from every command that reads a
    /// mesh (the reader is shared, so they must agree).
    @Test(arguments: dataCases)
    func badDataIsExit65NamingThePath(_ bad: Case) throws {
        let ws = try CLIWorkspace()
        try ws.write("bad.json", bad.json)
        for command in [["validate", "bad.json"], ["tessellate", "bad.json"], ["hit", "bad.json", "--at", "1,1"]] {
            let rest = CLITests.expectFailure(try ws.run(command), code: 65, file: "bad.json")
            #expect(rest.hasPrefix(bad.path + ": "), "\(command[0]): \(rest)")
            for part in bad.message {
                #expect(rest.contains(part), "\(command[0]): '\(rest)' should contain '\(part)'")
            }
            // The message quotes a huge number cut short, never in full.
            #expect(rest.count < 300, "\(command[0]): a \(rest.count)-character message")
        }
    }

    // MARK: Malformed JSON: line and column

    static let syntaxCases: [(name: String, text: String, message: String)] = {
        let full = quad()
        func cut(after marker: String) -> String {
            guard let range = full.range(of: marker) else { return full }
            return String(full[..<range.upperBound])
        }
        return [
            ("truncated just after a number", cut(after: #"{"from": [1"#), "unexpected end of input; expected ',' or ']'"),
            ("truncated in a key", cut(after: #"{"fr"#), "unterminated string"),
            ("truncated after a comma", cut(after: #""faces": ["#), "unexpected end of input"),
            (
                "truncated in a literal", #"{"vertices": [], "faces": [], "layer": {"light": {"diffuse": tr"#,
                "unexpected end of input in 'true'"
            ),
            ("empty file", "", "unexpected end of input"),
            ("whitespace only", " \n\t\n", "unexpected end of input"),
            (
                "100000 nested arrays", String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000),
                "nesting is deeper than 64 levels"
            ),
            (
                "deep nesting inside the layer",
                #"{"vertices": [], "faces": [], "layer": {"light": "# + String(repeating: #"{"a": "#, count: 10_000),
                "nesting is deeper than 64 levels"
            ),
            ("binary garbage", "\u{0}\u{1}\u{7F}PK\u{3}\u{4}", "expected a JSON value"),
            ("a lone '-'", #"{"vertices": [{"from": [-, 0]"#, "expected a digit in the number"),
        ]
    }()

    @Test func malformedJSONIsExit65WithLineAndColumn() throws {
        let ws = try CLIWorkspace()
        for (name, text, message) in Self.syntaxCases {
            try ws.write("bad.json", text)
            for command in [["validate", "bad.json"], ["tessellate", "bad.json"]] {
                let rest = CLITests.expectFailure(try ws.run(command), code: 65, file: "bad.json")
                #expect(rest.hasPrefix("line "), "\(name): \(rest)")
                #expect(rest.contains(message), "\(name): '\(rest)' should contain '\(message)'")
            }
        }
        // Invalid UTF-8 inside a string.
        var bytes = Data(#"{"vertices": [], "faces": [], "x"#.utf8)
        bytes.append(contentsOf: [0xC3, 0x28])
        bytes.append(contentsOf: Data(#"": 1}"#.utf8))
        try ws.write("utf8.json", bytes)
        let rest = CLITests.expectFailure(try ws.run(["validate", "utf8.json"]), code: 65, file: "utf8.json")
        #expect(rest.contains("not valid UTF-8"), "\(rest)")
    }

    // MARK: Hit query lines

    @Test func badQueryLinesAreExit65NamingTheLine() throws {
        let ws = try CLIWorkspace()
        try ws.write("quad.json", Self.quad())
        let lines: [(text: String, line: Int)] = [
            ("1 1\n2 2\n1e999 3\n", 3),
            ("1 1\n\n-inf 0\n", 3),
            ("0 \(Self.digits5000)\n", 1),
            ("\(String(repeating: "x", count: 10_000))\n", 1),
            ("1,2\n", 1),
            ("1 2\n3\n", 2),
        ]
        for (text, line) in lines {
            try ws.write("points.txt", text)
            let rest = CLITests.expectFailure(
                try ws.run(["hit", "quad.json", "--points", "points.txt"]), code: 65, file: "points.txt")
            #expect(rest.hasPrefix("line \(line): "), "\(rest)")
            #expect(rest.count < 200, "a \(rest.count)-character message")
        }
    }

    // MARK: Odd but valid

    /// Two faces that share only a vertex: the vertex is pinned, and the two faces tessellate as
    /// two separate patches of 2ⁿ × 2ⁿ quads.
    @Test func facesSharingASingleVertexSucceed() throws {
        let ws = try CLIWorkspace()
        let vertices = [
            #"{"from": [0, 0], "to": [0, 0, 0]}"#, #"{"from": [0.5, 0], "to": [0.5, 0, 0]}"#,
            #"{"from": [0.5, 0.5], "to": [0.5, 0.5, 0.25]}"#, #"{"from": [0, 0.5], "to": [0, 0.5, 0]}"#,
            #"{"from": [1, 0.5], "to": [1, 0.5, 0]}"#, #"{"from": [1, 1], "to": [1, 1, 0]}"#,
            #"{"from": [0.5, 1], "to": [0.5, 1, 0]}"#,
        ]
        try ws.write(
            "bowtie.json",
            CLIFixtures.quad(
                vertices: vertices, faces: [#"{"indices": [0, 1, 2, 3]}"#, #"{"indices": [2, 4, 5, 6]}"#]))
        let validate = try ws.run(["validate", "bowtie.json"])
        #expect(validate.status == 0 && validate.out == "ok\n", "\(validate.err)")
        let steps = 2
        let obj = try ws.run(["tessellate", "bowtie.json", "--steps", String(steps)])
        #expect(obj.status == 0, "\(obj.err)")
        #expect(obj.lines.filter { $0.hasPrefix("f ") }.count == 2 * (1 << (2 * steps)) * 2)
        #expect(Self.everyNumberIsFinite(obj.out))
        #expect(try ws.run(["sort", "bowtie.json"]).status == 0)
        #expect(try ws.run(["hit", "bowtie.json", "--at", "0.25,0.25"]).status == 0)
    }

    /// An all-zero layer transform flattens everything into w = 0, so the screen shows nothing:
    /// every command succeeds, with nothing on screen and no non-finite number anywhere.
    @Test func anAllZeroTransformSucceeds() throws {
        let ws = try CLIWorkspace()
        try ws.write("zero.json", Self.transform("[0,0,0,0, 0,0,0,0, 0,0,0,0, 0,0,0,0]"))
        #expect(try ws.run(["validate", "zero.json"]).status == 0)
        for space in ["unit", "points", "screen"] {
            let obj = try ws.run(["tessellate", "zero.json", "--steps", "1", "--space", space])
            #expect(obj.status == 0, "\(space): \(obj.err)")
            #expect(Self.everyNumberIsFinite(obj.out), "\(space)")
        }
        let screen = try ws.run(["tessellate", "zero.json", "--steps", "1", "--space", "screen"])
        #expect(!screen.lines.contains { $0.hasPrefix("f ") }, "everything is at w = 0, so clipped")
        let sorted = try ws.run(["sort", "zero.json"])
        #expect(sorted.status == 0 && Self.everyNumberIsFinite(sorted.out), "\(sorted.err)")
        let hit = try ws.run(["hit", "zero.json", "--at", "0.5,0.5", "--at", "0,0"])
        #expect(hit.status == 0, "\(hit.err)")
        #expect(hit.lines.count == 2)
        #expect(Self.everyNumberIsFinite(hit.out))
    }

    /// No vertices and no faces: valid, and every command answers with nothing.
    @Test func anEmptyMeshSucceeds() throws {
        let ws = try CLIWorkspace()
        try ws.write("empty.json", #"{"vertices": [], "faces": []}"#)
        let validate = try ws.run(["validate", "empty.json"])
        #expect(validate.status == 0 && validate.out == "ok\n")
        for command in [["tessellate", "empty.json", "--steps", "3"], ["sort", "empty.json"], ["info", "empty.json"]] {
            let output = try ws.run(command)
            #expect(output.status == 0, "\(command[0]): \(output.err)")
            #expect(!output.lines.contains { $0.hasPrefix("f ") || $0.hasPrefix("v ") }, "\(command[0])")
        }
        let hit = try ws.run(["hit", "empty.json", "--at", "0.5,0.5"])
        #expect(hit.status == 0 && hit.out == "{\"x\":0.5,\"y\":0.5,\"hit\":false}\n", "\(hit.out)\(hit.err)")
    }

    /// A number with thousands of digits that is an ordinary finite value is fine.
    @Test func aFiniteNumberWithThousandsOfDigitsSucceeds() throws {
        let ws = try CLIWorkspace()
        let long = "0." + String(repeating: "3", count: 5000)
        try ws.write("long.json", Self.quad(vertex0: "{\"from\": [0, 0], \"to\": [0, 0, \(long)]}"))
        let obj = try ws.run(["tessellate", "long.json", "--steps", "0"])
        #expect(obj.status == 0, "\(obj.err)")
        // Steps 0 draws the control points: vertex 0's z is the nearest Double to 1/3.
        let first = try #require(obj.lines.first { $0.hasPrefix("v ") })
        let z = try #require(Double(first.split(separator: " ")[3]))
        #expect(z == 1.0 / 3.0)
    }

    // MARK: Bounded resources

    /// 20 steps on one face is 2 · 4²⁰ triangles: refused with the count before any work, from
    /// the option and from the file alike, by every command that tessellates.
    @Test func absurdStepsAreRefusedWithTheCount() throws {
        let ws = try CLIWorkspace()
        try ws.write("quad.json", Self.quad())
        try ws.write("steps20.json", Self.quad(extra: ",\n  \"subdivisionSteps\": 20"))
        let count = String(2 * (1 << 40))
        for command in [
            ["tessellate", "quad.json", "--steps", "20"], ["tessellate", "steps20.json"],
            ["sort", "quad.json", "--steps", "20"], ["hit", "steps20.json", "--at", "1,1"],
            ["info", "steps20.json"],
        ] {
            let output = try ws.run(command)
            if command[0] == "info" {
                // info reports what the steps would make, without making it.
                #expect(output.status == 0, "\(output.err)")
                #expect(output.out.contains("\(count) triangles"), "\(output.out)")
                continue
            }
            let file = command[1]
            let rest = CLITests.expectFailure(output, code: 65, file: file)
            #expect(rest.hasPrefix("subdivisionSteps: "), "\(command): \(rest)")
            #expect(rest.contains(count), "\(command): '\(rest)' should state the \(count) triangles")
        }
        // An absurd budget is not a way around the limit on steps.
        let huge = try ws.run(["tessellate", "quad.json", "--steps", "40", "--max-triangles", String(Int.max)])
        #expect(huge.status == 65)
        #expect(huge.errLines.count == 1)
    }

    /// A file larger than the 256 MiB input limit is refused without being parsed (a sparse file,
    /// so the test writes nothing to disk).
    @Test func anInputOverTheSizeLimitIsRefused() throws {
        let ws = try CLIWorkspace()
        let path = ws.path("huge.json")
        #expect(FileManager.default.createFile(atPath: path, contents: Data("[".utf8)))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: (256 << 20) + 1)
        try handle.close()
        let rest = CLITests.expectFailure(try ws.run(["validate", "huge.json"]), code: 65, file: "huge.json")
        #expect(rest.contains("256 MiB"), "\(rest)")
    }

    // MARK: Output

    /// An output path that cannot be created is exit 73, and nothing is left behind.
    @Test func unwritableOutputPathsAreExit73() throws {
        let ws = try CLIWorkspace()
        try ws.write("quad.json", Self.quad())
        try FileManager.default.createDirectory(atPath: ws.path("dir.obj"), withIntermediateDirectories: false)
        try ws.write("dir.obj/keep.txt", "keep")
        // A directory where the file should go, and a regular file used as a directory.
        for target in ["dir.obj", "quad.json/out.obj"] {
            CLITests.expectFailure(try ws.run(["tessellate", "quad.json", "-o", target]), code: 73, file: target)
        }
        #expect(try ws.listing() == ["dir.obj", "quad.json"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: ws.path("dir.obj")) == ["keep.txt"])
        #expect(try ws.read("quad.json") == Data(Self.quad().utf8))
    }

    /// A failed run after a successful one leaves the first result byte for byte, for every
    /// command that writes a file.
    @Test func aFailedRunKeepsTheEarlierOutput() throws {
        let ws = try CLIWorkspace()
        try ws.write("quad.json", Self.quad())
        try ws.write("bad.json", Self.withLayer(#"{"size": [0, 1]}"#))
        let commands: [(good: [String], bad: [String])] = [
            (["tessellate", "quad.json", "--steps", "1"], ["tessellate", "quad.json", "--steps", "20"]),
            (["sort", "quad.json"], ["sort", "bad.json"]),
            (["hit", "quad.json", "--at", "0.5,0.5"], ["hit", "bad.json", "--at", "0.5,0.5"]),
        ]
        for (good, bad) in commands {
            #expect(try ws.run(good + ["-o", "out.txt"]).status == 0)
            let before = try ws.read("out.txt")
            #expect(!before.isEmpty)
            #expect(try ws.run(bad + ["-o", "out.txt"]).status == 65)
            #expect(try ws.read("out.txt") == before, "\(bad[0]) changed the earlier output")
        }
        #expect(try ws.listing() == ["bad.json", "out.txt", "quad.json"])
    }

    // MARK: Helpers

    /// Whether no number in the text is NaN or infinite: the tool writes shortest round-trip
    /// numbers, so a non-finite one would appear as `nan` or `inf`.
    static func everyNumberIsFinite(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return !lowered.contains("nan") && !lowered.contains("inf")
    }
}
