import Foundation
import Testing

// The OBJ output is streamed (formatted a group of pieces at a time and written as it goes): a
// file must still be replaced atomically, standard output must get the same bytes, and a write
// that fails part way must be exit 74 with nothing left behind.

@Suite struct OBJStreamCLITests {
    /// Runs meshgeo through `/bin/sh -c script` (the script ends by exec'ing the tool with its
    /// arguments), standard output to `stdoutPath` (a file in the workspace's sibling I/O
    /// directory when nil), standard error to a file.
    private func runThroughShell(
        _ script: String, _ arguments: [String], in ws: CLIWorkspace, stdoutPath: String? = nil
    ) throws -> MeshGeoCLI.Output {
        let binary = try #require(MeshGeoCLI.binary, "meshgeo binary not found")
        let io = FileManager.default.temporaryDirectory.appendingPathComponent("meshgeo-io-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: io, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: io) }
        let outPath = stdoutPath ?? io.appendingPathComponent("stdout").path
        let errURL = io.appendingPathComponent("stderr")
        if stdoutPath == nil { _ = FileManager.default.createFile(atPath: outPath, contents: nil) }
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script + #"; exec "$0" "$@""#, binary.path] + arguments
        process.currentDirectoryURL = ws.url
        let outHandle = try #require(FileHandle(forWritingAtPath: outPath))
        let errHandle = try FileHandle(forWritingTo: errURL)
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        let stdout = stdoutPath == nil ? try Data(contentsOf: URL(fileURLWithPath: outPath)) : Data()
        return MeshGeoCLI.Output(status: process.terminationStatus, stdout: stdout, stderr: try Data(contentsOf: errURL))
    }

    /// The ripple example: at steps 2, 160,801 vertices and 320,000 triangles, 60 pieces of
    /// 8,192 items, several groups on any machine of up to 14 cores.
    private func rippleWorkspace() throws -> CLIWorkspace {
        let ws = try CLIWorkspace()
        let example = try ws.run(["example", "ripple", "-o", "ripple.json"])
        #expect(example.status == 0, "\(example.err)")
        return ws
    }

    @Test func fileAndStandardOutputGetTheSameStreamedBytes() throws {
        let ws = try rippleWorkspace()
        let arguments = ["tessellate", "ripple.json", "--steps", "2"]
        let toStdout = try ws.run(arguments)
        #expect(toStdout.status == 0 && toStdout.stderr.isEmpty, "\(toStdout.err)")
        let toFile = try ws.run(arguments + ["-o", "out.obj"])
        #expect(toFile.status == 0 && toFile.stdout.isEmpty && toFile.stderr.isEmpty, "\(toFile.err)")
        let written = try ws.read("out.obj")
        #expect(written == toStdout.stdout)
        #expect(written.starts(with: Data("# meshgeo: 160801 vertices, 320000 triangles, unit space\n".utf8)))
        let lines = written.split(separator: UInt8(ascii: "\n"))
        #expect(lines.count == 1 + 3 * 160_801 + 320_000)
        #expect(lines.last.map { $0.starts(with: Data("f ".utf8)) } == true)
        #expect(try ws.listing() == ["out.obj", "ripple.json"], "no temporary file is left")
    }

    @Test func aFileWriteFailingPartWayIsExit74AndLeavesTheTargetUntouched() throws {
        let ws = try rippleWorkspace()
        let sentinel = "SENTINEL — must survive\n"
        try ws.write("out.obj", sentinel)
        // A file size limit of 64 blocks (32 or 64 KiB, by the shell) against some 30 MB of text;
        // SIGXFSZ ignored, so the write fails with EFBIG instead of killing the tool.
        let output = try runThroughShell(
            "ulimit -f 64; trap '' XFSZ", ["tessellate", "ripple.json", "--steps", "2", "-o", "out.obj"], in: ws)
        let message = CLITests.expectFailure(output, code: 74, file: "out.obj")
        #expect(message.hasPrefix("cannot write: "), "\(message)")
        #expect(try ws.read("out.obj") == Data(sentinel.utf8))
        #expect(try ws.listing() == ["out.obj", "ripple.json"], "the temporary file is removed")
    }

    @Test func standardOutputThatCannotBeWrittenIsExit74() throws {
        let ws = try rippleWorkspace()
        let output = try runThroughShell(":", ["tessellate", "ripple.json", "--steps", "1"], in: ws, stdoutPath: "/dev/full")
        let message = CLITests.expectFailure(output, code: 74, file: "<stdout>")
        #expect(message.hasPrefix("cannot write: "), "\(message)")
        #expect(try ws.listing() == ["ripple.json"])
    }
}
