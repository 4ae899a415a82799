/// The mesh.json form of a document (Docs/mesh-json.md): a strict reader and a writer whose output reads
/// back to an equal document.
public extension MeshDocument {
    /// Reads a mesh.json document from UTF-8 bytes.
    ///
    /// The reader is strict. Malformed JSON is a ``MeshError`` of kind `.syntax` whose message
    /// gives the line and column. Everything else names the JSON path of the problem in the
    /// error's `path`:
    /// - a wrong type, a missing required key, a number that is not finite (`1e999`), an index
    ///   that is not an integer, a weight ≤ 0, a value outside its range → `.invalidValue`;
    /// - a key mesh.json does not know → `.unknownKey`, with the nearest known key suggested
    ///   (the path is that of the unknown key, e.g. `faces[0].indicies`);
    /// - a vertex index that names no vertex → `.indexOutOfRange` (`400 is out of range (121 vertices)`);
    /// - a face with a repeated vertex, or faces that do not form a surface → `.topology`.
    ///
    /// Optional keys take the defaults of Docs/mesh-json.md: `depthNormalization` none, `subdivisionSteps`
    /// −1 (automatic), face weights 1, and the defaults of ``LayerProperties`` for `layer` and each
    /// of its keys.
    init(json bytes: [UInt8]) throws {
        let root = try JSONParser.parse(bytes)
        self = try MeshJSONReader.document(from: root)
    }

    /// Reads a mesh.json document from a string (see ``init(json:)``).
    init(jsonString: String) throws {
        try self.init(json: Array(jsonString.utf8))
    }

    /// The document as mesh.json, UTF-8, ending with a newline.
    ///
    /// One vertex or face per line, keys in the order Docs/mesh-json.md lists them, `w` only for faces whose
    /// weights are not all 1, `layer` always in full. Each number is written as the shortest text
    /// that reads back to the same `Double`, so reading the output gives an equal document. A
    /// number that is not finite (only possible in a document that would fail validation) is
    /// written as `null`, which keeps the output valid JSON and makes reading it fail at that path.
    func jsonBytes() -> [UInt8] {
        var writer = MeshJSONWriter()
        writer.write(self)
        return writer.bytes
    }

    /// The document as mesh.json text (see ``jsonBytes()``).
    func jsonString() -> String {
        String(decoding: jsonBytes(), as: UTF8.self)
    }
}

// MARK: - Reading

/// Turns a parsed JSON value into a ``MeshDocument``, naming the path of the first problem.
///
/// Paths are passed as autoclosures so that the text of a path is built only when an error is
/// thrown, not once per vertex.
enum MeshJSONReader {
    static let documentKeys = ["vertices", "faces", "depthNormalization", "subdivisionSteps", "layer"]
    static let vertexKeys = ["from", "to"]
    static let faceKeys = ["indices", "w"]
    static let layerKeys = ["size", "anchor", "transform", "light", "lights", "material"]
    static let lightKeys = ["direction", "diffuse"]

    /// The largest `subdivisionSteps` the reader converts to an `Int`; the tessellator applies its
    /// own (much smaller) limits.
    static let maxSubdivisionSteps = Double(SubdivisionSteps.largestRecorded)

    static func document(from root: JSONValue) throws -> MeshDocument {
        guard case .object(let object) = root else {
            throw MeshError(
                .invalidValue, path: "",
                "expected an object with 'vertices' and 'faces', found \(root.kindDescription)")
        }
        try checkKeys(object, known: documentKeys, path: "")
        let vertices = try decodeVertices(try required(object, "vertices", path: ""))
        let faces = try decodeFaces(try required(object, "faces", path: ""), vertexCount: vertices.count)

        var depthNormalization = DepthNormalization.none
        if let value = object["depthNormalization"] {
            depthNormalization = try decodeDepthNormalization(value)
        }
        var subdivisionSteps = SubdivisionSteps.automatic
        if let value = object["subdivisionSteps"] {
            subdivisionSteps = try decodeSubdivisionSteps(value)
        }
        var layer = LayerProperties()
        if let value = object["layer"] {
            layer = try decodeLayer(value)
        }
        // The validating initialiser checks what the types alone cannot: distinct indices,
        // weights > 0 and the topology, each error naming its path.
        let mesh = try MeshTransform(
            vertices: vertices, faces: faces, depthNormalization: depthNormalization,
            subdivisionSteps: subdivisionSteps)
        return MeshDocument(mesh: mesh, layer: layer)
    }

