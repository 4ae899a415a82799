import Foundation
import Testing

// Shared by every command-line test file: running the built tool and a scratch directory.

// MARK: - Running the tool

/// Finds and runs the built `meshgeo` binary.
enum MeshGeoCLI {
    /// The binary beside the test bundle (the test target depends on the executable, so it is
    /// built into the same directory), else under the package's scratch directories.
    static let binary: URL? = {
        let fm = FileManager.default
        var candidates: [URL] = []
        if let first = CommandLine.arguments.first {
            var url = URL(fileURLWithPath: first)
            // Walk up from the test binary (it may be inside an .xctest bundle).
            for _ in 0..<4 {
                url = url.deletingLastPathComponent()
                candidates.append(url.appendingPathComponent("meshgeo"))
            }
        }
        if let executable = Bundle.main.executableURL {
            candidates.append(executable.deletingLastPathComponent().appendingPathComponent("meshgeo"))
        }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("meshgeo"))
        // Tests/MeshGeoCLITests/Support/CLISupport.swift → the package root.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        for scratch in [".build-tess", ".build"] {
            candidates.append(root.appendingPathComponent(scratch).appendingPathComponent("debug").appendingPathComponent("meshgeo"))
        }
        return candidates.first { fm.isExecutableFile(atPath: $0.path) }
    }()

    struct Output {
        var status: Int32
        var stdout: Data
        var stderr: Data
        var out: String { String(decoding: stdout, as: UTF8.self) }
        var err: String { String(decoding: stderr, as: UTF8.self) }
        /// The non-empty lines of stdout.
        var lines: [String] { out.split(separator: "\n").map(String.init) }
        /// The lines of stderr (without the final newline).
        var errLines: [Substring] { err.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { $0 } }
    }

    /// Runs meshgeo with `arguments` in `directory`. Standard output and error go to files (so an
    /// OBJ larger than a pipe buffer cannot block the tool), read after it exits; standard input
    /// comes from `stdin` or /dev/null.
    static func run(_ arguments: [String], in directory: URL, stdin: Data? = nil) throws -> Output {
        let binary = try #require(binary, "meshgeo binary not found beside the tests or under .build*/debug")
        let io = FileManager.default.temporaryDirectory.appendingPathComponent("meshgeo-io-\(UUID().uuidString)")
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
        return Output(
            status: process.terminationStatus,
            stdout: try Data(contentsOf: outURL),
            stderr: try Data(contentsOf: errURL))
    }
}

/// A fresh directory per test, removed at the end.
final class CLIWorkspace {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("meshgeo-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: url.appendingPathComponent(name))
    }

    func write(_ name: String, _ data: Data) throws {
        try data.write(to: url.appendingPathComponent(name))
    }

    func read(_ name: String) throws -> Data { try Data(contentsOf: url.appendingPathComponent(name)) }

    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path(name)) }

    /// The names in the directory, hidden ones included.
    func listing() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: url.path).sorted() }

    func run(_ arguments: [String], stdin: Data? = nil) throws -> MeshGeoCLI.Output {
        try MeshGeoCLI.run(arguments, in: url, stdin: stdin)
    }
}
