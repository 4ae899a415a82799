import Foundation
import Testing

// Tests of `meshgeo fit` and `meshgeo tessellate --fit` (Docs/fitting.md, Docs/command-line.md), run as a separate process.
// The expected values are the input vertices themselves: after fitting, the tessellated surface's
// point for control vertex i (OBJ vertex i: refined points start with the control vertices in
// order) must be the input vertex i, `to` as `v` and `from` as `vt` (u, 1 − v). The runner is
// the shared one in Support/CLISupport.swift.

// MARK: - Running the tool

private typealias FitCLI = MeshGeoCLI

private typealias FitWorkspace = CLIWorkspace

// MARK: - OBJ and mesh.json reading (written here, independent of the tool)

private struct FitParsedOBJ {
    var v: [SIMD3<Double>] = []
    var vt: [SIMD2<Double>] = []

    init(_ data: Data) {
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ")
            let numbers = fields.dropFirst().compactMap { Double(String($0)) }
            switch fields.first {
            case "v" where numbers.count == 3: v.append(SIMD3(numbers[0], numbers[1], numbers[2]))
            case "vt" where numbers.count == 2: vt.append(SIMD2(numbers[0], numbers[1]))
            default: break
            }
        }
    }
}

/// mesh.json parsed with Foundation's JSONSerialization.
private struct FitParsedMesh {
    var from: [[Double]] = []
    var to: [[Double]] = []
    var faces: [[Int]] = []
    var weights: [[Double]?] = []

