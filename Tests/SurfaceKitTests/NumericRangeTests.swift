import Testing

@testable import SurfaceKit

/// The numeric range commands apply before any work: each limit accepts its boundary, refuses
/// just past it, and names the path of the number at fault.
@Suite struct NumericRangeTests {
    static func grid() throws -> MeshDocument {
        MeshDocument(mesh: try MeshTransform.identity(rows: 2, columns: 2))
    }

    static func expectRefused(_ document: MeshDocument, path: String, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            try document.checkNumericRange()
            Issue.record("accepted; expected an error at \(path)", sourceLocation: sourceLocation)
        } catch let error as MeshError {
            #expect(error.kind == .invalidValue, sourceLocation: sourceLocation)
            #expect(error.path == path, "\(error)", sourceLocation: sourceLocation)
            #expect(!error.message.contains("\n"), sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func coordinatesAnchorSizeAndTransformAtAndPastTheirLimits() throws {
        let limit = NumericRange.maximumCoordinate
        var document = try Self.grid()
        document.mesh.vertices[4].to = Point3D(limit, -limit, limit)
        document.mesh.vertices[0].from = LayerPoint(-limit, limit)
        document.layer.size = SIMD2(NumericRange.maximumLayerSize, NumericRange.minimumLayerSize)
        document.layer.anchor = LayerPoint(limit, -limit)
        document.layer.transform = try #require(Transform3D(elements: (0..<16).map { $0 % 2 == 0 ? 1e9 : -1e9 }))
        try document.checkNumericRange()

        var past = document
        past.mesh.vertices[4].to.y = -limit.nextUp * 2
        Self.expectRefused(past, path: "vertices[4].to[1]")
        past = document
        past.mesh.vertices[0].from.x = -.greatestFiniteMagnitude
        Self.expectRefused(past, path: "vertices[0].from[0]")
        past = document
        past.layer.size.x = NumericRange.maximumLayerSize * 2
        Self.expectRefused(past, path: "layer.size[0]")
        past = document
        past.layer.size.y = NumericRange.minimumLayerSize / 2
        Self.expectRefused(past, path: "layer.size[1]")
        past = document
        past.layer.anchor.y = 1e10
        Self.expectRefused(past, path: "layer.anchor[1]")
        past = document
        var elements = document.layer.transform.elements
        elements[11] = 1e308
        past.layer.transform = try #require(Transform3D(elements: elements))
        Self.expectRefused(past, path: "layer.transform[11]")
    }

    @Test func weightsByRatioAndMagnitude() throws {
        var document = try Self.grid()
        // A ratio of exactly the limit is accepted, with the whole mesh scaled by 1e-90.
        for f in document.mesh.faces.indices { document.mesh.faces[f].weights = SIMD4(repeating: 1e-90) }
        document.mesh.faces[2].weights[1] = 1e-90 * NumericRange.maximumWeightRatio
        try document.checkNumericRange()

        // One heavy corner: it is the odd one out (the median weight is 1).
        var heavy = try Self.grid()
        heavy.mesh.faces[3].weights[2] = 1e17
        Self.expectRefused(heavy, path: "faces[3].w[2]")
        // One light corner: blamed, not the ones at 1.
        var light = try Self.grid()
        light.mesh.faces[1].weights[0] = 1e-17
        Self.expectRefused(light, path: "faces[1].w[0]")
        // Most weights heavy and one at 1: the one at 1 is the odd one out.
        var mostlyHeavy = try Self.grid()
        for f in mostlyHeavy.mesh.faces.indices { mostlyHeavy.mesh.faces[f].weights = SIMD4(repeating: 1e8) }
        mostlyHeavy.mesh.faces[0].weights[3] = 1
        Self.expectRefused(mostlyHeavy, path: "faces[0].w[3]")
        // The ratio is fine but the weights themselves are out of range.
        var huge = try Self.grid()
        for f in huge.mesh.faces.indices { huge.mesh.faces[f].weights = SIMD4(repeating: 1e101) }
        Self.expectRefused(huge, path: "faces[0].w[0]")
    }

    @Test func theLightDirectionMustPointSomewhere() throws {
        let json = #"""
            {"vertices": [{"from": [0, 0], "to": [0, 0, 0]}, {"from": [1, 0], "to": [1, 0, 0]},
                          {"from": [1, 1], "to": [1, 1, 0]}, {"from": [0, 1], "to": [0, 1, 0]}],
             "faces": [{"indices": [0, 1, 2, 3]}], "layer": {"light": {"direction": [0, -0.0, 0]}}}
            """#
        #expect {
            try MeshDocument(jsonString: json)
        } throws: { error in
            (error as? MeshError)?.path == "layer.light.direction"
        }
        var layer = LayerProperties()
        layer.light.direction = .zero
        #expect(throws: MeshError.self) { try layer.validate() }
    }

    @Test func utf16AndUtf32AreNamed() {
        let text = #"{"vertices": [], "faces": []}"#
        let cases: [([UInt8], String)] = [
            ([0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }, "UTF-16"),
            ([0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }, "UTF-16"),
            (text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }, "UTF-16 (little-endian)"),
            ([0xFF, 0xFE, 0, 0] + text.unicodeScalars.flatMap { [UInt8($0.value), 0, 0, 0] }, "UTF-32"),
        ]
        for (bytes, name) in cases {
            #expect {
                try MeshDocument(json: bytes)
            } throws: { error in
                guard let error = error as? MeshError else { return false }
                return error.kind == .syntax && error.message.contains(name) && error.message.hasPrefix("line 1, column 1: ")
            }
        }
        // UTF-8 with its byte order mark still reads.
        #expect((try? MeshDocument(json: [0xEF, 0xBB, 0xBF] + Array(text.utf8))) != nil)
    }
}