    // MARK: Parts of the document

    static func decodeVertices(_ value: JSONValue) throws -> [MeshVertex] {
        let elements = try array(value, path: "vertices", expected: "an array of vertices")
        var vertices: [MeshVertex] = []
        vertices.reserveCapacity(elements.count)
        for (i, element) in elements.enumerated() {
            let object = try self.object(element, path: "vertices[\(i)]", expected: "a vertex object")
            try checkKeys(object, known: vertexKeys, path: "vertices[\(i)]")
            let from = try numbers(
                try required(object, "from", path: "vertices[\(i)]"), as: LayerPoint.self,
                path: "vertices[\(i)].from")
            let to = try numbers(
                try required(object, "to", path: "vertices[\(i)]"), as: Point3D.self,
                path: "vertices[\(i)].to")
            vertices.append(MeshVertex(from: from, to: to))
        }
        return vertices
    }

    static func decodeFaces(_ value: JSONValue, vertexCount: Int) throws -> [MeshFace] {
        let elements = try array(value, path: "faces", expected: "an array of faces")
        var faces: [MeshFace] = []
        faces.reserveCapacity(elements.count)
        for (f, element) in elements.enumerated() {
            let object = try self.object(element, path: "faces[\(f)]", expected: "a face object")
            try checkKeys(object, known: faceKeys, path: "faces[\(f)]")
            let indexValues = try array(
                try required(object, "indices", path: "faces[\(f)]"), count: 4,
                path: "faces[\(f)].indices", expected: "4 vertex indices")
            var indices = SIMD4<Int>()
            for k in 0..<4 {
                indices[k] = try vertexIndex(
                    indexValues[k], vertexCount: vertexCount, path: "faces[\(f)].indices[\(k)]")
            }
            var weights = SIMD4<Double>(repeating: 1)
            if let w = object["w"] {
                let values = try array(w, count: 4, path: "faces[\(f)].w", expected: "4 weights")
                for k in 0..<4 {
                    let weight = try number(values[k], path: "faces[\(f)].w[\(k)]")
                    guard weight.value > 0 else {
                        throw MeshError(
                            .invalidValue, path: "faces[\(f)].w[\(k)]",
                            "weight \(shortText(weight.text)) must be finite and greater than 0")
                    }
                    weights[k] = weight.value
                }
            }
            faces.append(MeshFace(indices: indices, weights: weights))
        }
        return faces
    }

    static func vertexIndex(_ value: JSONValue, vertexCount: Int, path: @autoclosure () -> String) throws -> Int {
        let n = try number(value, path: path())
        guard n.isIntegral else {
            throw MeshError(
                .invalidValue, path: path(), "\(shortText(n.text)) is not an integer (a vertex index)")
        }
        // Compared as Doubles, so 1e30 or 2^64 is rejected here rather than trapping in Int(_:).
        guard n.value >= 0, n.value < Double(vertexCount) else {
            throw MeshError(
                .indexOutOfRange, path: path(),
                "\(shortText(n.text)) is out of range (\(vertexCount) vertices)")
        }
        return Int(n.value)
    }

