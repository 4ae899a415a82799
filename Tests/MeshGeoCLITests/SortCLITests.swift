import Foundation
import Testing

// Tests of `meshgeo sort` (Docs/painters-sort.md, Docs/command-line.md), run as a separate process: the OBJ it writes is the
// screen-space tessellation in exact back-to-front order. The runner is the shared one in
// Support/CLISupport.swift.

@Suite struct SortCLITests {
    /// The article's wavy-free smallest fold: two faces crossing each other (an X seen from above),
    /// written as mesh.json here.
    static let crossingFaces = """
        {"vertices": [
          {"from": [0, 0], "to": [0.1, 0.1, 0.2]}, {"from": [1, 0], "to": [0.9, 0.1, 0.2]},
          {"from": [1, 1], "to": [0.9, 0.9, -0.2]}, {"from": [0, 1], "to": [0.1, 0.9, -0.2]},
          {"from": [0, 0], "to": [0.1, 0.1, -0.2]}, {"from": [1, 0], "to": [0.9, 0.1, -0.2]},
          {"from": [1, 1], "to": [0.9, 0.9, 0.2]}, {"from": [0, 1], "to": [0.1, 0.9, 0.2]}],
         "faces": [{"indices": [0, 1, 2, 3]}, {"indices": [4, 5, 6, 7]}],
         "subdivisionSteps": 0,
         "layer": {"size": [100, 100], "transform": [1,0,0,0, 0,1,0,0, 0,0,1,-0.002, 0,0,0,1]}}
        """

    @Test func sortWritesSplitScreenSpaceTrianglesAndReportsAddedPieces() throws {
        let dir = try SortWorkspace()
        try dir.write("mesh.json", Self.crossingFaces)
        let result = try dir.run(["sort", "mesh.json", "-o", "out.obj", "--verbose"])
        #expect(result.status == 0, "\(result.err)")
        let obj = String(decoding: try dir.read("out.obj"), as: UTF8.self)
        #expect(obj.hasPrefix("# meshgeo:"))
        #expect(obj.contains("screen space"))
        let faces = obj.split(separator: "\n").filter { $0.hasPrefix("f ") }.count
        // Two quads make four triangles; the faces cross, so splitting must add pieces.
        #expect(faces > 4)
        let line = try #require(result.err.split(separator: "\n").first { $0.contains("pieces added") })
        #expect(line.contains("\(faces - 4) pieces added"))
    }

    @Test func sortIsDeterministicAndQuietWithoutVerbose() throws {
        let dir = try SortWorkspace()
        try dir.write("mesh.json", Self.crossingFaces)
        let a = try dir.run(["sort", "mesh.json"])
        let b = try dir.run(["sort", "-", "--steps", "0"], stdin: Data(Self.crossingFaces.utf8))
        #expect(a.status == 0 && b.status == 0)
        #expect(a.stdout == b.stdout)
        #expect(a.err.isEmpty)
    }

    @Test func tessellateSortExactAndItsOldNameBspWriteWhatSortWrites() throws {
        let dir = try SortWorkspace()
        try dir.write("mesh.json", Self.crossingFaces)
        let sorted = try dir.run(["sort", "mesh.json"])
        let exact = try dir.run(["tessellate", "mesh.json", "--sort", "exact", "--space", "screen"])
        let bsp = try dir.run(["tessellate", "mesh.json", "--sort", "bsp", "--space", "screen"])
        #expect(sorted.status == 0 && exact.status == 0 && bsp.status == 0, "\(exact.err)\(bsp.err)")
        #expect(exact.stdout == sorted.stdout && bsp.stdout == sorted.stdout)
        #expect(try dir.run(["tessellate", "mesh.json", "--sort", "splitting"]).status == 64)
    }

    @Test func sortReportsBadInputWithExitCodes() throws {
        let dir = try SortWorkspace()
        try dir.write("bad.json", "{\"vertices\": []")
        #expect(try dir.run(["sort", "bad.json"]).status == 65)
        #expect(try dir.run(["sort", "missing.json"]).status == 66)
        try dir.write("mesh.json", Self.crossingFaces)
        let over = try dir.run(["sort", "mesh.json", "--max-triangles", "4"])
        #expect(over.status == 65)
        #expect(over.err.hasPrefix("meshgeo: error: mesh.json:"))
        #expect(!dir.exists("out.obj"))
        #expect(try dir.run(["sort", "mesh.json", "--max-triangles", "-1"]).status == 64)
    }
}

// MARK: - Running the tool (copied from CLITests.swift)

private typealias SortCLI = MeshGeoCLI

private typealias SortWorkspace = CLIWorkspace
