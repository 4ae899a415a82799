import Foundation
import MeshTessellate
import SurfaceKit
import Testing

// Binary glTF and PLY export, read back by hand here: the GLB container (header, chunks, padding),
// its JSON through Foundation, and the binary values byte by byte.

@Suite struct ExportTests {
    /// Two triangles with awkward numbers (not representable as Float) and a non-trivial order.
    static let smallMesh = TriangleMesh(
        space: .points,
        positions: [Point3D(0.1, -2.5, 3), Point3D(10.3, 0.7, -1e-3), Point3D(-4, 5.25, 0.2), Point3D(1, 1, 1)],
        from: [LayerPoint(0, 0), LayerPoint(1, 0), LayerPoint(0.3, 0.9), LayerPoint(1, 1)],
        normals: [Point3D(0, 0, 1), Point3D(0.6, 0, 0.8), Point3D(0, -0.8, 0.6), Point3D(1, 0, 0)],
        triangles: [SIMD3(0, 1, 2), SIMD3(2, 1, 3)],
        sourceFaces: [0, 0])

    /// A 2 × 2 identity grid at steps 1 in unit space: the identity stays the identity, so every
    /// position is (from, 0) with normal (0, 0, 1), and the grid has (2·2 + 1)² vertices and
    /// 4 faces × 4 sub-quads × 2 triangles.
    static func identityTessellation() throws -> TriangleMesh {
        let mesh = try MeshTransform.identity(rows: 2, columns: 2)
        let document = MeshDocument(mesh: mesh)
        let options = TessellationOptions(steps: .fixed(1), diagonal: .first)
        return try Tessellator.tessellate(document, options: options, space: .unit)
    }

    // MARK: GLB

    @Test func glbContainerHasHeaderAndPaddedChunks() throws {
        let glb = try Self.smallMesh.glbBytes()
        let file = try GLBFile(glb)
        #expect(file.version == 2)
        #expect(file.totalLength == glb.count)
        #expect(file.jsonLength % 4 == 0)
        #expect(file.binary.count % 4 == 0)
        // The JSON chunk is padded with spaces only.
        let text = String(decoding: file.jsonBytes, as: UTF8.self)
        #expect(text.trimmingCharacters(in: .whitespaces).hasSuffix("}"))
        #expect(file.json["buffers"].array?.first?["byteLength"].int == file.binary.count)
    }

    @Test func glbAccessorsHoldTheMeshAsFloats() throws {
        let mesh = Self.smallMesh
        let file = try GLBFile(try mesh.glbBytes())
        let primitive = try #require(file.json["meshes"].array?.first?["primitives"].array?.first)
        let position = try file.accessor(primitive["attributes"]["POSITION"].int)
        let normal = try file.accessor(primitive["attributes"]["NORMAL"].int)
        let texcoord = try file.accessor(primitive["attributes"]["TEXCOORD_0"].int)
        let indices = try file.accessor(primitive["indices"].int)

        #expect(position.count == 4 && position.type == "VEC3" && position.componentType == 5126)
        #expect(texcoord.type == "VEC2" && indices.componentType == 5125 && indices.count == 6)
        for i in 0..<4 {
            for k in 0..<3 {
                #expect(position.floats[3 * i + k] == Float(mesh.positions[i][k]))
                #expect(normal.floats[3 * i + k] == Float(mesh.normals[i][k]))
            }
            // glTF's UV origin is the image's top-left, like the layer: u = from.x, v = from.y.
            #expect(texcoord.floats[2 * i] == Float(mesh.from[i].x))
            #expect(texcoord.floats[2 * i + 1] == Float(mesh.from[i].y))
        }
        #expect(indices.uints == [0, 1, 2, 2, 1, 3])
        // Min and max are the extremes of the stored Floats, lane by lane.
        #expect(position.min == [Float(-4), Float(-2.5), Float(-1e-3)])
        #expect(position.max == [Float(10.3), Float(5.25), Float(3)])
        #expect(texcoord.min == [0, 0] && texcoord.max == [1, 1])
        #expect(normal.min == [0, -0.8, 0] && normal.max == [1, 0, 1])
        #expect(indices.min == [0] && indices.max == [3])
    }