    static func decodeDepthNormalization(_ value: JSONValue) throws -> DepthNormalization {
        guard case .string(let name) = value else {
            throw MeshError(
                .invalidValue, path: "depthNormalization",
                "expected a string (one of \(depthNormalizationNames)), found \(value.kindDescription)")
        }
        guard let depthNormalization = DepthNormalization(rawValue: name) else {
            let known = DepthNormalization.allCases.map(\.rawValue)
            let hint =
                KeySuggestion.nearest(to: name, in: known).map { "did you mean '\($0)'?" }
                ?? "expected one of \(depthNormalizationNames)"
            throw MeshError(
                .invalidValue, path: "depthNormalization",
                "unknown depth normalization \(JSONPath.quoted(name, quote: "'")); \(hint)")
        }
        return depthNormalization
    }

    static var depthNormalizationNames: String {
        DepthNormalization.allCases.map(\.rawValue).joined(separator: ", ")
    }

    static func decodeSubdivisionSteps(_ value: JSONValue) throws -> SubdivisionSteps {
        let n = try number(value, path: "subdivisionSteps")
        guard n.isIntegral else {
            throw MeshError(.invalidValue, path: "subdivisionSteps", "\(shortText(n.text)) is not an integer")
        }
        guard n.value <= maxSubdivisionSteps else {
            throw MeshError(.invalidValue, path: "subdivisionSteps", "\(shortText(n.text)) is too large")
        }
        guard let steps = SubdivisionSteps(rawValue: Int(n.value)) else {
            throw MeshError(
                .invalidValue, path: "subdivisionSteps",
                "\(shortText(n.text)) is not allowed (use -1 for automatic, or 0 or more steps)")
        }
        return steps
    }

    static func decodeLayer(_ value: JSONValue) throws -> LayerProperties {
        let object = try self.object(value, path: "layer", expected: "a layer object")
        try checkKeys(object, known: layerKeys, path: "layer")
        var layer = LayerProperties()
        if let value = object["size"] {
            let size = try numbers(value, as: SIMD2<Double>.self, path: "layer.size")
            for k in 0..<2 where !(size[k] > 0) {
                throw MeshError(
                    .invalidValue, path: "layer.size[\(k)]",
                    "\(MeshJSONWriter.format(size[k])) must be greater than 0 (the layer size in points)")
            }
            layer.size = size
        }
        if let value = object["anchor"] {
            layer.anchor = try numbers(value, as: LayerPoint.self, path: "layer.anchor")
        }
        if let value = object["transform"] {
            let m = try numbers(
                value, as: SIMD16<Double>.self, path: "layer.transform", expected: "16 numbers (m11, m12, …, m44)")
            if let transform = Transform3D(elements: (0..<16).map { m[$0] }) {
                layer.transform = transform
            }
        }
        if let value = object["light"] {
            let light = try self.object(value, path: "layer.light", expected: "a light object")
            try checkKeys(light, known: lightKeys, path: "layer.light")
            if let direction = light["direction"] {
                layer.light.direction = try numbers(direction, as: Point3D.self, path: "layer.light.direction")
                guard layer.light.direction != .zero else {
                    throw MeshError(
                        .invalidValue, path: "layer.light.direction",
                        "[0, 0, 0] points nowhere: the direction toward the light must not be the zero vector")
                }
            }
            if let diffuse = light["diffuse"] {
                layer.light.diffuse = try number(diffuse, path: "layer.light.diffuse").value
            }
        }
        try decodeLighting(object, into: &layer)
        return layer
    }

    // MARK: Typed access

    /// Throws `.unknownKey` for the first key not in `known`, naming the key's path.
    static func checkKeys(_ object: JSONObject, known: [String], path: @autoclosure () -> String) throws {
        for member in object.members where !known.contains(member.key) {
            throw MeshError(
                .unknownKey, path: child(path(), member.key),
                KeySuggestion.unknownKeyMessage(member.key, known: known))
        }
    }

    /// The value of a required key, or `.invalidValue` naming where it should be.
    static func required(_ object: JSONObject, _ key: String, path: @autoclosure () -> String) throws -> JSONValue {
        guard let value = object[key] else {
            throw MeshError(.invalidValue, path: child(path(), key), "required key '\(key)' is missing")
        }
        return value
    }

    static func object(
        _ value: JSONValue, path: @autoclosure () -> String, expected: @autoclosure () -> String
    ) throws -> JSONObject {
        guard case .object(let object) = value else {
            throw MeshError(.invalidValue, path: path(), "expected \(expected()), found \(value.kindDescription)")
        }
        return object
    }

    static func array(
        _ value: JSONValue, path: @autoclosure () -> String, expected: @autoclosure () -> String
    ) throws -> [JSONValue] {
        guard case .array(let elements) = value else {
            throw MeshError(.invalidValue, path: path(), "expected \(expected()), found \(value.kindDescription)")
        }
        return elements
    }

    /// An array of exactly `count` elements.
    static func array(
        _ value: JSONValue, count: Int, path: @autoclosure () -> String, expected: @autoclosure () -> String
    ) throws -> [JSONValue] {
        let elements = try array(value, path: path(), expected: "an array of \(expected())")
        guard elements.count == count else {
            throw MeshError(
                .invalidValue, path: path(),
                "expected an array of \(expected()), found \(elements.count) element\(elements.count == 1 ? "" : "s")")
        }
        return elements
    }

    /// A finite number.
    static func number(_ value: JSONValue, path: @autoclosure () -> String) throws -> JSONNumber {
        guard case .number(let number) = value else {
            throw MeshError(.invalidValue, path: path(), "expected a number, found \(value.kindDescription)")
        }
        // The parser leaves numbers too large for a Double as ±infinity; here the path is known.
        guard number.value.isFinite else {
            throw MeshError(.invalidValue, path: path(), "\(shortText(number.text)) is not a finite number")
        }
        return number
    }

    /// An array of exactly as many finite numbers as `V` has lanes (a SIMD type, so reading a
    /// vertex allocates nothing).
    static func numbers<V: SIMD>(
        _ value: JSONValue, as _: V.Type, path: @autoclosure () -> String,
        expected: @autoclosure () -> String? = nil
    ) throws -> V where V.Scalar == Double {
        let count = V.scalarCount
        let elements = try array(value, count: count, path: path(), expected: expected() ?? "\(count) numbers")
        var result = V()
        for k in 0..<count {
            result[k] = try number(elements[k], path: "\(path())[\(k)]").value
        }
        return result
    }

    /// `path.key`, or just `key` at the top level; odd keys are bracketed as ``JSONPath`` does.
    static func child(_ path: String, _ key: String) -> String {
        if !JSONPath.isPlain(key) {
            return path + "[" + JSONPath.quoted(key) + "]"
        }
        return path.isEmpty ? key : path + "." + key
    }

    /// A number's source text for a message, cut short when it has hundreds of digits.
    static func shortText(_ text: String) -> String {
        text.utf8.count <= 40 ? text : String(text.prefix(32)) + "…"
    }
}

// MARK: - Writing

/// Writes mesh.json into a byte buffer, one vertex or face per line.
struct MeshJSONWriter {
    private(set) var bytes: [UInt8] = []

