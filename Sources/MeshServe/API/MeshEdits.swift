import SurfaceKit

/// A request's changes to a mesh the server holds: `"base": TAG` names the mesh (the `Mesh-Tag`
/// of an earlier answer) and `"edits"` lists what changed, so that a client that moves one vertex
/// sends that vertex, not the whole mesh.
///
/// `edits` is an array of `{"vertex": i, "to": [x, y, z], "from": [u, v]}` (either of `to` and
/// `from` may be left out: it keeps the held value) and `{"face": f, "w": [w0, w1, w2, w3]}`,
/// applied in order. An optional `"layer"` replaces the held mesh's layer whole.
///
/// Why the result is the strict reader's: each new value is read by the mesh reader itself, as the
/// vertex or face of a small mesh.json document whose other values are the held ones written as
/// the shortest text that reads back to the same `Double`, and checked as the whole mesh's values
/// are (numbers, weights, numeric range). The held document was read and checked by the same
/// reader; replacing a vertex's values or a face's weights keeps its faces, and so the topology
/// already checked, and the whole document's numeric range (the weights' ratio) is checked again
/// after. Errors carry the reader's message with the path of the edit (`edits[2].to[1]`).
enum MeshEdits {
    static let vertexKeys = ["vertex", "to", "from"]
    static let faceKeys = ["face", "w"]

    /// `base` with the body's `edits` (and `layer`) applied.
    static func apply(_ body: RequestBody, to base: MeshDocument) throws(APIError) -> MeshDocument {
        guard let raw = body.members["edits"] else {
            throw APIError(.badRequest, path: "edits", "missing 'edits': with 'base', an array of the changes to that mesh")
        }
        let text = Array(raw)
        guard let spans = KeptMeshText.elementSpans(text, array: 0..<text.count) else {
            throw APIError(.badRequest, path: "edits", "'edits' must be an array of {vertex, to, from} and {face, w} objects")
        }
        var document = base
        let limit = base.mesh.vertices.count + base.mesh.faces.count
        guard spans.count <= limit else {
            throw APIError(
                .contentTooLarge, path: "edits",
                "\(spans.count) edits is more than the mesh has vertices and faces (\(limit)): send the whole mesh as 'mesh'")
        }
        var vertexEdits: [(edit: Int, vertex: Int, members: RequestBody)] = []
        /// The last edit of each face edited, to name it in the whole mesh's weight check.
        var faceEdits: [Int: Int] = [:]
        for (i, span) in spans.enumerated() {
            let path = "edits[\(i)]"
            guard text[span.lowerBound] == UInt8(ascii: "{") else {
                throw APIError(.badRequest, path: path, "\(path): expected an edit object, {vertex, to, from} or {face, w}")
            }
            var scanner = RequestBody.Scanner(bytes: Array(text[span]))
            let members: [String: ArraySlice<UInt8>]
            do {
                members = try scanner.topLevelMembers()
            } catch {
                throw APIError(.badRequest, path: error.path.isEmpty ? path : "\(path).\(error.path)", "\(path): \(error.message)")
            }
            let element = RequestBody(members: members)
            if members["vertex"] != nil {
                try checkKeys(members, known: vertexKeys, path: path, what: "a vertex edit")
                let index = try MeshEdits.index(element, key: "vertex", count: base.mesh.vertices.count, path: path, what: "vertices")
                guard members["to"] != nil || members["from"] != nil else {
                    throw APIError(.badRequest, path: path, "\(path): a vertex edit names 'to', 'from' or both")
                }
                vertexEdits.append((i, index, element))
            } else if members["face"] != nil {
                try checkKeys(members, known: faceKeys, path: path, what: "a face edit")
                let index = try MeshEdits.index(element, key: "face", count: base.mesh.faces.count, path: path, what: "faces")
                guard let w = members["w"] else { throw APIError(.badRequest, path: "\(path).w", "\(path): a face edit names 'w'") }
                let face = try weights(String(decoding: w, as: UTF8.self), path: path)
                faceEdits[index] = i
                var edited = document.mesh.faces[index]
                edited.weights = face
                do {
                    try document.mesh.replaceFace(at: index, with: edited)
                } catch {
                    throw APIError(renamed(error, to: path, prefix: "faces[\(index)]"))
                }
            } else {
                throw APIError(.badRequest, path: path, "\(path): an edit is {vertex, to, from} or {face, w}")
            }
        }
        if !vertexEdits.isEmpty { try applyVertices(vertexEdits, to: &document) }
        if let layer = body.members["layer"] { document.layer = try readLayer(layer) }
        do {
            try document.checkNumericRange()
        } catch let error as MeshError {
            // The weights' ratio is checked across the mesh: name the edit that set the blamed weight.
            if error.path.hasPrefix("faces["), let close = error.path.firstIndex(of: "]"),
                let f = Int(error.path.dropFirst(6).prefix(while: { $0 != "]" })), let edit = faceEdits[f]
            {
                throw APIError(MeshError(error.kind, path: "edits[\(edit)]" + error.path[error.path.index(after: close)...], error.message))
            }
            throw APIError(error)
        } catch {
            throw APIError(.unprocessableContent, path: "", "\(error)")
        }
        return document
    }

