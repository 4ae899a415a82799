import SurfaceKit

/// An image to embed in a binary glTF as the layer's content: PNG or JPEG bytes, stored as they are
/// (glTF viewers decode them; nothing is decoded here).
public struct GLBTexture: Hashable, Sendable {
    public var bytes: [UInt8]
    /// `image/png` or `image/jpeg`, from the bytes' signature.
    public var mimeType: String

    /// `nil` unless the bytes start with the PNG or JPEG signature.
    public init?(bytes: [UInt8]) {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF]
        if bytes.starts(with: png) {
            mimeType = "image/png"
        } else if bytes.starts(with: jpeg) {
            mimeType = "image/jpeg"
        } else {
            return nil
        }
        self.bytes = bytes
    }
}

public extension TriangleMesh {
    /// The mesh as binary glTF 2.0 (a `.glb` file): one mesh of indexed triangles with `POSITION`
    /// and `NORMAL` (in ``space``, as 32-bit floats), `TEXCOORD_0` = (from.x, from.y) and
    /// `UNSIGNED_INT` indices in draw order, and a double-sided material that shows `texture` (the
    /// layer's content) when one is given.
    ///
    /// glTF's texture origin is the image's top-left corner with v pointing down, as the layer's
    /// unit coordinates, so `from` is the texture coordinate unchanged (OBJ flips v; glTF does
    /// not). The mesh's coordinates have y pointing down; glTF viewers draw y up, so the mesh's node
    /// carries the scale (1, −1, 1) and a viewer shows the layer upright, seen from +z. The
    /// accessors hold the coordinates exactly as ``positions`` has them (rounded to Float).
    ///
    /// Throws `.limitExceeded` when the file would not fit glTF's 32-bit lengths (about 4 GiB).
    ///
    /// With `layer` whose ``LayerProperties/lights`` is set, the file also carries the lights
    /// (KHR_lights_punctual, in a screen-space mesh only) and the material as far as glTF allows
    /// (see the rendering documentation for what cannot be carried). Without, nothing changes.
    func glbBytes(texture: GLBTexture? = nil, layer: LayerProperties? = nil) throws -> [UInt8] {
        let layout = GLBLayout(vertexCount: vertexCount, triangleCount: triangleCount, imageBytes: texture?.bytes.count ?? 0)
        let lighting = GLBLighting(layer: layer, space: space, hasTexture: texture != nil)
        let json = glbJSON(layout: layout, texture: texture, lighting: lighting)
        let jsonLength = GLBLayout.padded(json.count)
        let total = 12 + 8 + jsonLength + 8 + layout.binaryLength
        guard total <= Int(UInt32.max) else {
            throw MeshError(
                .limitExceeded, path: "",
                "a glTF binary of \(vertexCount) vertices and \(triangleCount) triangles would need \(total) bytes, over glTF's 4 GiB")
        }
        var out = [UInt8]()
        out.reserveCapacity(total)
        // Header: magic "glTF", version 2, total length.
        out.appendLittleEndian(UInt32(0x4654_6C67))
        out.appendLittleEndian(UInt32(2))
        out.appendLittleEndian(UInt32(total))
        // JSON chunk, padded with spaces.
        out.appendLittleEndian(UInt32(jsonLength))
        out.appendLittleEndian(UInt32(0x4E4F_534A))
        out.append(contentsOf: json)
        out.append(contentsOf: repeatElement(0x20, count: jsonLength - json.count))
        // BIN chunk, each view 4-byte aligned, padded with zeros.
        out.appendLittleEndian(UInt32(layout.binaryLength))
        out.appendLittleEndian(UInt32(0x004E_4942))
        if vertexCount > 0, triangleCount > 0 {
            for p in positions { out.appendFloats(p.x, p.y, p.z) }
            for n in normals { out.appendFloats(n.x, n.y, n.z) }
            for t in from { out.appendFloats(t.x, t.y) }
            for t in triangles {
                for k in 0..<3 { out.appendLittleEndian(UInt32(truncatingIfNeeded: t[k])) }
            }
        }
        if let texture {
            out.append(contentsOf: texture.bytes)
            out.append(contentsOf: repeatElement(0, count: GLBLayout.padded(texture.bytes.count) - texture.bytes.count))
        }
        return out
    }
}