    @Test func glbOfAnIdentityGridIsTheFlatLayer() throws {
        let mesh = try Self.identityTessellation()
        let file = try GLBFile(try mesh.glbBytes())
        let primitive = try #require(file.json["meshes"].array?.first?["primitives"].array?.first)
        let position = try file.accessor(primitive["attributes"]["POSITION"].int)
        let normal = try file.accessor(primitive["attributes"]["NORMAL"].int)
        let texcoord = try file.accessor(primitive["attributes"]["TEXCOORD_0"].int)
        let indices = try file.accessor(primitive["indices"].int)
        #expect(position.count == 25)
        #expect(indices.count == 3 * 32)
        #expect(position.min == [0, 0, 0] && position.max == [1, 1, 0])
        #expect(normal.min == [0, 0, 1] && normal.max == [0, 0, 1])
        #expect(texcoord.min == [0, 0] && texcoord.max == [1, 1])
        // Each vertex is at its texture coordinate: the identity maps the layer to itself.
        for i in 0..<25 {
            #expect(abs(position.floats[3 * i] - texcoord.floats[2 * i]) < 1e-6)
            #expect(abs(position.floats[3 * i + 1] - texcoord.floats[2 * i + 1]) < 1e-6)
        }
        // Every index names a vertex; the material is double-sided; the node flips y for y-up viewers.
        #expect(indices.uints.allSatisfy { $0 < 25 })
        #expect(file.json["materials"].array?.first?["doubleSided"].bool == true)
        #expect(file.json["nodes"].array?.first?["scale"].doubles == [1, -1, 1])
    }

