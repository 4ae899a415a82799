import MeshTessellate
import SurfaceKit

/// The triangles of a picture, in pixel coordinates and painter's order: what both the SVG writer
/// and the rasterizer draw.
///
/// Pixel coordinates are screen points × scale, so the picture covers the layer's untransformed
/// bounds (Docs/rendering.md). Each vertex keeps `1/w` of its homogeneous screen point, which makes
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
    /// The layer's lights (`layer.lights`), or `nil` for the single light of ``Light``.
    var lighting: PhongLighting?
    /// With ``lighting``: each vertex's lit position (``LayerGeometry/litPosition(ofPoints:)``)
    /// and unit screen-space normal, interpolated per pixel; empty otherwise.
    var litPosition: [Point3D] = []
    var litNormal: [Point3D] = []
    /// With ``lighting`` and flat shading: each triangle's colour (0…255 per channel) for the
    /// SVG's base colour lit at the triangle's centroid with its plane's normal.
    var flatColour: [SIMD3<Double>] = []
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
        // `--light` (options.light) asks for the single light and so overrides `layer.lights`.
        let lighting = options.light == nil && document.layer.lights != nil ? PhongLighting(layer: document.layer) : nil
        let size = try options.pixelSize(forLayerSize: document.layer.size)
        let geometry = document.geometry
        let points = try Tessellator.tessellate(document, options: options.tessellation, space: .points)
        let sorted = try PainterSorter.sorted(
            mesh: points, geometry: geometry, mode: options.sort ?? defaultSort, space: .points,
            maximumTriangles: options.tessellation.maximumTriangles
        ).mesh
        self.init(
            projecting: sorted, geometry: geometry, light: light, lighting: lighting, scale: options.scale, width: size.width,
            height: size.height, flatShading: flatShading)
        try checkFinite()
    }

    /// Projects a points-space mesh already in draw order.
    init(
        projecting mesh: TriangleMesh, geometry: LayerGeometry, light: Light, lighting: PhongLighting? = nil, scale: Double,
        width: Int, height: Int, flatShading: Bool
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
        if let lighting {
            applyLighting(mesh, geometry: geometry, lighting: lighting, flatShading: flatShading)
        }
        clipToGuardBand()
    }
}

extension RenderScene {
    /// The surface colour the SVG lights (a pale blue-grey, visible on white and on black).
    static let svgBaseColour: SIMD3<Double> = SIMD3(214, 224, 238)

    /// Fills the lit-mode arrays: per vertex the lit position and screen normal (the rasterizer
    /// interpolates both and shades every pixel), per triangle the flat colour for SVG.
    mutating func applyLighting(_ mesh: TriangleMesh, geometry: LayerGeometry, lighting: PhongLighting, flatShading: Bool) {
        self.lighting = lighting
        litPosition = mesh.positions.map { geometry.litPosition(ofPoints: $0) }
        litNormal = mesh.normals.map { geometry.screenNormal(fromPoints: $0) }
        guard flatShading else { return }
        let base = RenderScene.svgBaseColour / 255
        flatColour = mesh.triangles.map { t in
            let a = mesh.positions[Int(t.x)], b = mesh.positions[Int(t.y)], c = mesh.positions[Int(t.z)]
            var n = geometry.transform.transformNormal((b - a).cross(c - a))
            if n == .zero || !(n.x.isFinite && n.y.isFinite && n.z.isFinite) {
                n = geometry.transform.transformNormal(mesh.normals[Int(t.x)] + mesh.normals[Int(t.y)] + mesh.normals[Int(t.z)])
            }
            let centroid = geometry.litPosition(ofPoints: (a + b + c) / 3)
            let lit = lighting.shade(SIMD4(base, 1), at: centroid, normal: n)
            return SIMD3(lit.x, lit.y, lit.z) * 255
        }
    }
}