    init(_ data: Data) throws {
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        for case let v as [String: Any] in try #require(root["vertices"] as? [Any]) {
            from.append(try #require(Self.numbers(v["from"])))
            to.append(try #require(Self.numbers(v["to"])))
        }
        for case let f as [String: Any] in try #require(root["faces"] as? [Any]) {
            faces.append(try #require(Self.numbers(f["indices"])).map { Int($0) })
            weights.append(Self.numbers(f["w"]))
        }
    }

    static func numbers(_ value: Any?) -> [Double]? {
        guard let array = value as? [Any] else { return nil }
        let result = array.compactMap { item -> Double? in
            switch item {
            case let n as Double: n
            case let n as Int: Double(n)
            case let n as NSNumber: n.doubleValue
            default: nil
            }
        }
        return result.count == array.count ? result : nil
    }
}

// MARK: - Fixtures

private enum FitCLIFixtures {
    static func document(vertices: [(from: [Double], to: [Double])], faces: [(indices: [Int], w: [Double]?)]) -> String {
        func list(_ xs: [Double]) -> String { "[" + xs.map { "\($0)" }.joined(separator: ", ") + "]" }
        let v = vertices.map { #"{"from": \#(list($0.from)), "to": \#(list($0.to))}"# }
        let f = faces.map { face in
            "{\"indices\": [\(face.indices.map(String.init).joined(separator: ", "))]" + (face.w.map { ", \"w\": \(list($0))" } ?? "") + "}"
        }
        return "{\n  \"vertices\": [\n    " + v.joined(separator: ",\n    ") + "\n  ],\n  \"faces\": [\n    "
            + f.joined(separator: ",\n    ") + "\n  ]\n}\n"
    }

    /// A 3 × 4-face grid with a bump in z, moved `from`, and faces that disagree on weights
    /// (face (r, c) gives its corner k the weight 1 + (r + 2c + k) mod 3 / 2).
    static let bumpyGrid: String = {
        var vertices: [(from: [Double], to: [Double])] = []
        for i in 0...3 {
            for j in 0...4 {
                let x = Double(j) / 4, y = Double(i) / 3
                let z = (i == 1 || i == 2) && (j == 2) ? 0.5 : (i + j) % 3 == 0 ? -0.125 : 0
                vertices.append(([x + 0.03125 * Double(i % 2), y - 0.015625 * Double(j % 2)], [x, y, z]))
            }
        }
        var faces: [(indices: [Int], w: [Double]?)] = []
        for r in 0..<3 {
            for c in 0..<4 {
                let tl = r * 5 + c
                faces.append(([tl, tl + 1, tl + 6, tl + 5], (0..<4).map { 1 + Double((r + 2 * c + $0) % 3) / 2 }))
            }
        }
        return document(vertices: vertices, faces: faces)
    }()

    /// Five quads around vertex 0 (an interior vertex of valence 5), boundary vertices e₀…e₄
    /// between them and corners f₀…f₄; the centre is raised. Not a grid: the banded solver runs.
    static let valenceFiveFan: String = {
        var vertices: [(from: [Double], to: [Double])] = [([0.5, 0.5], [0.5, 0.5, 0.25])]
        for i in 0..<5 {
            let a = 2 * Double.pi * Double(i) / 5, b = 2 * Double.pi * (Double(i) + 0.5) / 5
            vertices.append(([0.5 + 0.3 * cos(a), 0.5 + 0.3 * sin(a)], [0.5 + 0.3 * cos(a), 0.5 + 0.3 * sin(a), 0.0625 * Double(i)]))
            vertices.append(([0.5 + 0.45 * cos(b), 0.5 + 0.45 * sin(b)], [0.5 + 0.45 * cos(b), 0.5 + 0.45 * sin(b), 0]))
        }
        let faces = (0..<5).map { i -> (indices: [Int], w: [Double]?) in
            ([0, 1 + 2 * i, 2 + 2 * i, 1 + 2 * ((i + 1) % 5)], i == 2 ? [2, 1, 1, 0.5] : nil)
        }
        return document(vertices: vertices, faces: faces)
    }()

    /// The closed unit cube, vertex x + 2y + 4z at (x, y, z) but with to.z = (−1)^(x+y+z), the
    /// checkerboard that its limit operator sends to zero.
    static let checkerboardCube: String = {
        let vertices = (0..<8).map { v -> (from: [Double], to: [Double]) in
            let x = Double(v & 1), y = Double((v >> 1) & 1), z = Double((v >> 2) & 1)
            return ([0.2 + 0.6 * x, 0.2 + 0.6 * y - 0.1 * z], [x, y, (v & 1) ^ ((v >> 1) & 1) ^ ((v >> 2) & 1) == 0 ? 1 : -1])
        }
        let faces: [(indices: [Int], w: [Double]?)] = [
            ([0, 2, 3, 1], nil), ([0, 1, 5, 4], nil), ([0, 4, 6, 2], nil),
            ([1, 3, 7, 5], nil), ([2, 6, 7, 3], nil), ([4, 5, 7, 6], nil),
        ]
        return document(vertices: vertices, faces: faces)
    }()
}

// MARK: - Tests

@Suite struct FitCLITests {
    /// Expects the failure form of Docs/errors.md: the exit code, nothing on stdout and exactly one
    /// stderr line `meshgeo: error: FILE: …`; returns the part after `FILE: `.
    @discardableResult
    private static func expectFailure(
        _ output: FitCLI.Output, code: Int32, file: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> String {
        #expect(output.status == code, "exit \(output.status), stderr: \(output.err)", sourceLocation: sourceLocation)
        #expect(output.stdout.isEmpty, "stdout: \(output.out.prefix(200))", sourceLocation: sourceLocation)
        #expect(
            output.err.hasSuffix("\n") && output.errLines.count == 1, "stderr is not one line: \(output.err)",
            sourceLocation: sourceLocation)
        let line = String(output.errLines.first ?? "")
        let prefix = "meshgeo: error: \(file): "
        #expect(line.hasPrefix(prefix), "\(line)", sourceLocation: sourceLocation)
        return line.hasPrefix(prefix) ? String(line.dropFirst(prefix.count)) : line
    }

    /// OBJ vertex i (and texture coordinate i) of a tessellation must be input vertex i's `to`
    /// (and (from.x, 1 − from.y)) within 1e-9.
    private static func expectPassesThroughVertices(
        _ obj: FitParsedOBJ, _ input: FitParsedMesh, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(obj.v.count > input.to.count && obj.vt.count == obj.v.count, sourceLocation: sourceLocation)
        guard obj.v.count >= input.to.count, obj.vt.count >= input.from.count else { return }
        var worst = 0.0
        for i in input.to.indices {
            let to = input.to[i], from = input.from[i]
            worst = max(worst, abs(obj.v[i].x - to[0]), abs(obj.v[i].y - to[1]), abs(obj.v[i].z - to[2]))
            worst = max(worst, abs(obj.vt[i].x - from[0]), abs(obj.vt[i].y - (1 - from[1])))
        }
        #expect(worst <= 1e-9, "the surface misses a given vertex by \(worst)", sourceLocation: sourceLocation)
    }