    @Test func glbEmbedsTheTextureBytesAsAnImage() throws {
        // A PNG signature followed by bytes that are not a whole number of words: the image is
        // stored as given (never decoded) and padded with zeros.
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3, 4, 5]
        let texture = try #require(GLBTexture(bytes: png))
        #expect(texture.mimeType == "image/png")
        let file = try GLBFile(try Self.smallMesh.glbBytes(texture: texture))
        let image = try #require(file.json["images"].array?.first)
        #expect(image["mimeType"].string == "image/png")
        let view = try #require(file.json["bufferViews"].array?[image["bufferView"].int])
        let offset = view["byteOffset"].int, length = view["byteLength"].int
        #expect(length == png.count)
        #expect(offset % 4 == 0)
        #expect(Array(file.binary[offset..<offset + length]) == png)
        #expect(file.binary[(offset + length)...].allSatisfy { $0 == 0 })
        let material = try #require(file.json["materials"].array?.first)
        #expect(material["pbrMetallicRoughness"]["baseColorTexture"]["index"].int == 0)
        #expect(file.json["textures"].array?.first?["source"].int == 0)
    }

    @Test func onlyPNGAndJPEGAreTextures() {
        #expect(GLBTexture(bytes: [0xFF, 0xD8, 0xFF, 0xE0])?.mimeType == "image/jpeg")
        #expect(GLBTexture(bytes: Array("{\"vertices\": []}".utf8)) == nil)
        #expect(GLBTexture(bytes: []) == nil)
    }

    @Test func glbOfAnEmptyMeshIsAValidEmptyScene() throws {
        let empty = TriangleMesh(space: .unit, positions: [], from: [], normals: [], triangles: [], sourceFaces: [])
        let file = try GLBFile(try empty.glbBytes())
        #expect(file.json["meshes"].array == nil)
        #expect(file.json["accessors"].array == nil)
        #expect(file.binary.isEmpty)
    }

    // MARK: PLY

    @Test func plyHoldsVerticesAndFacesAsLittleEndianBinary() throws {
        let mesh = Self.smallMesh
        let ply = mesh.plyBytes()
        let marker = Array("end_header\n".utf8)
        let headerEnd = try #require(ply.indices.first { ply[$0...].starts(with: marker) }) + marker.count
        let header = String(decoding: ply[..<headerEnd], as: UTF8.self)
        #expect(header.hasPrefix("ply\nformat binary_little_endian 1.0\n"))
        #expect(header.contains("element vertex 4\n"))
        #expect(header.contains("element face 2\n"))
        #expect(header.contains("property list uchar int vertex_indices\n"))
        var reader = ByteReader(bytes: Array(ply[headerEnd...]))
        for i in 0..<4 {
            for k in 0..<3 { #expect(reader.float() == Float(mesh.positions[i][k])) }
            for k in 0..<3 { #expect(reader.float() == Float(mesh.normals[i][k])) }
            #expect(reader.float() == Float(mesh.from[i].x))
            // v points up in PLY, as in OBJ.
            #expect(reader.float() == Float(1 - mesh.from[i].y))
        }
        for t in mesh.triangles {
            #expect(reader.byte() == 3)
            for k in 0..<3 { #expect(reader.uint32() == UInt32(t[k])) }
        }
        #expect(reader.isAtEnd)
    }
}

// MARK: - Reading the files back

/// A little-endian reader over bytes; reading past the end gives zeros and `overrun`.
struct ByteReader {
    var bytes: [UInt8]
    var offset = 0
    var overrun = false

    var isAtEnd: Bool { offset == bytes.count && !overrun }

    mutating func byte() -> UInt8 {
        guard offset < bytes.count else {
            overrun = true
            return 0
        }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func uint32() -> UInt32 {
        var value: UInt32 = 0
        for k in 0..<4 { value |= UInt32(byte()) << (8 * UInt32(k)) }
        return value
    }

    mutating func float() -> Float { Float(bitPattern: uint32()) }
}

/// A JSON value from JSONSerialization, with forgiving subscripts for the tests.
struct JSONNode {
    var value: Any?

    subscript(key: String) -> JSONNode { JSONNode(value: (value as? [String: Any])?[key]) }
    var array: [JSONNode]? { (value as? [Any])?.map { JSONNode(value: $0) } }
    var int: Int { (value as? NSNumber)?.intValue ?? -1 }
    var bool: Bool? { (value as? NSNumber)?.boolValue }
    var string: String? { value as? String }
    var doubles: [Double]? { (value as? [Any])?.compactMap { ($0 as? NSNumber)?.doubleValue } }
    var floats: [Float]? { doubles?.map(Float.init) }
}

/// A GLB file split into its parts, checked against the container rules as it is read.
struct GLBFile {
    struct FormatError: Error, CustomStringConvertible {
        var description: String
    }

    var version: UInt32
    var totalLength: Int
    var jsonLength: Int
    var jsonBytes: [UInt8]
    var json: JSONNode
    var binary: [UInt8]

    init(_ bytes: [UInt8]) throws {
        var reader = ByteReader(bytes: bytes)
        guard reader.uint32() == 0x4654_6C67 else { throw FormatError(description: "magic is not glTF") }
        version = reader.uint32()
        totalLength = Int(reader.uint32())
        jsonLength = Int(reader.uint32())
        guard reader.uint32() == 0x4E4F_534A else { throw FormatError(description: "first chunk is not JSON") }
        guard jsonLength <= bytes.count - reader.offset else { throw FormatError(description: "JSON chunk overruns") }
        jsonBytes = Array(bytes[reader.offset..<reader.offset + jsonLength])
        reader.offset += jsonLength
        json = JSONNode(value: try JSONSerialization.jsonObject(with: Data(jsonBytes)))
        let binaryLength = Int(reader.uint32())
        guard reader.uint32() == 0x004E_4942 else { throw FormatError(description: "second chunk is not BIN") }
        guard binaryLength <= bytes.count - reader.offset else { throw FormatError(description: "BIN chunk overruns") }
        binary = Array(bytes[reader.offset..<reader.offset + binaryLength])
        guard reader.offset + binaryLength == bytes.count else { throw FormatError(description: "bytes after the BIN chunk") }
    }

    struct Accessor {
        var count: Int
        var type: String
        var componentType: Int
        var min: [Float]
        var max: [Float]
        var words: [UInt32]
        var floats: [Float] { words.map(Float.init(bitPattern:)) }
        var uints: [UInt32] { words }
    }

    /// The accessor's metadata and its values as 32-bit words, read through its buffer view.
    func accessor(_ index: Int) throws -> Accessor {
        guard let a = json["accessors"].array?[index] else { throw FormatError(description: "no accessor \(index)") }
        guard let view = json["bufferViews"].array?[a["bufferView"].int] else { throw FormatError(description: "no view") }
        let lanes = ["SCALAR": 1, "VEC2": 2, "VEC3": 3][a["type"].string ?? ""] ?? 0
        let count = a["count"].int
        let offset = view["byteOffset"].int + max(0, a["byteOffset"].int)
        guard view["byteLength"].int == count * lanes * 4, offset + count * lanes * 4 <= binary.count else {
            throw FormatError(description: "view length does not match accessor \(index)")
        }
        var reader = ByteReader(bytes: Array(binary[offset..<offset + count * lanes * 4]))
        let words = (0..<count * lanes).map { _ in reader.uint32() }
        return Accessor(
            count: count, type: a["type"].string ?? "", componentType: a["componentType"].int,
            min: a["min"].floats ?? [], max: a["max"].floats ?? [], words: words)
    }
}
