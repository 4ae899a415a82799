import Foundation
import Testing

// Tests of the meshgeo command line (Docs/mesh-json.md, Docs/command-line.md), run as a separate process. Expected values
// come from the mesh.json text written here, from counting (faces, edges, sub-quads) and from the
// exit codes and error format Docs/errors.md fixes.

// MARK: - OBJ and mesh.json reading (written here)

struct ParsedOBJ {
    var v: [SIMD3<Double>] = []
    var vt: [SIMD2<Double>] = []
    var vn: [SIMD3<Double>] = []
    /// 0-based vertex indices.
    var f: [[Int]] = []
    var malformed: [String] = []

    init(_ data: Data) {
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard let tag = fields.first else { continue }
            let numbers = fields.dropFirst().compactMap { Double(String($0)) }
            switch tag {
            case "v" where numbers.count == 3 && fields.count == 4: v.append(SIMD3(numbers[0], numbers[1], numbers[2]))
            case "vt" where numbers.count == 2 && fields.count == 3: vt.append(SIMD2(numbers[0], numbers[1]))
            case "vn" where numbers.count == 3 && fields.count == 4: vn.append(SIMD3(numbers[0], numbers[1], numbers[2]))
            case "f" where fields.count == 4:
                var face: [Int] = []
                for corner in fields.dropFirst() {
                    let parts = corner.split(separator: "/", omittingEmptySubsequences: false)
                    if parts.count == 3, parts[0] == parts[1], parts[1] == parts[2], let i = Int(String(parts[0])) {
                        face.append(i - 1)
                    } else {
                        malformed.append(String(line))
                    }
                }
                f.append(face)
            default:
                if !tag.hasPrefix("#") { malformed.append(String(line)) }
            }
        }
    }
}

/// mesh.json parsed with Foundation's JSONSerialization (independent of the tool's reader).
struct ParsedMesh {
    var from: [[Double]] = []
    var to: [[Double]] = []
    var faces: [[Int]] = []
    var weights: [[Double]?] = []
    var root: [String: Any] = [:]

