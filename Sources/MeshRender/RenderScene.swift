import MeshTessellate
import SurfaceKit

/// The triangles of a picture, in pixel coordinates and painter's order: what both the SVG writer
/// and the rasterizer draw.
///
/// Pixel coordinates are screen points × scale, so the picture covers the layer's untransformed
/// bounds (design §10). Each vertex keeps `1/w` of its homogeneous screen point, which makes
/// `from/w` and `1/w` linear in screen space: the basis of perspective-correct interpolation.
struct RenderScene {
    var width: Int
    var height: Int
    var x: [Double]
    var y: [Double]
    /// 1/w, w the homogeneous coordinate after the layer transform (1 without perspective).
    var inverseW: [Double]
    /// The layer point (`from`, unit coordinates): the texture coordinate.
    var u: [Double]
    var v: [Double]
    /// The lighting intensity at the vertex, from its limit normal.
    var shade: [Double]
    /// Back to front.
    var triangles: [SIMD3<Int32>]
    /// The lighting intensity of each triangle's own plane (flat shading); empty when not asked for.
    var flatShade: [Double]
}

extension RenderScene {
    /// How far past the picture a vertex may lie before its triangle is clipped in 2D: it keeps
    /// fixed-point edge functions well inside 64 bits whatever the perspective does.
    static let guardBand: Double = 8192

    /// Tessellates, sorts and projects `document` for a picture.
    init(document: MeshDocument, options: RenderOptions, defaultSort: PainterSorter.Mode, flatShading: Bool) throws {
        try document.layer.validate()
        try options.validate()
        let light = options.light ?? document.layer.light
        try light.validateForShading(path: options.light == nil ? "layer.light" : "")
        let size = try options.pixelSize(forLayerSize: document.layer.size)
        let geometry = document.geometry
        let points = try Tessellator.tessellate(document, options: options.tessellation, space: .points)
        let sorted = try PainterSorter.sorted(
            mesh: points, geometry: geometry, mode: options.sort ?? defaultSort, space: .points,
            maximumTriangles: options.tessellation.maximumTriangles
        ).mesh
        self.init(
            projecting: sorted, geometry: geometry, light: light, scale: options.scale, width: size.width, height: size.height,
            flatShading: flatShading)
    }

    /// Projects a points-space mesh already in draw order.
    init(
        projecting mesh: TriangleMesh, geometry: LayerGeometry, light: Light, scale: Double, width: Int, height: Int,
        flatShading: Bool
    ) {
        self.width = width
        self.height = height
        let count = mesh.vertexCount
        let anchor = geometry.anchorInPoints
        let toLight = light.unitDirection, diffuse = light.diffuse
        var x = [Double](repeating: 0, count: count), y = x, inverseW = x, shade = x
        x.withUnsafeMutableBufferPointer { px in
            y.withUnsafeMutableBufferPointer { py in
                inverseW.withUnsafeMutableBufferPointer { pw in
                    shade.withUnsafeMutableBufferPointer { ps in
                        guard let bx = px.baseAddress, let by = py.baseAddress, let bw = pw.baseAddress, let bs = ps.baseAddress
                        else { return }
                        let ox = SharedMutableBuffer(base: bx), oy = SharedMutableBuffer(base: by)
                        let ow = SharedMutableBuffer(base: bw), os = SharedMutableBuffer(base: bs)
                        mesh.positions.withUnsafeBufferPointer { positions in
                            mesh.normals.withUnsafeBufferPointer { normals in
                                parallelChunks(count, minimumChunk: 32_768) { range in
                                    for i in range {
                                        let h = geometry.clipCoordinates(ofPoints: positions[i])
                                        // The sort clipped at w = clipW; cut vertices sit there up to rounding.
                                        let w = Swift.max(h.w, LayerGeometry.clipW)
                                        ox.base[i] = (h.x / w + anchor.x) * scale
                                        oy.base[i] = (h.y / w + anchor.y) * scale
                                        ow.base[i] = 1 / w
                                        os.base[i] = Light.intensity(
                                            normal: geometry.screenNormal(fromPoints: normals[i]), toward: toLight, diffuse: diffuse)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        self.x = x
        self.y = y
        self.inverseW = inverseW
        self.shade = shade
        self.u = mesh.from.map { $0.x }
        self.v = mesh.from.map { $0.y }
        self.triangles = mesh.triangles
        self.flatShade =
            !flatShading
            ? []
            : mesh.triangles.map { t in
                let a = mesh.positions[Int(t.x)], b = mesh.positions[Int(t.y)], c = mesh.positions[Int(t.z)]
                var n = geometry.transform.transformNormal((b - a).cross(c - a))
                if n == .zero || !(n.x.isFinite && n.y.isFinite && n.z.isFinite) {
                    // A degenerate sliver: its vertices' normals still say how the surface faces.
                    n = mesh.normals[Int(t.x)] + mesh.normals[Int(t.y)] + mesh.normals[Int(t.z)]
                    n = geometry.transform.transformNormal(n)
                }
                return Light.intensity(normal: n, toward: toLight, diffuse: diffuse)
            }
        clipToGuardBand()
    }
}
