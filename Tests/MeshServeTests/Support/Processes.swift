import Foundation

// Starting `meshgeo serve` and the browser driver as child processes, with bounded waits and
// always stopped.

enum Processes {
    /// The package root (Tests/MeshServeTests/Support/Processes.swift → three levels up).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The built `meshgeo` beside the test binary, else under the package's scratch folders.
    static let meshgeo: URL? = {
        var candidates: [URL] = []
        if let first = CommandLine.arguments.first {
            var url = URL(fileURLWithPath: first)
            for _ in 0..<4 {
                url = url.deletingLastPathComponent()
                candidates.append(url.appendingPathComponent("meshgeo"))
            }
        }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("meshgeo"))
        candidates.append(packageRoot.appendingPathComponent(".build/debug/meshgeo"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// A child process whose standard output and error go to files in `folder`.
    final class Child {
        let process = Process()
        let stdout: URL
        let stderr: URL

        init(_ executable: URL, _ arguments: [String], folder: URL, name: String) throws {
            stdout = folder.appendingPathComponent("\(name).out")
            stderr = folder.appendingPathComponent("\(name).err")
            FileManager.default.createFile(atPath: stdout.path, contents: nil)
            FileManager.default.createFile(atPath: stderr.path, contents: nil)
            process.executableURL = executable
            process.arguments = arguments
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = try FileHandle(forWritingTo: stdout)
            process.standardError = try FileHandle(forWritingTo: stderr)
            try process.run()
        }

        var output: String { (try? String(contentsOf: stdout, encoding: .utf8)) ?? "" }
        var errors: String { (try? String(contentsOf: stderr, encoding: .utf8)) ?? "" }

        /// Waits until `condition` holds or the process ends or `seconds` pass; whether it held.
        func wait(seconds: Double, until condition: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if condition() { return true }
                if !process.isRunning { return condition() }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return condition()
        }

        /// Waits for the process to end by itself for at most `seconds`; whether it did.
        func waitForExit(seconds: Double) -> Bool { wait(seconds: seconds) { !process.isRunning } }

        /// SIGTERM, then SIGKILL if it has not ended within five seconds.
        func stop() {
            guard process.isRunning else { return }
            process.terminate()
            if !waitForExit(seconds: 5) {
                kill(process.processIdentifier, SIGKILL)
                _ = waitForExit(seconds: 5)
            }
        }
    }

    /// Starts `meshgeo serve mesh --port 0` and waits for the URL it prints.
    static func startServer(mesh: URL, folder: URL) throws -> (Child, String) {
        guard let meshgeo else { throw ServeSupport.TestFailure("meshgeo is not built beside the tests") }
        let child = try Child(meshgeo, ["serve", mesh.path, "--port", "0"], folder: folder, name: "serve")
        var url: String?
        _ = child.wait(seconds: 60) {
            url = child.output.split(separator: " ").first { $0.hasPrefix("http://") }.map(String.init)
            return url != nil
        }
        guard let url else {
            child.stop()
            throw ServeSupport.TestFailure("meshgeo serve printed no URL: \(child.output) \(child.errors)")
        }
        return (child, url)
    }
}
