import MeshTessellate
import SurfaceKit

/// Pictures of a mesh transform (Docs/rendering.md): what an app or `meshgeo render` shows a person.
public enum MeshRenderer {}

public extension MeshRenderer {
    /// The layer's content mapped through the mesh, as Core Animation would show it: an image of
    /// the layer's untransformed bounds (``RenderOptions/pixelSize(forLayerSize:)``), transparent
    /// where no surface is.
    ///
    /// `texture` is stretched over the layer's bounds whatever its own size (a checkerboard when
    /// `nil`). Texture coordinates are interpolated perspective-correctly, edges are anti-aliased
    /// by 16-sample coverage, each vertex is lit by the layer's light (brightness interpolated over
    /// the triangle), and the triangles are composited back to front in the order of
    /// `options.sort` (default `depth`; `exact` is exact but costly on large, self-overlapping meshes).
    ///
    /// Throws ``MeshError`` for an invalid layer or option, a picture over the size limit or a
    /// tessellation over the triangle budget, and ``ImageError`` for an unusable texture.
    static func image(of document: MeshDocument, texture: RGBAImage? = nil, options: RenderOptions = RenderOptions()) throws -> RGBAImage {
        let scene = try RenderScene(document: document, options: options, defaultSort: .depth, flatShading: false)
        let content = try texture ?? RGBAImage.checkerboard(width: scene.width, height: scene.height)
        return Rasterizer(opacity: Float(options.opacity)).render(scene, texture: TextureSampler(content))
    }

    /// An SVG document of the tessellated triangles in draw order (`options.sort`, default `exact`,
    /// the exact order), one `<polygon>` per triangle, flat-shaded by the layer's light, in pixel
    /// coordinates of the layer's bounds at `options.scale`.
    static func svg(of document: MeshDocument, options: RenderOptions = RenderOptions()) throws -> String {
        String(decoding: try svgData(of: document, options: options), as: UTF8.self)
    }

    /// ``svg(of:options:)`` as UTF-8 bytes.
    static func svgData(of document: MeshDocument, options: RenderOptions = RenderOptions()) throws -> [UInt8] {
        let scene = try RenderScene(document: document, options: options, defaultSort: .exact, flatShading: true)
        return SVGWriter(opacity: options.opacity, wireframe: options.wireframe).write(scene)
    }
}