    mutating func write(_ document: MeshDocument) {
        let mesh = document.mesh
        bytes.reserveCapacity(64 * mesh.vertices.count + 48 * mesh.faces.count + 512)
        append("{\n  \"vertices\": [")
        for (i, vertex) in mesh.vertices.enumerated() {
            append(i == 0 ? "\n    {\"from\": " : ",\n    {\"from\": ")
            appendNumbers([vertex.from.x, vertex.from.y])
            append(", \"to\": ")
            appendNumbers([vertex.to.x, vertex.to.y, vertex.to.z])
            append("}")
        }
        append(mesh.vertices.isEmpty ? "],\n" : "\n  ],\n")
        append("  \"faces\": [")
        for (f, face) in mesh.faces.enumerated() {
            append(f == 0 ? "\n    {\"indices\": [" : ",\n    {\"indices\": [")
            for k in 0..<4 {
                if k > 0 { append(", ") }
                append(String(face.indices[k]))
            }
            append("]")
            if face.weights != SIMD4(repeating: 1) {
                append(", \"w\": ")
                appendNumbers([face.weights[0], face.weights[1], face.weights[2], face.weights[3]])
            }
            append("}")
        }
        append(mesh.faces.isEmpty ? "],\n" : "\n  ],\n")
        append("  \"depthNormalization\": \"\(mesh.depthNormalization.rawValue)\",\n")
        append("  \"subdivisionSteps\": \(mesh.subdivisionSteps.rawValue),\n")

        let layer = document.layer
        append("  \"layer\": {\n    \"size\": ")
        appendNumbers([layer.size.x, layer.size.y])
        append(",\n    \"anchor\": ")
        appendNumbers([layer.anchor.x, layer.anchor.y])
        append(",\n    \"transform\": ")
        appendNumbers(layer.transform.elements)
        writeLighting(layer)
        append("\n  }\n}\n")
    }

    /// For the writer's extensions in other files (`append` is private to this one).
    mutating func appendText(_ text: String) { append(text) }

    mutating func appendNumberList(_ values: [Double]) { appendNumbers(values) }

    private mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    private mutating func appendNumbers(_ values: [Double]) {
        append("[")
        for (k, value) in values.enumerated() {
            if k > 0 { append(", ") }
            append(Self.format(value))
        }
        append("]")
    }

    /// The shortest JSON text that reads back to exactly `value`.
    ///
    /// Integers up to 2⁵³ are written without `.0` (they are exact either way, and `[0, 1]` reads
    /// better than `[0.0, 1.0]`); `-0.0` keeps its sign as `-0`. Everything else is
    /// `Double.description`, which is the shortest round-tripping form and always valid JSON for
    /// finite values (`1e-05`, `1e+20`).
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == 0 {
            return value.sign == .minus ? "-0" : "0"
        }
        if value.rounded(.towardZero) == value, abs(value) <= 9_007_199_254_740_992 {
            return String(Int64(value))
        }
        return value.description
    }
}
