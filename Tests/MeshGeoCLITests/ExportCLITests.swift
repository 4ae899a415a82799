import Foundation
import Testing

// `tessellate --format glb|ply [--texture]` and the progress line, run as a separate process with
// the shared runner (Support/CLISupport.swift); the progress tests start the tool themselves to
// set its environment and, once, run it on a pseudo-terminal through script(1).

@Suite struct ExportCLITests {
    /// A 2 × 2 identity grid at steps 1: (2·2 + 1)² = 25 vertices, 4 faces × 4 sub-quads × 2 = 32
    /// triangles, whatever the format.
    static func identityGrid(_ dir: CLIWorkspace) throws {
        let made = try dir.run(["identity", "--rows", "2", "--columns", "2", "--steps", "1", "-o", "grid.json"])
        #expect(made.status == 0, "\(made.err)")
    }

    static func uint32(_ bytes: [UInt8], at offset: Int) -> Int {
        (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
    }

    @Test func glbHasTheGridsCountsAndLengths() throws {
        let dir = try CLIWorkspace()
        try Self.identityGrid(dir)
        let result = try dir.run(["tessellate", "grid.json", "--format", "glb", "-o", "grid.glb"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.err.isEmpty)
        let glb = [UInt8](try dir.read("grid.glb"))
        #expect(Array(glb.prefix(4)) == Array("glTF".utf8))
        #expect(Self.uint32(glb, at: 8) == glb.count)
        let jsonLength = Self.uint32(glb, at: 12)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(glb[20..<20 + jsonLength])) as? [String: Any])
        let accessors = try #require(json["accessors"] as? [[String: Any]])
        #expect(accessors.map { $0["count"] as? Int } == [25, 25, 25, 96])
        // Standard output carries the same bytes.
        let piped = try dir.run(["tessellate", "grid.json", "--format", "glb"])
        #expect(piped.stdout == Data(glb))
    }

    @Test func plyHeaderCountsTheGrid() throws {
        let dir = try CLIWorkspace()
        try Self.identityGrid(dir)
        let result = try dir.run(["tessellate", "grid.json", "--format", "ply", "-o", "grid.ply"])
        #expect(result.status == 0, "\(result.err)")
        let ply = [UInt8](try dir.read("grid.ply"))
        let text = String(decoding: ply.prefix(400), as: UTF8.self)
        #expect(text.hasPrefix("ply\nformat binary_little_endian 1.0\n"))
        #expect(text.contains("element vertex 25\n") && text.contains("element face 32\n"))
        let header = try #require(text.range(of: "end_header\n"))
        let headerLength = text.utf8.distance(from: text.startIndex, to: header.upperBound)
        // 8 floats per vertex, then a count byte and three ints per triangle.
        #expect(ply.count == headerLength + 25 * 32 + 32 * 13)
    }

    @Test func textureIsEmbeddedOrRefused() throws {
        let dir = try CLIWorkspace()
        try Self.identityGrid(dir)
        // A complete PNG (textures are decoded before they are embedded; a cut one is refused).
        let picture = try dir.run(["render", "grid.json", "-o", "layer.png", "--scale", "4"])
        #expect(picture.status == 0, "\(picture.err)")
        let png = [UInt8](try dir.read("layer.png"))
        try dir.write("notes.txt", "not an image")

        let ok = try dir.run(["tessellate", "grid.json", "--format", "glb", "--texture", "layer.png", "-o", "t.glb"])
        #expect(ok.status == 0, "\(ok.err)")
        let glb = [UInt8](try dir.read("t.glb"))
        #expect(glb.indices.contains { glb[$0...].starts(with: png) })
        let json = String(decoding: glb[20..<20 + Self.uint32(glb, at: 12)], as: UTF8.self)
        #expect(json.contains("\"mimeType\":\"image/png\"") && json.contains("baseColorTexture"))

        let wrongFormat = try dir.run(["tessellate", "grid.json", "--texture", "layer.png", "-o", "a.obj"])
        #expect(wrongFormat.status == 64)
        let notImage = try dir.run(["tessellate", "grid.json", "--format", "glb", "--texture", "notes.txt", "-o", "b.glb"])
        #expect(notImage.status == 65)
        #expect(notImage.err == "meshgeo: error: notes.txt: not a PNG or JPEG image\n")
        let missing = try dir.run(["tessellate", "grid.json", "--format", "glb", "--texture", "none.png", "-o", "c.glb"])
        #expect(missing.status == 66)
        #expect(!dir.exists("a.obj") && !dir.exists("b.glb") && !dir.exists("c.glb"))
    }

    // MARK: Progress

    /// The ripple (100 × 100 faces) at steps 2: long enough for the progress thread to draw.
    static func ripple(_ dir: CLIWorkspace) throws {
        let made = try dir.run(["example", "ripple", "-o", "ripple.json"])
        #expect(made.status == 0, "\(made.err)")
    }

    /// Runs meshgeo with the progress line due at once, standard error going to `stderr`.
    static func runWithProgressDue(_ arguments: [String], in dir: CLIWorkspace, stderr: FileHandle) throws -> Int32 {
        let binary = try #require(MeshGeoCLI.binary)
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = dir.url
        var environment = ProcessInfo.processInfo.environment
        environment["MESHGEO_PROGRESS_DELAY"] = "0"
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = stderr
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test func noProgressWhenStandardErrorIsNotATerminal() throws {
        let dir = try CLIWorkspace()
        try Self.ripple(dir)
        for arguments in [["tessellate", "ripple.json", "--steps", "2", "-o", "r.obj"], ["fit", "ripple.json", "-o", "f.json"]] {
            let errURL = dir.url.appendingPathComponent("stderr-\(arguments[0])")
            _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
            let handle = try FileHandle(forWritingTo: errURL)
            let status = try Self.runWithProgressDue(arguments, in: dir, stderr: handle)
            try handle.close()
            #expect(status == 0)
            #expect(try Data(contentsOf: errURL).isEmpty, "stderr of \(arguments[0]) is a file, so no progress")
        }
    }

    @Test func progressIsDrawnAndClearedOnATerminal() throws {
        let dir = try CLIWorkspace()
        try Self.ripple(dir)
        let binary = try #require(MeshGeoCLI.binary)
        // script(1) runs the tool on a pseudo-terminal and copies what it writes there to its own
        // standard output; the OBJ goes to a file, so only standard error reaches the terminal.
        let command = "'\(binary.path)' tessellate ripple.json --steps 2 -o r.obj"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        #if os(Linux)
            process.arguments = ["-q", "-e", "-c", command, "/dev/null"]
        #else
            process.arguments = ["-q", "/dev/null", "/bin/sh", "-c", command]
        #endif
        process.currentDirectoryURL = dir.url
        var environment = ProcessInfo.processInfo.environment
        environment["MESHGEO_PROGRESS_DELAY"] = "0"
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        let outURL = dir.url.appendingPathComponent("terminal")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        let handle = try FileHandle(forWritingTo: outURL)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        try handle.close()
        let text = String(decoding: try Data(contentsOf: outURL), as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(dir.exists("r.obj"))
        #expect(text.contains("\u{1B}[Kmeshgeo tessellate: "), "\(text.debugDescription)")
        // The line is cleared at the end: the last thing written is a carriage return and erase-line.
        #expect(text.hasSuffix("\r\u{1B}[K"), "\(text.debugDescription)")
    }
}
