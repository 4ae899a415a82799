import Foundation
import Testing

// Tests of `meshgeo hit` (Docs/hit-testing.md, Docs/command-line.md), run as a separate process. Expected values come from
// the mesh.json written here (a flat identity face, whose layer point at a screen point is that
// point over the layer size) and from the output format and exit codes Docs/command-line.md fixes.

private typealias HitCLI = MeshGeoCLI

/// A fresh directory per test with a flat one-face mesh on a 200 × 100 layer.
final class HitWorkspace {
    let url: URL

    static let flatMesh = """
        {"vertices": [{"from": [0, 0], "to": [0, 0, 0]}, {"from": [1, 0], "to": [1, 0, 0]},
                      {"from": [1, 1], "to": [1, 1, 0]}, {"from": [0, 1], "to": [0, 1, 0]}],
         "faces": [{"indices": [0, 1, 2, 3]}], "subdivisionSteps": 1,
         "layer": {"size": [200, 100]}}
        """

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("meshgeo-hit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try write("mesh.json", HitWorkspace.flatMesh)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: url.appendingPathComponent(name))
    }

    func run(_ arguments: [String], stdin: Data? = nil) throws -> MeshGeoCLI.Output {
        try MeshGeoCLI.run(arguments, in: url, stdin: stdin)
    }
}

@Suite struct HitCLITests {
    /// The numbers of a JSON line, parsed with JSONSerialization.
    static func object(_ line: String) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(line.utf8))
        return try #require(value as? [String: Any])
    }

    static func numbers(_ value: Any?) -> [Double] {
        (value as? [Any])?.compactMap { ($0 as? NSNumber)?.doubleValue } ?? []
    }

    @Test func hitPrintsOneJSONLinePerQueryInTheDesignFormat() throws {
        let ws = try HitWorkspace()
        let r = try ws.run(["hit", "mesh.json", "--at", "50,25", "--at", "300,10", "--at", "150.5,99"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.isEmpty)
        let lines = r.lines
        try #require(lines.count == 3)
        // Keys in the order Docs/command-line.md gives.
        let pattern =
            #"^\{"x":[^,]+,"y":[^,]+,"hit":true,"face":0,"from":\[[^,\]]+,[^,\]]+\],"to":\[[^,\]]+,[^,\]]+,[^,\]]+\],"depth":[^,}]+\}$"#
        #expect(lines[0].range(of: pattern, options: .regularExpression) != nil, "\(lines[0])")
        #expect(lines[1] == #"{"x":300.0,"y":10.0,"hit":false}"#)
        let first = try Self.object(lines[0])
        #expect((first["x"] as? NSNumber)?.doubleValue == 50)
        #expect((first["hit"] as? Bool) == true)
        let from = Self.numbers(first["from"]), to = Self.numbers(first["to"])
        #expect(from.count == 2 && abs(from[0] - 0.25) <= 1e-12 && abs(from[1] - 0.25) <= 1e-12)
        #expect(to.count == 3 && abs(to[0] - 0.25) <= 1e-12 && abs(to[1] - 0.25) <= 1e-12 && abs(to[2]) <= 1e-12)
        let third = try Self.object(lines[2])
        let from3 = Self.numbers(third["from"])
        #expect(abs(from3[0] - 150.5 / 200) <= 1e-12 && abs(from3[1] - 0.99) <= 1e-12)
    }

    @Test func numbersReadBackToTheSameDouble() throws {
        let ws = try HitWorkspace()
        let x = 0.1 + 0.2, y = 1.0 / 3
        let r = try ws.run(["hit", "mesh.json", "--at", "\(x),\(y)"])
        #expect(r.status == 0)
        #expect(r.out.hasPrefix("{\"x\":\(x.description),\"y\":\(y.description),"))
        // The printed from is the Double whose shortest text it is.
        let line = try #require(r.lines.first)
        let fromText = try #require(line.range(of: #""from":\[[^\]]*\]"#, options: .regularExpression)).lowerBound
        let inner = line[fromText...].dropFirst(8).prefix { $0 != "]" }.split(separator: ",")
        for text in inner {
            let value = try #require(Double(String(text)))
            #expect(value.description == String(text))
        }
    }

    @Test func pointsFileAndStandardInputGiveOneLineEach() throws {
        let ws = try HitWorkspace()
        try ws.write("points.txt", "10 10\n\n190 90\n-5 50\n")
        let r = try ws.run(["hit", "mesh.json", "--points", "points.txt", "--exact"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.lines.count == 3)
        #expect(r.lines.map { $0.contains("\"hit\":true") } == [true, true, false])
        let stdin = try ws.run(["hit", "mesh.json", "--points", "-"], stdin: Data("100 50\n".utf8))
        #expect(stdin.status == 0)
        let object = try Self.object(try #require(stdin.lines.first))
        let from = Self.numbers(object["from"])
        #expect(abs(from[0] - 0.5) <= 1e-12 && abs(from[1] - 0.5) <= 1e-12)
    }

    @Test func aMalformedQueryLineIsADataErrorNamingItsLine() throws {
        let ws = try HitWorkspace()
        try ws.write("points.txt", "10 10\n20 20\n30 abc\n")
        let r = try ws.run(["hit", "mesh.json", "--points", "points.txt"])
        #expect(r.status == 65)
        #expect(r.out.isEmpty)
        #expect(r.err.hasPrefix("meshgeo: error: points.txt: line 3:"), "\(r.err)")
        try ws.write("three.txt", "1 2 3\n")
        #expect(try ws.run(["hit", "mesh.json", "--points", "three.txt"]).err.contains("line 1"))
        try ws.write("nan.txt", "nan 2\n")
        #expect(try ws.run(["hit", "mesh.json", "--points", "nan.txt"]).status == 65)
    }

    @Test(arguments: [
        ["hit", "mesh.json", "--at", "1;2"],
        ["hit", "mesh.json", "--at", "1,2,3"],
        ["hit", "mesh.json", "--at", "x,2"],
        ["hit", "mesh.json"],
        ["hit", "mesh.json", "--at", "1,2", "--steps", "two"],
    ])
    func badUsageIs64(arguments: [String]) throws {
        let ws = try HitWorkspace()
        #expect(try ws.run(arguments).status == 64)
    }

    @Test func badMeshIsADataErrorAndMissingFileIs66() throws {
        let ws = try HitWorkspace()
        try ws.write("bad.json", #"{"vertices": [], "faces": [{"indices": [0, 1, 2, 3]}]}"#)
        let bad = try ws.run(["hit", "bad.json", "--at", "1,1"])
        #expect(bad.status == 65)
        #expect(bad.err.contains("faces[0].indices"))
        #expect(try ws.run(["hit", "nothing.json", "--at", "1,1"]).status == 66)
        #expect(try ws.run(["hit", "mesh.json", "--points", "nothing.txt"]).status == 66)
    }
}
