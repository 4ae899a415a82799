import Foundation
import Testing

// Tests of `meshgeo sort` (design §7, §12), run as a separate process: the OBJ it writes is the
// screen-space tessellation in exact back-to-front order. Helpers are prefixed `Sort` so they do
// not clash with CLITests.swift.

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

enum SortCLI {
    static let binary: URL? = {
        let fm = FileManager.default
        var candidates: [URL] = []
        if let first = CommandLine.arguments.first {
            var url = URL(fileURLWithPath: first)
            for _ in 0..<4 {
                url = url.deletingLastPathComponent()
                candidates.append(url.appendingPathComponent("meshgeo"))
            }
        }
        if let executable = Bundle.main.executableURL {
            candidates.append(executable.deletingLastPathComponent().appendingPathComponent("meshgeo"))
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        for scratch in [".build-sort", ".build"] {
            candidates.append(root.appendingPathComponent(scratch).appendingPathComponent("debug").appendingPathComponent("meshgeo"))
        }
        return candidates.first { fm.isExecutableFile(atPath: $0.path) }
    }()

    struct Output {
        var status: Int32
        var stdout: Data
        var stderr: Data
        var err: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// Standard output and error go to files (an OBJ can outgrow a pipe buffer), read after exit.
    static func run(_ arguments: [String], in directory: URL, stdin: Data? = nil) throws -> Output {
        let binary = try #require(binary, "meshgeo binary not found beside the tests or under .build*/debug")
        let io = FileManager.default.temporaryDirectory.appendingPathComponent("meshgeo-sort-io-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: io, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: io) }
        let outURL = io.appendingPathComponent("stdout"), errURL = io.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let outHandle = try FileHandle(forWritingTo: outURL)
        let errHandle = try FileHandle(forWritingTo: errURL)
        process.standardOutput = outHandle
        process.standardError = errHandle
        var inHandle: FileHandle?
        if let stdin {
            let inURL = io.appendingPathComponent("stdin")
            try stdin.write(to: inURL)
            inHandle = try FileHandle(forReadingFrom: inURL)
            process.standardInput = inHandle
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        try process.run()
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        try inHandle?.close()
        return Output(status: process.terminationStatus, stdout: try Data(contentsOf: outURL), stderr: try Data(contentsOf: errURL))
    }
}

/// A fresh directory per test, removed at the end.
final class SortWorkspace {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("meshgeo-sort-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    func write(_ name: String, _ text: String) throws { try Data(text.utf8).write(to: url.appendingPathComponent(name)) }
    func read(_ name: String) throws -> Data { try Data(contentsOf: url.appendingPathComponent(name)) }
    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path(name)) }
    func run(_ arguments: [String], stdin: Data? = nil) throws -> SortCLI.Output {
        try SortCLI.run(arguments, in: url, stdin: stdin)
    }
}