    /// Reads every vertex edit as one small document (`to` and `from` as sent, or the vertex's
    /// current values where left out) and writes the vertices into `document`, in edit order.
    static func applyVertices(_ edits: [(edit: Int, vertex: Int, members: RequestBody)], to document: inout MeshDocument) throws(APIError) {
        var fragment = Array("{\"vertices\":[".utf8)
        // Edits of one vertex apply in order: a left-out value is the one the latest earlier edit
        // of that vertex sent, or the held one.
        var latestFrom: [Int: ArraySlice<UInt8>] = [:], latestTo: [Int: ArraySlice<UInt8>] = [:]
        for (k, edit) in edits.enumerated() {
            let current = document.mesh.vertices[edit.vertex]
            let sentFrom = edit.members.members["from"] ?? latestFrom[edit.vertex]
            let sentTo = edit.members.members["to"] ?? latestTo[edit.vertex]
            latestFrom[edit.vertex] = sentFrom
            latestTo[edit.vertex] = sentTo
            let from = sentFrom.map(Array.init) ?? numberArray(current.from, lanes: 2)
            let to = sentTo.map(Array.init) ?? numberArray(current.to, lanes: 3)
            fragment += Array((k == 0 ? "{\"from\":" : ",{\"from\":").utf8) + from + Array(",\"to\":".utf8) + to + [UInt8(ascii: "}")]
        }
        fragment += Array("],\"faces\":[]}".utf8)
        let read: MeshDocument
        do {
            read = try MeshDocument(json: fragment)
            try read.mesh.checkNumericRange()
        } catch let error as MeshError where error.kind == .syntax {
            throw malformed("edits")
        } catch let error as MeshError {
            throw APIError(renamed(error) { k in "edits[\(edits[k].edit)]" })
        } catch {
            throw APIError(.unprocessableContent, path: "edits", "\(error)")
        }
        guard read.mesh.vertices.count == edits.count else {
            throw APIError(.badRequest, path: "edits", "the vertex edits did not read as \(edits.count) vertices")
        }
        for (k, vertex) in read.mesh.vertices.enumerated() {
            do {
                try document.mesh.replaceVertex(at: edits[k].vertex, with: vertex)
            } catch {
                throw APIError(renamed(error, to: "edits[\(edits[k].edit)]", prefix: "vertices[\(edits[k].vertex)]"))
            }
        }
    }

    /// The JSON text of a held value: each lane's `description`, the shortest text that reads back
    /// to the same `Double` (−0 included).
    static func numberArray<V: SIMD>(_ value: V, lanes: Int) -> [UInt8] where V.Scalar == Double {
        Array(("[" + (0..<lanes).map { value[$0].description }.joined(separator: ",") + "]").utf8)
    }