/// Where each part of the BIN chunk goes. Positions, normals, texture coordinates and indices are
/// all multiples of 4 bytes long, so only the image needs padding.
struct GLBLayout {
    var vertexCount: Int
    var triangleCount: Int
    var imageBytes: Int

    /// Geometry is written only when there is something to draw: glTF accessors need count ≥ 1.
    var hasGeometry: Bool { vertexCount > 0 && triangleCount > 0 }
    var positionOffset: Int { 0 }
    var normalOffset: Int { hasGeometry ? vertexCount * 12 : 0 }
    var texcoordOffset: Int { normalOffset * 2 }
    var indexOffset: Int { texcoordOffset + (hasGeometry ? vertexCount * 8 : 0) }
    var imageOffset: Int { indexOffset + (hasGeometry ? triangleCount * 12 : 0) }
    var binaryLength: Int { imageOffset + GLBLayout.padded(imageBytes) }

    static func padded(_ n: Int) -> Int { (n + 3) & ~3 }
}

extension TriangleMesh {
    /// The JSON chunk. Min and max are taken over the Float values written, as glTF requires.
    func glbJSON(layout: GLBLayout, texture: GLBTexture?, lighting: GLBLighting? = nil) -> [UInt8] {
        var views: [String] = []
        var accessors: [String] = []
        var attributes = ""
        var indices = ""
        if layout.hasGeometry {
            let p = Self.floatBounds(positions.count, lanes: 3) { positions[$0][$1] }
            let n = Self.floatBounds(normals.count, lanes: 3) { normals[$0][$1] }
            let t = Self.floatBounds(from.count, lanes: 2) { from[$0][$1] }
            views.append(Self.view(layout.positionOffset, vertexCount * 12, target: 34962))
            views.append(Self.view(layout.normalOffset, vertexCount * 12, target: 34962))
            views.append(Self.view(layout.texcoordOffset, vertexCount * 8, target: 34962))
            views.append(Self.view(layout.indexOffset, triangleCount * 12, target: 34963))
            accessors.append(Self.accessor(view: 0, componentType: 5126, count: vertexCount, type: "VEC3", bounds: p))
            accessors.append(Self.accessor(view: 1, componentType: 5126, count: vertexCount, type: "VEC3", bounds: n))
            accessors.append(Self.accessor(view: 2, componentType: 5126, count: vertexCount, type: "VEC2", bounds: t))
            let maxIndex = triangles.reduce(Int32(0)) { Swift.max($0, $1.max()) }
            accessors.append(
                Self.accessor(view: 3, componentType: 5125, count: triangleCount * 3, type: "SCALAR", bounds: ([0], [Double(maxIndex)])))
            attributes = #"{"POSITION":0,"NORMAL":1,"TEXCOORD_0":2}"#
            indices = #","indices":3"#
        }
        var json = #"{"asset":{"version":"2.0","generator":"meshgeo"},"#
        if let lighting, !lighting.extensionsUsed.isEmpty {
            json += #""extensionsUsed":[\#(lighting.extensionsUsed.map { "\"\($0)\"" }.joined(separator: ","))],"#
            json += lighting.rootExtensions
        }
        let lightNodes = layout.hasGeometry ? lighting?.nodes ?? [] : []
        if layout.hasGeometry {
            let sceneNodes = (0...lightNodes.count).map(String.init).joined(separator: ",")
            json += #""scene":0,"scenes":[{"nodes":[\#(sceneNodes)]}],"#
            let meshNode = #"{"mesh":0,"scale":[1,-1,1],"name":"\#(space.rawValue) space"}"#
            json += #""nodes":[\#(([meshNode] + lightNodes).joined(separator: ","))],"#
            json += #""meshes":[{"primitives":[{"attributes":\#(attributes)\#(indices),"mode":4,"material":0}]}],"#
        } else {
            json += #""scene":0,"scenes":[{}],"#
        }
        var material = #"{"name":"layer","doubleSided":true\#(lighting?.material ?? ""),"pbrMetallicRoughness":{"metallicFactor":0"#
        material += #","roughnessFactor":\#(Self.jsonNumber(lighting?.roughness ?? 1))\#(lighting?.pbr ?? "")"#
        if let texture {
            views.append(Self.view(layout.imageOffset, texture.bytes.count, target: nil))
            json += #""images":[{"bufferView":\#(views.count - 1),"mimeType":"\#(texture.mimeType)"}],"#
            // Clamp to the layer's edges (33071); linear filtering (9729) with linear mipmaps (9987).
            json += #""samplers":[{"magFilter":9729,"minFilter":9987,"wrapS":33071,"wrapT":33071}],"#
            json += #""textures":[{"sampler":0,"source":0}],"#
            material += #","baseColorTexture":{"index":0}"#
        }
        material += "}}"
        json += #""materials":[\#(material)],"#
        if !accessors.isEmpty {
            json += #""accessors":[\#(accessors.joined(separator: ","))],"#
        }
        if !views.isEmpty {
            json += #""bufferViews":[\#(views.joined(separator: ","))],"#
        }
        json += #""buffers":[{"byteLength":\#(layout.binaryLength)}]}"#
        return Array(json.utf8)
    }

