import Foundation
import Hummingbird
import MeshRender
import MeshTessellate
import SurfaceKit

/// `meshgeo serve`: one page (a WebGL live view) and a JSON API over the libraries, on loopback
/// unless told otherwise.
public struct MeshServer: Sendable {
    /// Request bodies larger than this are refused with 413 before they are read in full.
    public static let maximumBodyBytes = 16 << 20

    /// The mesh the page shows first.
    public var document: MeshDocument
    public var host: String
    /// 0 picks a free port (the URL printed says which).
    public var port: Int
    public let service: MeshService

    public init(document: MeshDocument, host: String = "127.0.0.1", port: Int = 8080, service: MeshService = MeshService()) {
        self.document = document
        self.host = host
        self.port = port
        self.service = service
    }

    /// The HTTP application; `onListening` gets the URL once the socket is bound.
    public func application(onListening: @escaping @Sendable (String) -> Void = { _ in }) -> some ApplicationProtocol {
        let host = self.host
        var app = Application(
            router: router(),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "meshgeo"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                let shown = host.contains(":") ? "[\(host)]" : host
                onListening("http://\(shown):\(port)/")
            }
        )
        app.logger.logLevel = .warning
        return app
    }

    /// Serves until the process is interrupted (SIGINT or SIGTERM stop it gracefully).
    public func run(onListening: @escaping @Sendable (String) -> Void) async throws {
        HeapTuning.apply()
        try await application(onListening: onListening).runService()
    }

    func router() -> Router<BasicRequestContext> {
        let router = Router()
        let routes = APIRoutes(service: service, document: document)
        router.get("/") { _, _ in PageAssets.response(for: "index.html") }
        router.get("/:asset") { _, context in
            let name = try context.parameters.require("asset")
            guard PageAssets.has(name) else { throw APIError(.notFound, "no such page file: \(name)") }
            return PageAssets.response(for: name)
        }
        router.get("/api/mesh") { _, _ in APIRoutes.bytes(routes.document.jsonBytes(), type: "application/json") }
        router.get("/api/examples") { _, _ in routes.examples() }
        router.get("/api/examples/:name") { _, context in try routes.example(try context.parameters.require("name")) }
        router.post("/api/tessellate") { request, _ in try await routes.handle(request) { try routes.tessellate($0, timing: &$1) } }
        router.post("/api/hit") { request, _ in try await routes.handle(request) { body, _ in try routes.hit(body) } }
        router.post("/api/render") { request, _ in try await routes.handle(request) { body, _ in try routes.render(body) } }
        router.post("/api/export") { request, _ in try await routes.handle(request) { body, _ in try routes.export(body) } }
        return router
    }
}