    /// A face edit's weights, read by the mesh reader as the `w` of a one-quad document.
    static func weights(_ w: String, path: String) throws(APIError) -> SIMD4<Double> {
        let square = "{\"from\":[0,0],\"to\":[0,0,0]}"
        let text = "{\"vertices\":[\(square),\(square),\(square),\(square)],\"faces\":[{\"indices\":[0,1,2,3],\"w\":\(w)}]}"
        do {
            let read = try MeshDocument(json: Array(text.utf8))
            try read.mesh.checkNumericRange()
            guard let face = read.mesh.faces.first else { throw APIError(.badRequest, path: "\(path).w", "\(path).w: 4 weights") }
            return face.weights
        } catch let error as MeshError where error.kind == .syntax {
            throw malformed("\(path).w")
        } catch let error as MeshError {
            throw APIError(renamed(error, to: path, prefix: "faces[0]"))
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError(.unprocessableContent, path: "\(path).w", "\(error)")
        }
    }

    /// A replacement layer, read by the mesh reader as the layer of an empty document (its paths
    /// are the document's: `layer.transform[3]`).
    static func readLayer(_ raw: ArraySlice<UInt8>) throws(APIError) -> LayerProperties {
        let text = Array("{\"vertices\":[],\"faces\":[],\"layer\":".utf8) + raw + [UInt8(ascii: "}")]
        do {
            let read = try MeshDocument(json: text)
            try read.layer.checkNumericRange()
            return read.layer
        } catch let error as MeshError where error.kind == .syntax {
            throw malformed("layer")
        } catch let error as MeshError {
            throw APIError(error)
        } catch {
            throw APIError(.unprocessableContent, path: "layer", "\(error)")
        }
    }

    /// The whole number under `key`, an index below `count`: the reader's words for one out of range.
    static func index(_ element: RequestBody, key: String, count: Int, path: String, what: String) throws(APIError) -> Int {
        let value: Double?
        do {
            value = try element.number(key)
        } catch {
            throw APIError(.badRequest, path: "\(path).\(key)", "\(path).\(key): expected an index (a whole number)")
        }
        guard let value, value == value.rounded(), value >= 0 else {
            throw APIError(.badRequest, path: "\(path).\(key)", "\(path).\(key): expected an index (a whole number)")
        }
        guard value < Double(count) else {
            let text = element.raw(key) ?? value.description
            throw APIError(MeshError(.indexOutOfRange, path: "\(path).\(key)", "\(text) is out of range (\(count) \(what))"))
        }
        return Int(value)
    }

    /// A value the body's scanner took whole but the JSON reader refuses (mismatched brackets).
    static func malformed(_ path: String) -> APIError {
        APIError(.badRequest, path: path, "\(path): not well-formed JSON")
    }

    static func checkKeys(_ members: [String: ArraySlice<UInt8>], known: [String], path: String, what: String) throws(APIError) {
        for key in members.keys.sorted() where !known.contains(key) {
            throw APIError(
                .badRequest, path: "\(path).\(key)",
                "\(path).\(key): unknown key '\(key)' in \(what) (the keys: \(known.joined(separator: ", ")))")
        }
    }

    /// `error` with the path of the fragment's element `prefix` (`vertices[k]`) made that of the edit.
    static func renamed(_ error: MeshError, edit: (Int) -> String) -> MeshError {
        let path = error.path
        guard path.hasPrefix("vertices["), let close = path.firstIndex(of: "]"),
            let k = Int(path[path.index(path.startIndex, offsetBy: 9)..<close])
        else { return error }
        return MeshError(error.kind, path: edit(k) + path[path.index(after: close)...], error.message)
    }

    static func renamed(_ error: Error, to path: String, prefix: String? = nil) -> MeshError {
        guard let error = error as? MeshError else { return MeshError(.invalidValue, path: path, "\(error)") }
        if let prefix, error.path.hasPrefix(prefix) {
            return MeshError(error.kind, path: path + error.path.dropFirst(prefix.count), error.message)
        }
        return MeshError(error.kind, path: path, error.message)
    }
}

extension RequestBody {
    /// A body made of already split members (an element of `edits`).
    init(members: [String: ArraySlice<UInt8>]) {
        self.members = members
    }
}
