import TestSupport
import Testing

@testable import SurfaceKit

/// Tests of the strict mesh.json reader and writer (Docs/mesh-json.md).
@Suite struct JSONTests {
    // MARK: Fixtures

    /// A 2 × 2-face grid: vertex (i, j) is number 3i + j at from = (j/2, i/2); faces run
    /// top-left, top-right, bottom-right, bottom-left.
    static let gridVertices = (0..<3).flatMap { i in
        (0..<3).map { j in
            let x = Double(j) / 2, y = Double(i) / 2
            return "{\"from\": [\(x), \(y)], \"to\": [\(x), \(y), 0]}"
        }
    }
    static let gridFaces = [
        "{\"indices\": [0, 1, 4, 3]}", "{\"indices\": [1, 2, 5, 4]}",
        "{\"indices\": [3, 4, 7, 6]}", "{\"indices\": [4, 5, 8, 7]}",
    ]

    /// mesh.json for the grid, with vertices, faces and extra top-level members replaceable.
    static func gridJSON(
        vertices: [String] = gridVertices, faces: [String] = gridFaces, extra: String = ""
    ) -> String {
        "{\"vertices\": [\(vertices.joined(separator: ", "))], \"faces\": [\(faces.joined(separator: ", "))]\(extra)}"
    }

    /// The grid with face `f` replaced.
    static func gridJSON(face f: Int, _ text: String) -> String {
        var faces = gridFaces
        faces[f] = text
        return gridJSON(faces: faces)
    }

    /// The grid with vertex `v` replaced.
    static func gridJSON(vertex v: Int, _ text: String) -> String {
        var vertices = gridVertices
        vertices[v] = text
        return gridJSON(vertices: vertices)
    }

    /// A mesh of unconnected-or-not quads over `vertexCount` identity vertices, for topology cases.
    static func quadsJSON(vertexCount: Int, faces: [[Int]]) -> String {
        let vertices = (0..<vertexCount).map { "{\"from\": [\($0), 0], \"to\": [\($0), 0, 0]}" }
        let faceText = faces.map { "{\"indices\": [\($0.map(String.init).joined(separator: ", "))]}" }
        return gridJSON(vertices: vertices, faces: faceText)
    }