    init(_ data: Data) throws {
        let object = try JSONSerialization.jsonObject(with: data)
        root = try #require(object as? [String: Any])
        let vertices = try #require(root["vertices"] as? [Any])
        for case let v as [String: Any] in vertices {
            from.append(try #require(Self.numbers(v["from"])))
            to.append(try #require(Self.numbers(v["to"])))
        }
        #expect(from.count == vertices.count)
        let faceObjects = try #require(root["faces"] as? [Any])
        for case let f as [String: Any] in faceObjects {
            faces.append(try #require(Self.numbers(f["indices"])).map { Int($0) })
            weights.append(Self.numbers(f["w"]))
        }
        #expect(faces.count == faceObjects.count)
    }

    /// A JSON number as a Double, however Foundation bridged it.
    static func number(_ value: Any?) -> Double? {
        switch value {
        case let n as Double: n
        case let n as Int: Double(n)
        case let n as NSNumber: n.doubleValue
        default: nil
        }
    }

    static func numbers(_ value: Any?) -> [Double]? {
        guard let array = value as? [Any] else { return nil }
        let result = array.compactMap { number($0) }
        return result.count == array.count ? result : nil
    }

    /// Distinct undirected edges of the faces.
    var edgeCount: Int {
        var edges = Set<[Int]>()
        for f in faces {
            for k in 0..<4 { edges.insert([min(f[k], f[(k + 1) % 4]), max(f[k], f[(k + 1) % 4])]) }
        }
        return edges.count
    }
}

// MARK: - Fixture text

enum CLIFixtures {
    static let examples = ["wavy", "ripple", "skew", "cylinder", "curl", "split", "lit"]

    /// mesh.json for one quad over vertices (0,0), (1,0), (1,1), (0,1), with replaceable parts.
    static func quad(
        vertices: [String]? = nil, faces: [String]? = nil, extra: String = ""
    ) -> String {
        let v =
            vertices ?? [
                #"{"from": [0, 0], "to": [0, 0, 0]}"#, #"{"from": [1, 0], "to": [1, 0, 0]}"#,
                #"{"from": [1, 1], "to": [1, 1, 0]}"#, #"{"from": [0, 1], "to": [0, 1, 0]}"#,
            ]
        let f = faces ?? [#"{"indices": [0, 1, 2, 3]}"#]
        return "{\n  \"vertices\": [\n    " + v.joined(separator: ",\n    ") + "\n  ],\n  \"faces\": [\n    "
            + f.joined(separator: ",\n    ") + "\n  ]" + extra + "\n}\n"
    }

    /// `count` identity vertices along x, for topology cases.
    static func lineVertices(_ count: Int) -> [String] {
        (0..<count).map { #"{"from": [\#($0), 0], "to": [\#($0), 0, 0]}"# }
    }

    /// A 2 × 3 grid's mesh.json (12 vertices, 6 faces) with `to` and `from` moved by dyadic amounts,
    /// so that midpoints are exact.
    static func movedGrid(
        weights face0: String? = nil, depthNormalization: String = "none", skipFace: Int? = nil,
        extraVertex: Bool = false, swapFace: Int? = nil
    ) -> String {
        var vertices: [String] = []
        for i in 0...2 {
            for j in 0...3 {
                let k = Double(i * 4 + j)
                let fx = Double(j) / 3 + k / 1024, fy = Double(i) / 2 - k / 2048
                let tx = Double(j) / 3 + 0.125 * Double(j % 2), ty = Double(i) / 2 + 0.0625, tz = 0.25 * k
                vertices.append(#"{"from": [\#(fx), \#(fy)], "to": [\#(tx), \#(ty), \#(tz)]}"#)
            }
        }
        if extraVertex { vertices.append(#"{"from": [0.5, 0.5], "to": [0.5, 0.5, 0]}"#) }
        var faces: [String] = []
        for r in 0..<2 {
            for c in 0..<3 {
                let tl = r * 4 + c
                var indices = [tl, tl + 1, tl + 5, tl + 4]
                if swapFace == r * 3 + c { indices = [indices[1], indices[2], indices[3], indices[0]] }
                let w = (r == 0 && c == 0) ? face0.map { ", \"w\": \($0)" } ?? "" : ""
                if skipFace == r * 3 + c { continue }
                faces.append("{\"indices\": [\(indices.map(String.init).joined(separator: ", "))]\(w)}")
            }
        }
        return quad(vertices: vertices, faces: faces, extra: ",\n  \"depthNormalization\": \"\(depthNormalization)\"")
    }
}

// MARK: - Tests

@Suite struct CLITests {
    /// Expects the failure form of Docs/errors.md: the exit code, nothing on stdout and exactly one
    /// stderr line `meshgeo: error: FILE: …`; returns the part after `FILE: `.
    @discardableResult
    static func expectFailure(
        _ output: MeshGeoCLI.Output, code: Int32, file: String?,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> String {
        #expect(output.status == code, "exit \(output.status), stderr: \(output.err)", sourceLocation: sourceLocation)
        #expect(output.stdout.isEmpty, "stdout: \(output.out.prefix(200))", sourceLocation: sourceLocation)
        #expect(
            output.err.hasSuffix("\n") && output.errLines.count == 1, "stderr is not one line: \(output.err)",
            sourceLocation: sourceLocation)
        let line = String(output.errLines.first ?? "")
        let prefix = file.map { "meshgeo: error: \($0): " } ?? "meshgeo: error: "
        #expect(line.hasPrefix(prefix), "\(line)", sourceLocation: sourceLocation)
        return line.hasPrefix(prefix) ? String(line.dropFirst(prefix.count)) : line
    }

    @Test func binaryIsFound() throws {
        let binary = try #require(MeshGeoCLI.binary)
        #expect(binary.lastPathComponent == "meshgeo")
    }

    // MARK: Examples

    @Test func exampleListNamesEveryExample() throws {
        let ws = try CLIWorkspace()
        let list = try ws.run(["example", "--list"])
        #expect(list.status == 0)
        let names = list.out.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        #expect(names.sorted() == CLIFixtures.examples.sorted())
    }

    /// Every example validates; tessellating it at steps 1 gives 2·4 triangles per face and
    /// V + E + F vertices (one point per control vertex, edge and face).
    @Test(arguments: CLIFixtures.examples)
    func exampleValidatesAndTessellates(name: String) throws {
        let ws = try CLIWorkspace()
        let example = try ws.run(["example", name])
        #expect(example.status == 0 && example.stderr.isEmpty, "\(example.err)")
        try ws.write("\(name).json", example.stdout)
        let viaFile = try ws.run(["example", name, "-o", "copy.json"])
        #expect(viaFile.status == 0 && viaFile.stdout.isEmpty)
        #expect(try ws.read("copy.json") == example.stdout)

        let validate = try ws.run(["validate", "\(name).json"])
        #expect(validate.status == 0)
        #expect(validate.out == "ok\n")
        #expect(validate.stderr.isEmpty)

        let mesh = try ParsedMesh(example.stdout)
        #expect(!mesh.faces.isEmpty)
        let tessellate = try ws.run(["tessellate", "\(name).json", "--steps", "1"])
        #expect(tessellate.status == 0, "\(tessellate.err)")
        let obj = ParsedOBJ(tessellate.stdout)
        #expect(obj.malformed.isEmpty, "\(obj.malformed.prefix(3))")
        #expect(obj.f.count == 2 * 4 * mesh.faces.count)
        let used = Set(mesh.faces.joined()).count
        #expect(obj.v.count == used + mesh.edgeCount + mesh.faces.count)
        #expect(obj.vt.count == obj.v.count && obj.vn.count == obj.v.count)
        #expect(obj.f.allSatisfy { $0.count == 3 && $0.allSatisfy { (0..<obj.v.count).contains($0) } })
    }

    // MARK: Output

    @Test func outputFileLeavesStdoutEmpty() throws {
        let ws = try CLIWorkspace()
        try ws.write("mesh.json", CLIFixtures.movedGrid())
        let toStdout = try ws.run(["tessellate", "mesh.json", "--steps", "2", "--space", "points"])
        #expect(toStdout.status == 0 && toStdout.stderr.isEmpty)
        #expect(!toStdout.stdout.isEmpty)

        let toFile = try ws.run(["tessellate", "mesh.json", "--steps", "2", "--space", "points", "-o", "out.obj"])
        #expect(toFile.status == 0)
        #expect(toFile.stdout.isEmpty)
        #expect(toFile.stderr.isEmpty)
        #expect(try ws.read("out.obj") == toStdout.stdout)
        // No temporary file is left beside it.
        #expect(try ws.listing() == ["mesh.json", "out.obj"])
        // Overwriting works, with the long option name too.
        let again = try ws.run(["tessellate", "mesh.json", "--steps", "0", "--output", "out.obj"])
        #expect(again.status == 0 && again.stdout.isEmpty)
        #expect(ParsedOBJ(try ws.read("out.obj")).f.count == 2 * 6)
        #expect(try ws.listing() == ["mesh.json", "out.obj"])
    }

    /// `identity --rows 2 --columns 3`, then `tessellate --steps 0`: the 12 grid points
    /// (j/3, i/2, 0) with from = position, 12 triangles tiling the unit square, positively oriented.
    @Test func identityRoundTripsTheLayer() throws {
        let ws = try CLIWorkspace()
        let identity = try ws.run(["identity", "--rows", "2", "--columns", "3", "-o", "id.json"])
        #expect(identity.status == 0 && identity.stdout.isEmpty && identity.stderr.isEmpty)
        let mesh = try ParsedMesh(try ws.read("id.json"))
        #expect(mesh.from.count == 12 && mesh.faces.count == 6)
        #expect(mesh.root["depthNormalization"] as? String == "none")
        #expect(ParsedMesh.number(mesh.root["subdivisionSteps"]) == -1)

        for space in ["unit", "points", "screen"] {
            let out = try ws.run(["tessellate", "id.json", "--steps", "0", "--space", space])
            #expect(out.status == 0, "\(out.err)")
            let obj = ParsedOBJ(out.stdout)
            #expect(obj.malformed.isEmpty)
            #expect(obj.v.count == 12 && obj.vt.count == 12 && obj.vn.count == 12 && obj.f.count == 12)
            guard obj.v.count == 12, obj.vt.count == 12, obj.vn.count == 12 else { continue }
            var expected = Set<SIMD3<Double>>()
            for i in 0...2 { for j in 0...3 { expected.insert(SIMD3(Double(j) / 3, Double(i) / 2, 0)) } }
            #expect(Set(obj.v) == expected, "\(space)")
            for k in 0..<12 {
                // vt = (from.x, 1 − from.y) and from = position for the identity.
                #expect(obj.vt[k] == SIMD2(obj.v[k].x, 1 - obj.v[k].y), "\(space) vertex \(k)")
                #expect(obj.vn[k] == SIMD3(0, 0, 1), "\(space) vertex \(k)")
            }
            var area = 0.0
            for f in obj.f where f.count == 3 {
                let a = obj.v[f[0]], b = obj.v[f[1]], c = obj.v[f[2]]
                let z = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
                #expect(z > 0, "\(space) face \(f)")
                area += z / 2
            }
            #expect(abs(area - 1) < 1e-12, "\(space)")
        }
    }

    // MARK: Invalid data

    struct BadInput: CustomTestStringConvertible, Sendable {
        var name: String
        var json: String
        var path: String
        var message: [String]
        var testDescription: String { name }
    }

    static let badInputs: [BadInput] = [
        BadInput(
            name: "index out of range", json: CLIFixtures.quad(faces: [#"{"indices": [0, 1, 99, 3]}"#]),
            path: "faces[0].indices[2]", message: ["99 is out of range (4 vertices)"]),
        BadInput(
            name: "wrong type (string for from)",
            json: CLIFixtures.quad(vertices: [
                #"{"from": [0, 0], "to": [0, 0, 0]}"#, #"{"from": "a", "to": [1, 0, 0]}"#,
                #"{"from": [1, 1], "to": [1, 1, 0]}"#, #"{"from": [0, 1], "to": [0, 1, 0]}"#,
            ]),
            path: "vertices[1].from", message: ["expected"]),
        BadInput(
            name: "wrong type (number for indices)", json: CLIFixtures.quad(faces: [#"{"indices": 7}"#]),
            path: "faces[0].indices", message: ["expected"]),
        BadInput(
            name: "unknown key in a face", json: CLIFixtures.quad(faces: [#"{"indicies": [0, 1, 2, 3]}"#]),
            path: "faces[0].indicies", message: ["did you mean 'indices'"]),
        BadInput(
            name: "unknown top-level key", json: CLIFixtures.quad(extra: #", "depthNormalisation": "none""#),
            path: "depthNormalisation", message: ["did you mean 'depthNormalization'"]),
        BadInput(
            name: "number too large for a Double (non-finite)",
            json: CLIFixtures.quad(vertices: [
                #"{"from": [0, 0], "to": [0, 0, 1e999]}"#, #"{"from": [1, 0], "to": [1, 0, 0]}"#,
                #"{"from": [1, 1], "to": [1, 1, 0]}"#, #"{"from": [0, 1], "to": [0, 1, 0]}"#,
            ]),
            path: "vertices[0].to[2]", message: ["1e999", "finite"]),
        BadInput(
            name: "weight 0", json: CLIFixtures.quad(faces: [#"{"indices": [0, 1, 2, 3], "w": [1, 0, 1, 1]}"#]),
            path: "faces[0].w[1]", message: ["greater than 0"]),
        BadInput(
            name: "negative weight", json: CLIFixtures.quad(faces: [#"{"indices": [0, 1, 2, 3], "w": [1, 1, 1, -2]}"#]),
            path: "faces[0].w[3]", message: ["greater than 0"]),
        BadInput(
            name: "repeated vertex", json: CLIFixtures.quad(faces: [#"{"indices": [0, 1, 1, 3]}"#]),
            path: "faces[0].indices[2]", message: []),
        BadInput(
            name: "non-integer index", json: CLIFixtures.quad(faces: [#"{"indices": [0, 1, 2.5, 3]}"#]),
            path: "faces[0].indices[2]", message: ["2.5"]),
        BadInput(
            name: "missing faces", json: #"{"vertices": []}"#, path: "faces", message: ["missing"]),
        BadInput(
            name: "edge shared by three faces",
            json: CLIFixtures.quad(
                vertices: CLIFixtures.lineVertices(8),
                faces: [#"{"indices": [0, 1, 2, 3]}"#, #"{"indices": [1, 0, 4, 5]}"#, #"{"indices": [0, 1, 6, 7]}"#]),
            path: "faces[2]", message: ["0, 1 and 2"]),
        BadInput(
            name: "inconsistent orientation",
            json: CLIFixtures.quad(
                vertices: CLIFixtures.lineVertices(6),
                faces: [#"{"indices": [0, 1, 2, 3]}"#, #"{"indices": [1, 2, 4, 5]}"#]),
            path: "faces[1]", message: ["faces 0 and 1", "orientation"]),
    ]

    /// Every class of bad mesh.json: exit 65 and one line `meshgeo: error: FILE: <path>: <message>`,
    /// from `validate`, `tessellate` and `info` alike.
    @Test(arguments: badInputs)
    func badInputIsDataError(_ bad: BadInput) throws {
        let ws = try CLIWorkspace()
        try ws.write("bad.json", bad.json)
        for command in [["validate", "bad.json"], ["tessellate", "bad.json"], ["info", "bad.json"]] {
            let output = try ws.run(command)
            let rest = Self.expectFailure(output, code: 65, file: "bad.json")
            #expect(rest.hasPrefix(bad.path + ": "), "\(command[0]): \(rest)")
            for part in bad.message {
                #expect(rest.contains(part), "\(command[0]): '\(rest)' should contain '\(part)'")
            }
        }
    }

    /// A NaN literal is malformed JSON: exit 65 and one line that says so.
    @Test func nanLiteralIsDataError() throws {
        let ws = try CLIWorkspace()
        try ws.write(
            "nan.json",
            CLIFixtures.quad(vertices: [
                #"{"from": [0, 0], "to": [0, 0, NaN]}"#, #"{"from": [1, 0], "to": [1, 0, 0]}"#,
                #"{"from": [1, 1], "to": [1, 1, 0]}"#, #"{"from": [0, 1], "to": [0, 1, 0]}"#,
            ]))
        let rest = Self.expectFailure(try ws.run(["validate", "nan.json"]), code: 65, file: "nan.json")
        #expect(rest.contains("NaN"), "\(rest)")
    }

    /// Docs/mesh-json.md: a non-finite number is an error that names its JSON path. A NaN literal is the
    /// usual way a non-finite number gets into a file (Python's json.dumps writes it).
    @Test func nanLiteralNamesItsJSONPath() throws {
        let ws = try CLIWorkspace()
        try ws.write(
            "nan.json",
            CLIFixtures.quad(vertices: [
                #"{"from": [0, 0], "to": [0, 0, NaN]}"#, #"{"from": [1, 0], "to": [1, 0, 0]}"#,
                #"{"from": [1, 1], "to": [1, 1, 0]}"#, #"{"from": [0, 1], "to": [0, 1, 0]}"#,
            ]))
        let rest = Self.expectFailure(try ws.run(["validate", "nan.json"]), code: 65, file: "nan.json")
        #expect(rest.contains("vertices[0].to[2]"), "the error should name the JSON path: \(rest)")
    }

    @Test func syntaxErrorIsDataError() throws {
        let ws = try CLIWorkspace()
        try ws.write("cut.json", String(CLIFixtures.quad().prefix(40)))
        let rest = Self.expectFailure(try ws.run(["tessellate", "cut.json"]), code: 65, file: "cut.json")
        #expect(rest.contains("line"), "\(rest)")
    }

    @Test func budgetRefusalIsDataError() throws {
        let ws = try CLIWorkspace()
        try ws.write("quad.json", CLIFixtures.quad())
        let rest = Self.expectFailure(
            try ws.run(["tessellate", "quad.json", "--steps", "3", "--max-triangles", "100"]), code: 65, file: "quad.json")
        #expect(rest.contains("128"), "the message should state the 128 triangles needed: \(rest)")
    }

    // MARK: Input, usage and output errors

    @Test func missingInputIs66() throws {
        let ws = try CLIWorkspace()
        Self.expectFailure(try ws.run(["tessellate", "nope.json"]), code: 66, file: "nope.json")
        Self.expectFailure(try ws.run(["validate", "nope.json"]), code: 66, file: "nope.json")
        try FileManager.default.createDirectory(atPath: ws.path("folder.json"), withIntermediateDirectories: false)
        Self.expectFailure(try ws.run(["validate", "folder.json"]), code: 66, file: "folder.json")
    }

    @Test(arguments: [
        ["tessellate", "quad.json", "--bogus"],
        ["tessellate", "quad.json", "--steps", "banana"],
        ["tessellate", "quad.json", "--steps", "-2"],
        ["tessellate", "quad.json", "--diagonal", "diagonal"],
        ["tessellate", "quad.json", "--space", "world"],
        ["tessellate"],
        ["frobnicate"],
        ["identity", "--rows", "0", "--columns", "3"],
        ["interpolate", "quad.json", "quad.json", "--fraction", "half"],
    ])
    func badUsageIs64(arguments: [String]) throws {
        let ws = try CLIWorkspace()
        try ws.write("quad.json", CLIFixtures.quad())
        let output = try ws.run(arguments)
        #expect(output.status == 64, "exit \(output.status): \(output.err)")
        #expect(output.stdout.isEmpty)
        #expect(!output.stderr.isEmpty)
    }

    @Test func outputIntoMissingDirectoryIs73() throws {
        let ws = try CLIWorkspace()
        try ws.write("quad.json", CLIFixtures.quad())
        let target = "no-such-dir/out.obj"
        Self.expectFailure(try ws.run(["tessellate", "quad.json", "-o", target]), code: 73, file: target)
        #expect(!ws.exists("no-such-dir"))
        #expect(try ws.listing() == ["quad.json"])
        // The same for the other writers.
        Self.expectFailure(try ws.run(["example", "skew", "-o", target]), code: 73, file: target)
        Self.expectFailure(try ws.run(["identity", "--rows", "1", "--columns", "1", "-o", target]), code: 73, file: target)
        #expect(try ws.listing() == ["quad.json"])
    }

    /// A failed run never touches an existing output file (or leaves a temporary one).
    @Test func failedRunLeavesOutputUntouched() throws {
        let ws = try CLIWorkspace()
        let sentinel = "SENTINEL — must survive\n"
        try ws.write("out.obj", sentinel)
        try ws.write("bad.json", CLIFixtures.quad(faces: [#"{"indices": [0, 1, 99, 3]}"#]))
        try ws.write("quad.json", CLIFixtures.quad())

        Self.expectFailure(try ws.run(["tessellate", "bad.json", "-o", "out.obj"]), code: 65, file: "bad.json")
        #expect(try ws.read("out.obj") == Data(sentinel.utf8))
        Self.expectFailure(try ws.run(["tessellate", "quad.json", "--steps", "20", "-o", "out.obj"]), code: 65, file: "quad.json")
        #expect(try ws.read("out.obj") == Data(sentinel.utf8))
        Self.expectFailure(try ws.run(["tessellate", "missing.json", "-o", "out.obj"]), code: 66, file: "missing.json")
        #expect(try ws.read("out.obj") == Data(sentinel.utf8))
        let usage = try ws.run(["tessellate", "quad.json", "--steps", "banana", "-o", "out.obj"])
        #expect(usage.status == 64)
        #expect(try ws.read("out.obj") == Data(sentinel.utf8))
        #expect(try ws.listing() == ["bad.json", "out.obj", "quad.json"])
    }

    // MARK: Standard input

    @Test func readsStandardInput() throws {
        let ws = try CLIWorkspace()
        let json = CLIFixtures.movedGrid()
        try ws.write("mesh.json", json)
        let validate = try ws.run(["validate", "-"], stdin: Data(json.utf8))
        #expect(validate.status == 0 && validate.out == "ok\n")

        let fromFile = try ws.run(["tessellate", "mesh.json", "--steps", "3"])
        let fromStdin = try ws.run(["tessellate", "-", "--steps", "3"], stdin: Data(json.utf8))
        #expect(fromFile.status == 0 && fromStdin.status == 0)
        #expect(fromStdin.stdout == fromFile.stdout)
        // 6 faces · 2 · 4³ triangles: an OBJ far larger than a pipe buffer.
        #expect(ParsedOBJ(fromStdin.stdout).f.count == 6 * 2 * 64)
        #expect(fromStdin.stdout.count > 1 << 16)

        // Errors name standard input.
        let bad = CLIFixtures.quad(faces: [#"{"indices": [0, 1, 99, 3]}"#])
        let rest = Self.expectFailure(try ws.run(["validate", "-"], stdin: Data(bad.utf8)), code: 65, file: "<stdin>")
        #expect(rest.hasPrefix("faces[0].indices[2]: "), "\(rest)")
        // Empty standard input is invalid data, not a crash.
        Self.expectFailure(try ws.run(["validate", "-"], stdin: Data()), code: 65, file: "<stdin>")
    }

    // MARK: Interpolation

    /// At fraction 0.5 every from, to and weight is the midpoint; the layer is the first file's.
    @Test func interpolateGivesMidpoints() throws {
        let ws = try CLIWorkspace()
        let identity = try ws.run(["identity", "--rows", "2", "--columns", "3", "-o", "a.json"])
        #expect(identity.status == 0)
        try ws.write("b.json", CLIFixtures.movedGrid(weights: "[1, 2, 3, 4]"))
        let output = try ws.run(["interpolate", "a.json", "b.json", "--fraction", "0.5"])
        #expect(output.status == 0, "\(output.err)")
        #expect(output.stderr.isEmpty)
        let a = try ParsedMesh(try ws.read("a.json"))
        let b = try ParsedMesh(try ws.read("b.json"))
        let mid = try ParsedMesh(output.stdout)
        #expect(mid.from.count == 12 && mid.faces == a.faces)
        guard mid.from.count == 12 else { return }
        for i in 0..<12 {
            for k in 0..<2 {
                #expect(abs(mid.from[i][k] - (a.from[i][k] + b.from[i][k]) / 2) <= 1e-15, "vertex \(i) from[\(k)]")
            }
            for k in 0..<3 {
                #expect(abs(mid.to[i][k] - (a.to[i][k] + b.to[i][k]) / 2) <= 1e-15, "vertex \(i) to[\(k)]")
            }
        }
        // Face 0's weights: (1 + [1, 2, 3, 4]) / 2; the others stay 1 (written or not).
        #expect(mid.weights[0] == [1, 1.5, 2, 2.5])
        for f in 1..<6 { #expect(mid.weights[f] == nil || mid.weights[f] == [1, 1, 1, 1]) }
        // And -o.
        let toFile = try ws.run(["interpolate", "a.json", "b.json", "--fraction", "0.5", "-o", "mid.json"])
        #expect(toFile.status == 0 && toFile.stdout.isEmpty)
        #expect(try ws.read("mid.json") == output.stdout)
        // The result validates.
        #expect(try ws.run(["validate", "mid.json"]).out == "ok\n")
    }

    /// Incompatible meshes: exit 65, naming the first difference.
    @Test func interpolateRejectsIncompatibleMeshes() throws {
        let ws = try CLIWorkspace()
        try ws.write("a.json", CLIFixtures.movedGrid())
        try ws.write("more.json", CLIFixtures.movedGrid(extraVertex: true))
        try ws.write("fewer.json", CLIFixtures.movedGrid(skipFace: 5))
        try ws.write("rotated.json", CLIFixtures.movedGrid(swapFace: 4))
        try ws.write("depth.json", CLIFixtures.movedGrid(depthNormalization: "width"))
        try ws.write("both.json", CLIFixtures.movedGrid(depthNormalization: "width", swapFace: 2))

        for (file, path, words) in [
            ("more.json", "vertices", ["12", "13"]),
            ("fewer.json", "faces", ["6", "5"]),
            ("rotated.json", "faces[4].indices", []),
            ("depth.json", "depthNormalization", ["none", "width"]),
            // Faces are compared before the depth normalization: the first difference is face 2.
            ("both.json", "faces[2].indices", []),
        ] {
            let output = try ws.run(["interpolate", "a.json", file, "--fraction", "0.5", "-o", "out.json"])
            let rest = Self.expectFailure(output, code: 65, file: nil)
            #expect(rest.contains(path + ": "), "\(file): \(rest)")
            for word in words { #expect(rest.contains(word), "\(file): \(rest)") }
            #expect(rest.contains(file) || rest.contains("a.json"), "the error should name a file: \(rest)")
            #expect(!ws.exists("out.json"))
        }
    }
}
