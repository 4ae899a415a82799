import Foundation
import Testing

/// `meshgeo serve` as a command: its URL, Ctrl-C, and its exit codes.
@Suite struct ServeCommandTests {
    static func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("meshgeo-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func interruptStopsTheServerAndABusyPortIsExit74() throws {
        let folder = try ServeCommandTests.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let meshgeo = try #require(Processes.meshgeo)
        let server = try Processes.Child(meshgeo, ["serve", "skew", "--port", "0"], folder: folder, name: "serve")
        defer { server.stop() }
        var url: String?
        _ = server.wait(seconds: 60) {
            url = server.output.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }.map(String.init)
            return url != nil
        }
        let portText = url.flatMap { $0.split(separator: ":").last?.split(separator: "/").first }.map(String.init)
        let port = try #require(portText, "no URL in: \(server.output)")

        let second = try Processes.Child(meshgeo, ["serve", "skew", "--port", port], folder: folder, name: "second")
        defer { second.stop() }
        #expect(second.waitForExit(seconds: 60))
        #expect(second.process.terminationStatus == 74)
        #expect(second.errors.hasPrefix("meshgeo: error: cannot serve on 127.0.0.1:\(port)"))

        kill(server.process.processIdentifier, SIGINT)
        #expect(server.waitForExit(seconds: 20), "serve did not stop on SIGINT")
        #expect(server.process.terminationStatus == 0)
    }

    @Test func badArgumentsExitBeforeServing() throws {
        let folder = try ServeCommandTests.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let meshgeo = try #require(Processes.meshgeo)
        for (arguments, status) in [
            (["serve", "no-such-mesh.json"], Int32(66)), (["serve", "--port", "70000"], 64), (["serve", "--host", ""], 64),
        ] {
            let child = try Processes.Child(meshgeo, arguments, folder: folder, name: "bad")
            defer { child.stop() }
            #expect(child.waitForExit(seconds: 60), "\(arguments)")
            #expect(child.process.terminationStatus == status, "\(arguments): \(child.errors)")
        }
    }
}