    /// The thrown ``MeshError``, or `nil` (recorded as an issue) when decoding succeeds or throws
    /// something else.
    static func decodingError(
        _ json: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> MeshError? {
        decodingError(bytes: Array(json.utf8), sourceLocation: sourceLocation)
    }

    static func decodingError(
        bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation
    ) -> MeshError? {
        do {
            _ = try MeshDocument(json: bytes)
            Issue.record("decoding succeeded but should have failed", sourceLocation: sourceLocation)
        } catch let error as MeshError {
            return error
        } catch {
            Issue.record("threw \(error), not a MeshError", sourceLocation: sourceLocation)
        }
        return nil
    }

    // MARK: Round trip and format

    @Test func roundTripKeepsEveryNumberLayerAndWeight() throws {
        var vertices = (0..<9).map { v in
            MeshVertex(from: LayerPoint(Double(v % 3) / 3, Double(v / 3) / 3), to: Point3D(0.1 * Double(v), 1 / 7, 0))
        }
        // Values whose text is awkward: negative zero, a subnormal, huge, not short in decimal.
        vertices[0].to = Point3D(-0.0, .leastNonzeroMagnitude, 1e300)
        vertices[4].to = Point3D(0.1 + 0.2, -1 / 3, 123_456_789_012_345_680)
        vertices[8].from = LayerPoint(9_007_199_254_740_994, -2.5e-8)
        let faces = [
            MeshFace(0, 1, 4, 3),
            MeshFace(1, 2, 5, 4, weights: SIMD4(2, 0.5, 1e-300, 3.0000000000000004)),
            MeshFace(3, 4, 7, 6),
            MeshFace(4, 5, 8, 7, weights: SIMD4(1, 1, 1, 7)),
        ]
        let mesh = try MeshTransform(
            vertices: vertices, faces: faces, depthNormalization: .average, subdivisionSteps: .fixed(3))
        let layer = LayerProperties(
            size: SIMD2(320, 480.5), anchor: LayerPoint(0.25, -0.75),
            transform: Transform3D.rotation(angle: 0.3, axis: SIMD3(1, 2, 3))
                .concatenating(.perspective(eyeDistance: 500)),
            light: Light(direction: Point3D(1, -2, 3), diffuse: 0.7))
        let document = MeshDocument(mesh: mesh, layer: layer)

        let text = document.jsonString()
        let decoded = try MeshDocument(jsonString: text)
        #expect(decoded == document)
        // `==` treats -0 and 0 alike; the sign must survive too.
        #expect(decoded.mesh.vertices[0].to.x.sign == .minus)
        #expect(decoded.layer.transform.elements == layer.transform.elements)
        // Writing is deterministic, so a second round gives the same bytes.
        #expect(decoded.jsonBytes() == document.jsonBytes())
        // `w` only where a weight differs from 1.
        #expect(text.contains("{\"indices\": [0, 1, 4, 3]}"))
        #expect(text.contains("{\"indices\": [4, 5, 8, 7], \"w\": [1, 1, 1, 7]}"))
    }

    /// The benchmarks' ripple (Docs/performance.md; 100 × 100 faces): a document of realistic size survives the trip.
    @Test func rippleGridRoundTrips() throws {
        let n = 100
        var vertices: [MeshVertex] = []
        for i in 0...n {
            for j in 0...n {
                let x = Double(j) / Double(n), y = Double(i) / Double(n)
                let r = ((x - 0.5) * (x - 0.5) + (y - 0.5) * (y - 0.5)).squareRoot()
                vertices.append(MeshVertex(from: LayerPoint(x, y), to: Point3D(x, y, 0.05 * sin8πr(r))))
            }
        }
        var faces: [MeshFace] = []
        for i in 0..<n {
            for j in 0..<n {
                let v = i * (n + 1) + j
                faces.append(MeshFace(v, v + 1, v + n + 2, v + n + 1))
            }
        }
        let document = MeshDocument(mesh: try MeshTransform(vertices: vertices, faces: faces))
        let bytes = document.jsonBytes()
        #expect(try MeshDocument(json: bytes) == document)
        // One line per vertex and face, plus the fixed lines of the layout.
        #expect(bytes.filter { $0 == UInt8(ascii: "\n") }.count == vertices.count + faces.count + 14)
    }

    /// sin(2π·4·r) without Foundation: a Taylor series after reducing to [−π, π] is plenty here.
    func sin8πr(_ r: Double) -> Double {
        var x = 8 * Double.pi * r
        x -= (x / (2 * Double.pi)).rounded() * 2 * Double.pi
        var term = x, sum = x
        for k in 1..<12 {
            term *= -x * x / Double((2 * k) * (2 * k + 1))
            sum += term
        }
        return sum
    }

    @Test func writerFormatIsOneVertexOrFacePerLineInDesignKeyOrder() throws {
        let mesh = try MeshTransform(
            vertices: [
                MeshVertex(identityAt: LayerPoint(0, 0)), MeshVertex(identityAt: LayerPoint(1, 0)),
                MeshVertex(identityAt: LayerPoint(1, 1)), MeshVertex(identityAt: LayerPoint(0, 1)),
            ],
            faces: [MeshFace(0, 1, 2, 3)])
        let expected = """
            {
              "vertices": [
                {"from": [0, 0], "to": [0, 0, 0]},
                {"from": [1, 0], "to": [1, 0, 0]},
                {"from": [1, 1], "to": [1, 1, 0]},
                {"from": [0, 1], "to": [0, 1, 0]}
              ],
              "faces": [
                {"indices": [0, 1, 2, 3]}
              ],
              "depthNormalization": "none",
              "subdivisionSteps": -1,
              "layer": {
                "size": [1, 1],
                "anchor": [0.5, 0.5],
                "transform": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
                "light": {"direction": [0, 0, 1], "diffuse": 1}
              }
            }

            """
        #expect(MeshDocument(mesh: mesh).jsonString() == expected)
    }

    @Test func emptyMeshIsValidAndRoundTrips() throws {
        let document = try MeshDocument(jsonString: #"{"vertices": [], "faces": []}"#)
        #expect(document.mesh.vertices.isEmpty)
        #expect(document.mesh.faces.isEmpty)
        #expect(try MeshDocument(jsonString: document.jsonString()) == document)
        #expect(document.jsonString().contains("\"vertices\": [],\n  \"faces\": [],\n"))
    }

    @Test func missingOptionalKeysTakeTheDesignDefaults() throws {
        let document = try MeshDocument(jsonString: Self.gridJSON())
        #expect(document.mesh.depthNormalization == .none)
        #expect(document.mesh.subdivisionSteps == .automatic)
        #expect(document.mesh.faces.allSatisfy { $0.weights == SIMD4(1, 1, 1, 1) })
        #expect(document.layer.size == SIMD2(1, 1))
        #expect(document.layer.anchor == LayerPoint(0.5, 0.5))
        #expect(document.layer.transform.elements == [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
        #expect(document.layer.light.direction == Point3D(0, 0, 1))
        #expect(document.layer.light.diffuse == 1)
        #expect(document.mesh.vertices[5].from == LayerPoint(1, 0.5))
        #expect(document.mesh.vertices[5].to == Point3D(1, 0.5, 0))
        #expect(document.mesh.faces[1].indices == SIMD4(1, 2, 5, 4))

        // Each layer key is optional on its own.
        let partial = try MeshDocument(
            jsonString: Self.gridJSON(
                extra: #", "layer": {"size": [100, 200], "light": {"diffuse": 0.25}}, "subdivisionSteps": 2"#))
        #expect(partial.layer.size == SIMD2(100, 200))
        #expect(partial.layer.anchor == LayerPoint(0.5, 0.5))
        #expect(partial.layer.transform == .identity)
        #expect(partial.layer.light.direction == Point3D(0, 0, 1))
        #expect(partial.layer.light.diffuse == 0.25)
        #expect(partial.mesh.subdivisionSteps == .fixed(2))
        let emptyLayer = try MeshDocument(jsonString: Self.gridJSON(extra: #", "layer": {"light": {}}"#))
        #expect(emptyLayer.layer == LayerProperties())
    }

    @Test func layerTransformIsReadInCATransform3DOrder() throws {
        let elements = (1...16).map(Double.init)
        let json = Self.gridJSON(
            extra: ", \"layer\": {\"transform\": [\(elements.map { "\($0)" }.joined(separator: ", "))]}")
        let transform = try MeshDocument(jsonString: json).layer.transform
        #expect(transform.row1 == SIMD4(1, 2, 3, 4))
        #expect(transform.row3 == SIMD4(9, 10, 11, 12))
        #expect(transform.m34 == 12)
        #expect(transform.row4 == SIMD4(13, 14, 15, 16))
    }

    @Test(arguments: DepthNormalization.allCases)
    func everyDepthNormalizationNameIsRead(_ value: DepthNormalization) throws {
        let json = Self.gridJSON(extra: ", \"depthNormalization\": \"\(value.rawValue)\"")
        #expect(try MeshDocument(jsonString: json).mesh.depthNormalization == value)
    }

    @Test func integralIndicesWrittenWithFractionOrExponentAreAccepted() throws {
        let document = try MeshDocument(jsonString: Self.gridJSON(face: 0, #"{"indices": [0.0, 1e0, 4.00, 30e-1]}"#))
        #expect(document.mesh.faces[0].indices == SIMD4(0, 1, 4, 3))
    }

    @Test func facesSharingOnlyAVertexAreValid() throws {
        let document = try MeshDocument(jsonString: Self.quadsJSON(vertexCount: 7, faces: [[0, 1, 2, 3], [2, 4, 5, 6]]))
        #expect(document.mesh.faces.count == 2)
    }

    @Test func aFiveThousandDigitFiniteNumberIsReadExactly() throws {
        let third = "0." + String(repeating: "3", count: 5000)
        let document = try MeshDocument(
            jsonString: Self.gridJSON(
                vertex: 0, "{\"from\": [0, 0], \"to\": [0, 0, \(third)]}"))
        // 1/3 is not halfway between two Doubles, so the correctly rounded value is 1/3's Double.
        #expect(document.mesh.vertices[0].to.z == 1.0 / 3.0)
    }

    @Test func byteOrderMarkIsSkipped() throws {
        let document = try MeshDocument(json: [0xEF, 0xBB, 0xBF] + Array(#"{"vertices": [], "faces": []}"#.utf8))
        #expect(document.mesh.vertices.isEmpty)
    }

    // MARK: Errors naming their path

    /// A document that must fail with `kind` at exactly `path`, and a message containing `message`.
    struct ErrorCase: Sendable, CustomTestStringConvertible {
        var name: String
        var json: String
        var kind: MeshError.Kind
        var path: String
        var message: String
        var testDescription: String { name }
    }

    static let errorCases: [ErrorCase] = [
        ErrorCase(
            name: "wrong type in a vertex", json: gridJSON(vertex: 3, #"{"from": [0, 0.5], "to": [0, "x", 0]}"#),
            kind: .invalidValue, path: "vertices[3].to[1]", message: "expected a number, found a string"),
        ErrorCase(
            name: "faces not an array", json: #"{"vertices": [], "faces": {}}"#,
            kind: .invalidValue, path: "faces", message: "expected an array of faces, found an object"),
        ErrorCase(
            name: "document not an object", json: "[]",
            kind: .invalidValue, path: "", message: "found an array"),
        ErrorCase(
            name: "null for a number", json: gridJSON(vertex: 0, #"{"from": [null, 0], "to": [0, 0, 0]}"#),
            kind: .invalidValue, path: "vertices[0].from[0]", message: "expected a number, found null"),
        ErrorCase(
            name: "vertex with two coordinates in to", json: gridJSON(vertex: 6, #"{"from": [0, 1], "to": [0, 1]}"#),
            kind: .invalidValue, path: "vertices[6].to", message: "expected an array of 3 numbers, found 2 elements"),
        ErrorCase(
            name: "missing key in a vertex", json: gridJSON(vertex: 2, #"{"from": [1, 0]}"#),
            kind: .invalidValue, path: "vertices[2].to", message: "required key 'to' is missing"),
        ErrorCase(
            name: "missing faces", json: #"{"vertices": []}"#,
            kind: .invalidValue, path: "faces", message: "required key 'faces' is missing"),
        ErrorCase(
            name: "missing indices", json: gridJSON(face: 3, #"{"w": [1, 1, 1, 1]}"#),
            kind: .invalidValue, path: "faces[3].indices", message: "required key 'indices' is missing"),
        ErrorCase(
            name: "unknown top-level key", json: #"{"vertexes": [], "faces": []}"#,
            kind: .unknownKey, path: "vertexes", message: "unknown key 'vertexes'; did you mean 'vertices'?"),
        ErrorCase(
            name: "unknown face key", json: gridJSON(face: 1, #"{"indicies": [1, 2, 5, 4]}"#),
            kind: .unknownKey, path: "faces[1].indicies", message: "unknown key 'indicies'; did you mean 'indices'?"),
        ErrorCase(
            name: "unknown light key", json: gridJSON(extra: #", "layer": {"light": {"difuse": 1}}"#),
            kind: .unknownKey, path: "layer.light.difuse", message: "did you mean 'diffuse'?"),
        ErrorCase(
            name: "unknown key far from every known key", json: gridJSON(extra: #", "colour": "red""#),
            kind: .unknownKey, path: "colour", message: "expected one of 'vertices', 'faces'"),
        ErrorCase(
            name: "NaN literal", json: gridJSON(vertex: 1, #"{"from": [NaN, 0], "to": [0, 0, 0]}"#),
            kind: .invalidValue, path: "vertices[1].from[0]", message: "NaN is not allowed"),
        ErrorCase(
            name: "Infinity literal", json: gridJSON(vertex: 1, #"{"from": [0, 0], "to": [0, 0, -Infinity]}"#),
            kind: .invalidValue, path: "vertices[1].to[2]", message: "-Infinity is not allowed"),
        ErrorCase(
            name: "1e999", json: gridJSON(vertex: 1, #"{"from": [1e999, 0], "to": [0, 0, 0]}"#),
            kind: .invalidValue, path: "vertices[1].from[0]", message: "1e999 is not a finite number"),
        ErrorCase(
            name: "-1e999 in the transform",
            json: gridJSON(extra: #", "layer": {"transform": [1,0,0,0, 0,1,0,0, 0,0,1,-1e999, 0,0,0,1]}"#),
            kind: .invalidValue, path: "layer.transform[11]", message: "-1e999 is not a finite number"),
        ErrorCase(
            name: "non-integral index", json: gridJSON(face: 2, #"{"indices": [3, 1.5, 7, 6]}"#),
            kind: .invalidValue, path: "faces[2].indices[1]", message: "1.5 is not an integer"),
        ErrorCase(
            name: "index out of range", json: gridJSON(face: 3, #"{"indices": [4, 5, 400, 7]}"#),
            kind: .indexOutOfRange, path: "faces[3].indices[2]", message: "400 is out of range (9 vertices)"),
        ErrorCase(
            name: "index equal to the vertex count", json: gridJSON(face: 3, #"{"indices": [4, 5, 8, 9]}"#),
            kind: .indexOutOfRange, path: "faces[3].indices[3]", message: "9 is out of range (9 vertices)"),
        ErrorCase(
            name: "index 1e30", json: gridJSON(face: 0, #"{"indices": [1e30, 1, 4, 3]}"#),
            kind: .indexOutOfRange, path: "faces[0].indices[0]", message: "1e30 is out of range (9 vertices)"),
        ErrorCase(
            name: "index 2^32", json: gridJSON(face: 0, #"{"indices": [0, 4294967297, 4, 3]}"#),
            kind: .indexOutOfRange, path: "faces[0].indices[1]", message: "4294967297 is out of range (9 vertices)"),
        ErrorCase(
            name: "index past 2^64", json: gridJSON(face: 0, #"{"indices": [0, 1, 18446744073709551617, 3]}"#),
            kind: .indexOutOfRange, path: "faces[0].indices[2]", message: "18446744073709551617 is out of range"),
        ErrorCase(
            name: "negative index", json: gridJSON(face: 1, #"{"indices": [1, 2, 5, -1]}"#),
            kind: .indexOutOfRange, path: "faces[1].indices[3]", message: "-1 is out of range (9 vertices)"),
        ErrorCase(
            name: "weight 0", json: gridJSON(face: 0, #"{"indices": [0, 1, 4, 3], "w": [1, 1, 0, 1]}"#),
            kind: .invalidValue, path: "faces[0].w[2]", message: "weight 0 must be finite and greater than 0"),
        ErrorCase(
            name: "weight -1", json: gridJSON(face: 2, #"{"indices": [3, 4, 7, 6], "w": [-1, 1, 1, 1]}"#),
            kind: .invalidValue, path: "faces[2].w[0]", message: "weight -1 must be finite and greater than 0"),
        ErrorCase(
            name: "three weights", json: gridJSON(face: 2, #"{"indices": [3, 4, 7, 6], "w": [1, 1, 1]}"#),
            kind: .invalidValue, path: "faces[2].w", message: "expected an array of 4 weights, found 3 elements"),
        ErrorCase(
            name: "repeated vertex in a face", json: gridJSON(face: 1, #"{"indices": [1, 2, 1, 4]}"#),
            kind: .topology, path: "faces[1].indices[2]", message: "vertex 1 appears twice"),
        ErrorCase(
            name: "subdivisionSteps -2", json: gridJSON(extra: #", "subdivisionSteps": -2"#),
            kind: .invalidValue, path: "subdivisionSteps", message: "-2 is not allowed"),
        ErrorCase(
            name: "subdivisionSteps 1.5", json: gridJSON(extra: #", "subdivisionSteps": 1.5"#),
            kind: .invalidValue, path: "subdivisionSteps", message: "1.5 is not an integer"),
        ErrorCase(
            name: "subdivisionSteps 1e30", json: gridJSON(extra: #", "subdivisionSteps": 1e30"#),
            kind: .invalidValue, path: "subdivisionSteps", message: "1e30 is too large"),
        ErrorCase(
            name: "subdivisionSteps as a string", json: gridJSON(extra: #", "subdivisionSteps": "auto""#),
            kind: .invalidValue, path: "subdivisionSteps", message: "expected a number, found a string"),
        ErrorCase(
            name: "misspelt depthNormalization", json: gridJSON(extra: #", "depthNormalization": "widht""#),
            kind: .invalidValue, path: "depthNormalization",
            message: "unknown depth normalization 'widht'; did you mean 'width'?"),
        ErrorCase(
            name: "unknown depthNormalization", json: gridJSON(extra: #", "depthNormalization": "sideways""#),
            kind: .invalidValue, path: "depthNormalization",
            message: "expected one of none, width, height, min, max, average"),
        ErrorCase(
            name: "layer size 0", json: gridJSON(extra: #", "layer": {"size": [0, 480]}"#),
            kind: .invalidValue, path: "layer.size[0]", message: "0 must be greater than 0"),
        ErrorCase(
            name: "negative layer height", json: gridJSON(extra: #", "layer": {"size": [320, -1]}"#),
            kind: .invalidValue, path: "layer.size[1]", message: "-1 must be greater than 0"),
        ErrorCase(
            name: "transform with 15 numbers",
            json: gridJSON(extra: #", "layer": {"transform": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0]}"#),
            kind: .invalidValue, path: "layer.transform",
            message: "expected an array of 16 numbers (m11, m12, …, m44), found 15 elements"),
        ErrorCase(
            name: "transform entry of the wrong type",
            json: gridJSON(extra: #", "layer": {"transform": [1,0,0,0, 0,true,0,0, 0,0,1,0, 0,0,0,1]}"#),
            kind: .invalidValue, path: "layer.transform[5]", message: "expected a number, found a boolean"),
        ErrorCase(
            name: "diffuse of the wrong type", json: gridJSON(extra: #", "layer": {"light": {"diffuse": "1"}}"#),
            kind: .invalidValue, path: "layer.light.diffuse", message: "expected a number, found a string"),
        ErrorCase(
            name: "anchor not finite", json: gridJSON(extra: #", "layer": {"anchor": [0.5, 2e308]}"#),
            kind: .invalidValue, path: "layer.anchor[1]", message: "2e308 is not a finite number"),
        ErrorCase(
            name: "layer not an object", json: gridJSON(extra: #", "layer": [320, 480]"#),
            kind: .invalidValue, path: "layer", message: "expected a layer object, found an array"),
        ErrorCase(
            name: "duplicate top-level key", json: #"{"vertices": [], "faces": [], "faces": []}"#,
            kind: .syntax, path: "faces", message: "duplicate key 'faces'"),
        ErrorCase(
            name: "duplicate nested key",
            json: gridJSON(extra: #", "layer": {"size": [1, 2], "anchor": [0, 0], "size": [1, 2]}"#),
            kind: .syntax, path: "layer.size", message: "duplicate key 'size'"),
        ErrorCase(
            name: "duplicate key in a vertex",
            json: gridJSON(vertex: 4, #"{"from": [0, 0], "to": [0, 0, 0], "from": [0, 0]}"#),
            kind: .syntax, path: "vertices[4].from", message: "duplicate key 'from'"),
        ErrorCase(
            name: "a 5000-digit number",
            json: gridJSON(vertex: 0, "{\"from\": [0, 0], \"to\": [0, 0, 1\(String(repeating: "0", count: 4999))]}"),
            kind: .invalidValue, path: "vertices[0].to[2]", message: "is not a finite number"),
        ErrorCase(
            name: "a 5000-digit index",
            json: gridJSON(face: 0, "{\"indices\": [0, 1, 4, 3\(String(repeating: "9", count: 4999))]}"),
            kind: .invalidValue, path: "faces[0].indices[3]", message: "is not a finite number"),
        ErrorCase(
            name: "a 5000-digit fractional index",
            json: gridJSON(face: 0, "{\"indices\": [0, 1, 4.\(String(repeating: "0", count: 4998))1, 3]}"),
            kind: .invalidValue, path: "faces[0].indices[2]", message: "is not an integer"),
        ErrorCase(
            name: "truncated file", json: String(gridJSON().prefix(200)),
            kind: .syntax, path: "", message: "unexpected end of input"),
        ErrorCase(
            name: "empty file", json: "",
            kind: .syntax, path: "", message: "line 1, column 1: unexpected end of input; expected a JSON value"),
        ErrorCase(
            name: "100000 nested arrays", json: String(repeating: "[", count: 100_000),
            kind: .syntax, path: "", message: "nesting is deeper than 64 levels"),
        ErrorCase(
            name: "100000 nested objects inside a document",
            json: "{\"vertices\": " + String(repeating: "{\"a\": ", count: 100_000),
            kind: .syntax, path: "", message: "nesting is deeper than 64 levels"),
        ErrorCase(
            name: "trailing comma in an array", json: gridJSON(vertex: 0, #"{"from": [0, 0,], "to": [0, 0, 0]}"#),
            kind: .syntax, path: "", message: "trailing comma before ']'"),
        ErrorCase(
            name: "trailing comma in an object", json: gridJSON(vertex: 0, #"{"from": [0, 0], "to": [0, 0, 0],}"#),
            kind: .syntax, path: "", message: "trailing comma before '}'"),
        ErrorCase(
            name: "text after the document", json: gridJSON() + " x",
            kind: .syntax, path: "", message: "unexpected 'x' after the JSON value"),
        ErrorCase(
            name: "invalid escape", json: #"{"vertices": [], "fa\qces": []}"#,
            kind: .syntax, path: "", message: "invalid escape '\\q'"),
        ErrorCase(
            name: "lone surrogate escape", json: #"{"vertices": [], "faces": [], "\udc00": 1}"#,
            kind: .syntax, path: "", message: "unpaired surrogate"),
        ErrorCase(
            name: "raw control character in a string", json: "{\"vertices\": [], \"fa\tces\": []}",
            kind: .syntax, path: "", message: "control character U+0009 in a string must be escaped"),
        ErrorCase(
            name: "leading zero", json: gridJSON(vertex: 0, #"{"from": [00, 0], "to": [0, 0, 0]}"#),
            kind: .syntax, path: "", message: "leading zeros"),
        ErrorCase(
            name: "plus sign", json: gridJSON(vertex: 0, #"{"from": [+1, 0], "to": [0, 0, 0]}"#),
            kind: .syntax, path: "", message: "may not start with '+'"),
        ErrorCase(
            name: "missing exponent digits", json: gridJSON(vertex: 0, #"{"from": [1e, 0], "to": [0, 0, 0]}"#),
            kind: .syntax, path: "", message: "expected a digit in the exponent"),
        ErrorCase(
            name: "single-quoted key", json: "{'vertices': []}",
            kind: .syntax, path: "", message: "line 1, column 2: unexpected '''; expected a key in double quotes"),
    ]

    @Test(arguments: errorCases)
    func invalidDocumentsFailWithKindAndPath(_ errorCase: ErrorCase) {
        guard let error = Self.decodingError(errorCase.json) else { return }
        #expect(error.kind == errorCase.kind, "\(error)")
        #expect(error.path == errorCase.path, "\(error)")
        #expect(error.message.contains(errorCase.message), "\(error)")
    }

    @Test func syntaxErrorsGiveLineAndColumn() {
        let error = Self.decodingError("{\n  \"vertices\": [NaN]\n}")
        #expect(error?.message == "line 2, column 16: NaN is not allowed (JSON numbers must be finite)")
        // Columns count characters, not bytes: "é" is two bytes but one column.
        let accented = Self.decodingError("{\"é\": 1, \"x\" 2}")
        #expect(accented?.message.hasPrefix("line 1, column 14:") == true)
    }

    @Test func invalidUTF8InAStringIsASyntaxError() {
        let bytes = Array(#"{"vertices": [], "faces": [], "k"#.utf8) + [0xFF] + Array(#"": 1}"#.utf8)
        let error = Self.decodingError(bytes: bytes)
        #expect(error?.kind == .syntax)
        #expect(error?.message.contains("not valid UTF-8") == true)
    }

    @Test func deepNestingThatIsClosedStillThrowsInsteadOfCrashing() {
        let json = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(Self.decodingError(json)?.kind == .syntax)
    }

    @Test func nestingUpToTheLimitIsParsed() throws {
        let json = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try JSONParser.parse(Array(json.utf8)) }
    }

    // MARK: Topology errors

    @Test func edgeUsedByThreeFacesNamesTheThreeFaces() {
        let json = Self.quadsJSON(vertexCount: 8, faces: [[0, 1, 2, 3], [1, 0, 4, 5], [0, 1, 6, 7]])
        let error = Self.decodingError(json)
        #expect(error?.kind == .topology)
        #expect(error?.path == "faces[2]")
        #expect(error?.message.contains("faces 0, 1 and 2") == true, "\(String(describing: error))")
    }

    @Test func facesRunningAlongAnEdgeInTheSameDirectionNameBothFaces() {
        let json = Self.quadsJSON(vertexCount: 6, faces: [[0, 1, 2, 3], [0, 1, 4, 5]])
        let error = Self.decodingError(json)
        #expect(error?.kind == .topology)
        #expect(error?.path == "faces[1]")
        #expect(error?.message.contains("faces 0 and 1") == true, "\(String(describing: error))")
        #expect(error?.message.contains("same direction") == true)
    }

    // MARK: Robustness

    /// Every prefix of a valid document and a few thousand single-byte corruptions must throw or
    /// decode, never trap.
    @Test func truncatedAndCorruptedDocumentsNeverTrap() throws {
        let document = try MeshDocument(
            jsonString: Self.gridJSON(
                extra: #", "layer": {"size": [2, 3], "light": {"direction": [0, 1, 1], "diffuse": 0.5}}"#))
        let bytes = document.jsonBytes()
        for end in 0..<bytes.count - 1 {
            #expect(throws: MeshError.self) { try MeshDocument(json: Array(bytes[..<end])) }
        }
        // The tests' seeded generator keeps the test reproducible.
        var random = SplitMix64(seed: 0x9E37_79B9_7F4A_7C15)
        let replacements = Array("{}[]\",:-+.0123456789eEnNtf \\u\u{00}".utf8) + [0xFF, 0xC3]
        for _ in 0..<3000 {
            let state = random.next()
            let position = Int(state >> 33) % bytes.count
            let replacement = replacements[Int(state >> 17) % replacements.count]
            var corrupted = bytes
            corrupted[position] = replacement
            do {
                _ = try MeshDocument(json: corrupted)
            } catch is MeshError {
                // Expected for most corruptions.
            }
        }
    }

    // MARK: Parts

    @Test func parserKeepsKeyOrderAndNumberText() throws {
        let value = try JSONParser.parse(Array(#"{"b": 1.50, "a": [1e2, -0], "c": "\u00e9\ud83d\ude00\n\/"}"#.utf8))
        guard case .object(let object) = value else {
            Issue.record("expected an object")
            return
        }
        #expect(object.members.map(\.key) == ["b", "a", "c"])
        #expect(object["b"] == .number(JSONNumber(value: 1.5, text: "1.50")))
        #expect(
            object["a"]
                == .array([
                    .number(JSONNumber(value: 100, text: "1e2")), .number(JSONNumber(value: -0.0, text: "-0")),
                ]))
        #expect(object["c"] == .string("é😀\n/"))
    }

    @Test(arguments: [
        ("2", true), ("2.0", true), ("30e-1", true), ("-0", true), ("12.340e2", true), ("1E+2", true),
        ("0.5e1", true), ("1.5", false), ("4.0001", false), ("1e-400", false), ("1.2345e2", false),
        ("-0.5", false), ("123e-2", false), ("4." + String(repeating: "0", count: 5000) + "1", false),
    ])
    func integralityIsJudgedOnTheWrittenNumber(_ text: String, _ integral: Bool) {
        #expect(JSONNumber(value: Double(text) ?? .nan, text: text).isIntegral == integral)
    }

    /// The parser's exact fast path must give the same bits as the general conversion.
    @Test func numbersReadToTheSameBitsAsDoubleFromString() throws {
        var texts = [
            "0", "-0", "0.0", "-0.0e5", "0e999999", "1", "-1", "0.1", "0.3", "1.5", "1e22", "1e23", "-1e-22",
            "9007199254740992", "9007199254740993", "9007199254740995", "18014398509481985",
            "123456789012345678901", "1.7976931348623157e308", "2.2250738585072014e-308", "5e-324",
            "4.9e-324", "2.4703282292062327e-324", "0.000001", "1234567.891", "99999999999999999999e-20",
        ]
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        for _ in 0..<20_000 {
            // Random decimal mantissas of 1 to 20 digits with exponents around the fast-path edge.
            let digits = String(next() >> (next() % 64))
            let point = Int(next() % UInt64(digits.count + 1))
            let mantissa = point == digits.count ? digits : digits.prefix(point) + "." + digits.dropFirst(point)
            let exponent = Int(next() % 61) - 30
            let fixed = mantissa.hasPrefix(".") ? "0" + mantissa : String(mantissa)
            texts.append(fixed + "e\(exponent)")
            texts.append("-" + fixed)
            // And the shortest form of random Doubles, as the writer produces.
            let bits = next()
            let random = Double(bitPattern: bits)
            if random.isFinite { texts.append(random.description) }
        }
        for text in texts {
            guard case .number(let number) = try JSONParser.parse(Array(text.utf8)) else {
                Issue.record("\(text) did not parse as a number")
                continue
            }
            #expect(number.value.bitPattern == Double(text)?.bitPattern, "\(text)")
        }
    }

    @Test func levenshteinDistanceMatchesHandCountedEdits() {
        #expect(KeySuggestion.distance("kitten", "sitting") == 3)
        #expect(KeySuggestion.distance("", "abc") == 3)
        #expect(KeySuggestion.distance("vertexes", "vertices") == 2)
        #expect(KeySuggestion.distance("faces", "faces") == 0)
        #expect(KeySuggestion.nearest(to: "Faces", in: MeshJSONReader.documentKeys) == "faces")
        #expect(KeySuggestion.nearest(to: "xyz", in: MeshJSONReader.documentKeys) == nil)
    }

    @Test func pathsQuoteKeysThatAreNotIdentifiers() {
        let error = Self.decodingError(#"{"vertices": [], "faces": [], "my key\n": 1}"#)
        #expect(error?.kind == .unknownKey)
        #expect(error?.path == #"["my key\n"]"#)
    }
}
