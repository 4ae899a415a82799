import Foundation
import HTTPTypes
import Hummingbird
import MeshRender
import MeshTessellate
import SurfaceKit

/// The API's handlers: each reads its body, calls the service and encodes the answer. Every
/// failure is an ``APIError`` (4xx with `{"error", "path"}`); nothing a request holds reaches a trap.
struct APIRoutes: Sendable {
    let service: MeshService
    let document: MeshDocument

    /// Reads the body (bounded), runs `body` on it, and times it: the `Server-Timing` header
    /// carries the milliseconds spent after the body arrived (`compute`), then those of each stage
    /// (``ServerTiming``).
    func handle(_ request: Request, _ body: (RequestBody, inout ServerTiming) throws -> Response) async throws -> Response {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > MeshServer.maximumBodyBytes {
            throw APIError.tooLarge
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: MeshServer.maximumBodyBytes)
        } catch let error as HTTPResponseError where error.status == .contentTooLarge {
            throw APIError.tooLarge
        }
        var timing = ServerTiming()
        let parsed = try RequestBody(Array(buffer.readableBytesView))
        timing.lap("read")
        var response: Response
        do {
            response = try body(parsed, &timing)
        } catch let error as MeshError {
            throw APIError(error)
        } catch let error as ImageError {
            throw APIError(.unprocessableContent, path: "", "\(error)")
        }
        if let name = HTTPField.Name("Server-Timing") { response.headers[name] = timing.header }
        return response
    }

    static func bytes(_ bytes: [UInt8], type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    func examples() -> Response {
        let list = ExampleMesh.allCases.map { "{\"name\":\(JSONText.string($0.rawValue)),\"summary\":\(JSONText.string($0.summary))}" }
        return APIRoutes.bytes(Array("[\(list.joined(separator: ","))]\n".utf8), type: "application/json")
    }

    func example(_ name: String) throws -> Response {
        guard let example = ExampleMesh(rawValue: name) else {
            let names = ExampleMesh.allCases.map(\.rawValue).joined(separator: ", ")
            throw APIError(.notFound, path: "", "no example named '\(name)' (the examples: \(names))")
        }
        return APIRoutes.bytes(example.document.jsonBytes(), type: "application/json")
    }

    /// `{mesh, steps, diagonal, space, sort, format, since}` (or `base` and `edits` in place of
    /// `mesh`: see ``MeshEdits``) → the triangles in draw order (binary:
    /// only the bytes changed since the answer `since` names, when the server still holds it).
    func tessellate(_ body: RequestBody, timing: inout ServerTiming) throws -> Response {
        let request = try TessellationRequest(body, budget: service.triangleBudget, kept: service.meshText, meshes: service.meshes)
        timing.lap("mesh")
        let space = try body.choice("space", CoordinateSpace.self) ?? .unit
        let sort = try PainterSorter.Mode.named(body)
        let binary: Bool
        switch try body.string("format") ?? "json" {
        case "json": binary = false
        case "binary": binary = true
        case let other: throw APIError(.badRequest, path: "format", "'\(other)' is not one of json, binary")
        }
        if binary {
            // The binary answer makes the command line's last check (no NaN or infinity leaves the
            // server) as it converts to Float32.
            let since = try body.string("since")
            let answer = try service.binaryAnswer(
                request.document, options: request.options, space: space, sort: sort, since: since, timing: &timing)
            var response = Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: .init(byteBuffer: answer.bytes))
            if let name = HTTPField.Name("Mesh-Triangles") { response.headers[name] = "\(answer.triangleCount)" }
            if let tag = answer.tag, let name = HTTPField.Name("Mesh-Version") { response.headers[name] = tag }
            if let name = HTTPField.Name("Mesh-Answer") { response.headers[name] = answer.isDelta ? "delta" : "full" }
            if let name = HTTPField.Name("Mesh-Tag") { response.headers[name] = service.meshes.keep(request.document) }
            return response
        }
        let mesh = try service.tessellate(request.document, options: request.options, space: space, sort: sort, timing: &timing)
        // The command line's last check before writing: no NaN or infinity leaves the server.
        try mesh.checkFinite()
        var response = APIRoutes.bytes(MeshEncoding.json(mesh), type: "application/json")
        timing.lap("encode")
        if let name = HTTPField.Name("Mesh-Triangles") { response.headers[name] = "\(mesh.triangleCount)" }
        if let name = HTTPField.Name("Mesh-Tag") { response.headers[name] = service.meshes.keep(request.document) }
        return response
    }

    /// `{mesh, points: [[x, y], …], exact, steps, diagonal}` → `{"hits": [...]}`, each as `meshgeo hit` prints it.
    func hit(_ body: RequestBody) throws -> Response {
        let request = try TessellationRequest(body, budget: service.triangleBudget)
        let points = try body.points("points", limit: MeshService.maximumHitPoints)
        let exact = try body.bool("exact") ?? false
        let hits = try service.hit(request.document, options: request.options, points: points, exact: exact)
        let lines = zip(points, hits).map { ScreenHit.jsonObject(at: $0, $1) }
        return APIRoutes.bytes(Array("{\"hits\":[\(lines.joined(separator: ","))]}\n".utf8), type: "application/json")
    }

    /// `{mesh, steps, diagonal, scale, opacity, sort, texture}` → a PNG, as `meshgeo render`
    /// (`texture`: a base64 PNG or JPEG, as `--texture` reads a file).
    func render(_ body: RequestBody) throws -> Response {
        let request = try TessellationRequest(body, budget: service.triangleBudget)
        var options = RenderOptions(tessellation: request.options)
        options.scale = try body.number("scale") ?? 1
        if let opacity = try body.number("opacity") {
            guard (0...1).contains(opacity) else { throw APIError(.badRequest, path: "opacity", "'opacity' must be from 0 to 1") }
            options.opacity = opacity
        }
        if body.raw("sort") != nil { options.sort = try PainterSorter.Mode.named(body) }
        let texture = try body.texture(maximumPixels: MeshService.maximumPixels)
        return APIRoutes.bytes(try service.png(request.document, texture: texture, options: options), type: "image/png")
    }

    /// `{mesh, steps, diagonal, format: obj|glb}` → the file `meshgeo tessellate` writes.
    func export(_ body: RequestBody) throws -> Response {
        let request = try TessellationRequest(body, budget: service.triangleBudget)
        let sort = try PainterSorter.Mode.named(body)
        switch try body.string("format") ?? "obj" {
        case "obj":
            let mesh = try service.tessellate(request.document, options: request.options, space: .unit, sort: sort)
            try mesh.checkFinite()
            return APIRoutes.bytes(mesh.objBytes(), type: "model/obj")
        case "glb":
            let mesh = try service.tessellate(request.document, options: request.options, space: .points, sort: sort)
            try mesh.checkFinite(asFloat32: true)
            return APIRoutes.bytes(try mesh.glbBytes(), type: "model/gltf-binary")
        case let other:
            throw APIError(.badRequest, path: "format", "'\(other)' is not one of obj, glb")
        }
    }
}

extension APIError {
    static let tooLarge = APIError(
        .contentTooLarge, "the body is larger than \(MeshServer.maximumBodyBytes >> 20) MiB, the most the server reads")
}