    @Test(arguments: ["grid", "fan"])
    func fitWritesControlPointsWhoseSurfacePassesThroughTheVertices(mesh: String) throws {
        let ws = try FitWorkspace()
        try ws.write("mesh.json", mesh == "grid" ? FitCLIFixtures.bumpyGrid : FitCLIFixtures.valenceFiveFan)
        let input = try FitParsedMesh(ws.read("mesh.json"))
        let fit = try ws.run(["fit", "mesh.json", "-o", "fitted.json"])
        #expect(fit.status == 0, "\(fit.err)")
        #expect(fit.stdout.isEmpty && fit.stderr.isEmpty)
        let fitted = try FitParsedMesh(ws.read("fitted.json"))
        #expect(fitted.faces == input.faces)
        #expect(fitted.weights == input.weights)
        #expect(fitted.to != input.to, "the control points should have moved")
        for steps in ["1", "2"] {
            let obj = try ws.run(["tessellate", "fitted.json", "--steps", steps, "--diagonal", "first"])
            #expect(obj.status == 0, "\(obj.err)")
            Self.expectPassesThroughVertices(FitParsedOBJ(obj.stdout), input)
        }
        // No temporary file is left beside the output.
        #expect(try ws.listing() == ["fitted.json", "mesh.json"])
    }

    @Test func fitWithoutOutputWritesTheSameDocumentToStandardOutput() throws {
        let ws = try FitWorkspace()
        try ws.write("mesh.json", FitCLIFixtures.bumpyGrid)
        let toFile = try ws.run(["fit", "mesh.json", "-o", "fitted.json"])
        let toStdout = try ws.run(["fit", "mesh.json"])
        #expect(toFile.status == 0 && toStdout.status == 0)
        #expect(toStdout.stdout == (try ws.read("fitted.json")))
    }

    @Test(arguments: ["1", "2"])
    func tessellateFitPassesThroughTheVertices(steps: String) throws {
        let ws = try FitWorkspace()
        try ws.write("mesh.json", FitCLIFixtures.bumpyGrid)
        let input = try FitParsedMesh(ws.read("mesh.json"))
        let obj = try ws.run(["tessellate", "mesh.json", "--fit", "--steps", steps, "--diagonal", "first"])
        #expect(obj.status == 0, "\(obj.err)")
        Self.expectPassesThroughVertices(FitParsedOBJ(obj.stdout), input)
        // Without --fit the surface does not pass through the raised vertices.
        let plain = FitParsedOBJ(try ws.run(["tessellate", "mesh.json", "--steps", steps, "--diagonal", "first"]).stdout)
        #expect(abs(plain.v[7].z - input.to[7][2]) > 0.01)
    }

    /// The closed cube with the checkerboard on its corners has no fit: exit 65, one line saying
    /// the system is singular, and no output file.
    @Test(arguments: [["fit", "cube.json", "-o", "out.json"], ["tessellate", "cube.json", "--fit", "-o", "out.json"]])
    func checkerboardCubeIsASingularSystem(arguments: [String]) throws {
        let ws = try FitWorkspace()
        try ws.write("cube.json", FitCLIFixtures.checkerboardCube)
        let rest = Self.expectFailure(try ws.run(arguments), code: 65, file: "cube.json")
        #expect(rest.contains("singular"), "\(rest)")
        #expect(rest.contains("condition estimate"), "\(rest)")
        #expect(!ws.exists("out.json"))
        #expect(try ws.listing() == ["cube.json"])
    }

    @Test func fitOfInvalidMeshNamesThePath() throws {
        let ws = try FitWorkspace()
        try ws.write("bad.json", FitCLIFixtures.bumpyGrid.replacingOccurrences(of: "\"w\": [1.0,", with: "\"w\": [-1.0,"))
        let rest = Self.expectFailure(try ws.run(["fit", "bad.json"]), code: 65, file: "bad.json")
        #expect(rest.hasPrefix("faces["), "\(rest)")
        Self.expectFailure(try ws.run(["fit", "missing.json"]), code: 66, file: "missing.json")
    }
}
