import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MeshServe
import MeshTessellate
import SurfaceKit

// Shared by the API and page tests: meshes, requests and JSON helpers.

enum ServeSupport {
    /// A rows × columns identity grid on a W × H layer, with `to` moved by `bend` for each vertex
    /// (unit coordinates in, unit offset out).
    static func grid(
        rows: Int, columns: Int, size: SIMD2<Double> = SIMD2(200, 150), transform: Transform3D = .identity,
        bend: (SIMD2<Double>) -> SIMD3<Double> = { _ in .zero }
    ) throws -> MeshDocument {
        var mesh = try MeshTransform.identity(rows: rows, columns: columns)
        try mesh.mapVertices { vertex, _ in
            MeshVertex(from: vertex.from, to: vertex.to + bend(SIMD2(vertex.from.x, vertex.from.y)))
        }
        return MeshDocument(mesh: mesh, layer: LayerProperties(size: size, transform: transform))
    }

    /// The layer turned 40° about x with a perspective whose eye is 600 points away.
    static let tilted = Transform3D.rotation(angle: 40 * Double.pi / 180, axis: SIMD3(1, 0, 0))
        .concatenating(Transform3D.perspective(eyeDistance: 600))

    /// A request body: `{"mesh": <mesh.json>, …options}` (option values are JSON text).
    static func body(_ document: MeshDocument, _ options: [String: String] = [:]) -> ByteBuffer {
        var text = "{\"mesh\":" + document.jsonString()
        for (key, value) in options.sorted(by: { $0.key < $1.key }) {
            text += ",\"\(key)\":\(value)"
        }
        return ByteBuffer(string: text + "}")
    }

    static func json(_ buffer: ByteBuffer) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(buffer.readableBytesView))
        guard let dictionary = object as? [String: Any] else { throw TestFailure("not a JSON object: \(String(buffer: buffer))") }
        return dictionary
    }

    static func doubles(_ value: Any?) -> [Double] {
        (value as? [Any] ?? []).compactMap { ($0 as? NSNumber)?.doubleValue }
    }

    static func post(_ client: some TestClientProtocol, _ uri: String, _ body: ByteBuffer) async throws -> TestResponse {
        try await client.execute(uri: uri, method: .post, headers: [.contentType: "application/json"], body: body)
    }

    struct TestFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

/// Reading numbers from JSON text exactly: Swift's `Double(String)` rounds correctly, which
/// Foundation's JSON reader does not promise, and these tests compare answers bit for bit.
enum RawJSON {
    /// The flat number array under `"key":[…]` in `text` (the first occurrence).
    static func array(_ text: Substring, _ key: String) -> [Double] {
        guard let start = text.range(of: "\"\(key)\":[") else { return [] }
        let rest = text[start.upperBound...]
        guard let end = rest.firstIndex(of: "]") else { return [] }
        return rest[..<end].split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
    }

    static func array(_ buffer: ByteBuffer, _ key: String) -> [Double] {
        array(Substring(String(buffer: buffer)), key)
    }

    /// The number under `"key":` in `text` (the first occurrence).
    static func number(_ text: Substring, _ key: String) -> Double? {
        guard let start = text.range(of: "\"\(key)\":") else { return nil }
        let token = text[start.upperBound...].prefix { "0123456789+-.eE".contains($0) }
        return Double(token)
    }

    /// The objects of the array under `"key":[{…},{…}]`, each as its text (objects without nesting
    /// deeper than arrays of numbers, as hit objects are).
    static func objects(_ text: Substring, _ key: String) -> [Substring] {
        guard let start = text.range(of: "\"\(key)\":[") else { return [] }
        var result: [Substring] = []
        var index = start.upperBound
        while let open = text[index...].firstIndex(of: "{"), let close = text[open...].firstIndex(of: "}") {
            result.append(text[open...close])
            index = text.index(after: close)
        }
        return result
    }
}