    static func view(_ offset: Int, _ length: Int, target: Int?) -> String {
        let target = target.map { #","target":\#($0)"# } ?? ""
        return #"{"buffer":0,"byteOffset":\#(offset),"byteLength":\#(length)\#(target)}"#
    }

    static func accessor(view: Int, componentType: Int, count: Int, type: String, bounds: ([Double], [Double])) -> String {
        let lo = bounds.0.map(Self.jsonNumber).joined(separator: ",")
        let hi = bounds.1.map(Self.jsonNumber).joined(separator: ",")
        let head = #"{"bufferView":\#(view),"componentType":\#(componentType),"count":\#(count),"type":"\#(type)""#
        return head + #","min":[\#(lo)],"max":[\#(hi)]}"#
    }

    /// A Float's value as JSON: the shortest text that reads back to the same Float, so a reader's
    /// min and max equal the stored extremes exactly.
    static func jsonNumber(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let f = Float(value)
        if f == f.rounded(), abs(f) < 1e7 { return String(Int(f)) }
        return "\(f)"
    }

    /// Per-lane min and max of the values rounded to Float (non-finite values are skipped, so the
    /// JSON stays valid).
    static func floatBounds(_ count: Int, lanes: Int, _ value: (Int, Int) -> Double) -> ([Double], [Double]) {
        var lo = [Double](repeating: .infinity, count: lanes)
        var hi = [Double](repeating: -.infinity, count: lanes)
        for i in 0..<count {
            for k in 0..<lanes {
                let f = Double(Float(value(i, k)))
                guard f.isFinite else { continue }
                lo[k] = Swift.min(lo[k], f)
                hi[k] = Swift.max(hi[k], f)
            }
        }
        for k in 0..<lanes where lo[k] > hi[k] {
            lo[k] = 0
            hi[k] = 0
        }
        return (lo, hi)
    }
}

extension [UInt8] {
    mutating func appendLittleEndian(_ value: UInt32) {
        append(UInt8(truncatingIfNeeded: value))
        append(UInt8(truncatingIfNeeded: value >> 8))
        append(UInt8(truncatingIfNeeded: value >> 16))
        append(UInt8(truncatingIfNeeded: value >> 24))
    }

    mutating func appendFloats(_ a: Double, _ b: Double) {
        appendLittleEndian(Float(a).bitPattern)
        appendLittleEndian(Float(b).bitPattern)
    }

    mutating func appendFloats(_ a: Double, _ b: Double, _ c: Double) {
        appendFloats(a, b)
        appendLittleEndian(Float(c).bitPattern)
    }
}
