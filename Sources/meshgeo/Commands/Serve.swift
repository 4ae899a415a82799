import ArgumentParser
import Dispatch
import Foundation
import MeshServe
import SurfaceKit
import Synchronization

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve a live view: a web page to see, shape and animate a mesh transform, and its JSON API.",
        discussion: """
            Opens an HTTP server (loopback unless --host says otherwise) with one WebGL page and the API \
            under /api (see Docs/live-view.md). Prints the URL, then serves until Ctrl-C. The page needs no \
            network: every file it uses is built into meshgeo.
            """)

    @Argument(help: "The mesh to show first: a mesh.json file, '-' for standard input, or an example's name (default: ripple).")
    var mesh: String = "ripple"

    @Option(help: "The TCP port (0 picks a free one).")
    var port: Int = 8080

    @Option(help: "The address to listen on.")
    var host: String = "127.0.0.1"

    @Option(name: .customLong("max-triangles"), help: "Refuse requests that would make more triangles than this.")
    var maxTriangles: Int = MeshService.defaultTriangleBudget

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535.") }
        guard !host.isEmpty else { throw ValidationError("--host must name an address.") }
        guard maxTriangles >= 0 else { throw ValidationError("--max-triangles must not be negative.") }
    }

    func run() throws {
        var document: MeshDocument?
        try reportingFailures(file: InputFile.displayName(mesh)) {
            if let example = ExampleMesh(rawValue: mesh), !FileManager.default.fileExists(atPath: mesh) {
                document = example.document
            } else {
                document = try InputFile.document(mesh)
            }
        }
        guard let document else { return }
        let server = MeshServer(document: document, host: host, port: port, service: MeshService(triangleBudget: maxTriangles))
        let failure = Mutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        // The server runs on Swift's concurrency pool; this thread waits for it to stop (Ctrl-C).
        Task {
            do {
                try await server.run { url in
                    try? StandardOutput.write(Array("meshgeo serve: \(url)  (Ctrl-C stops)\n".utf8))
                }
            } catch {
                failure.withLock { $0 = "\(error)" }
            }
            done.signal()
        }
        done.wait()
        if let message = failure.withLock({ $0 }) {
            StandardError.write(Failure(.ioError, "cannot serve on \(host):\(port): \(message)").line)
            throw ExitCode(Failure.Code.ioError.rawValue)
        }
    }
}
