import MeshTessellate
import SurfaceKit

/// How a mesh transform is drawn (Docs/rendering.md).
public struct RenderOptions: Hashable, Sendable {
    /// Pixels per point: the picture is the layer's bounds, `W·scale × H·scale` pixels (rounded up).
    public var scale: Double
    /// The light; `nil` uses the document's (`layer.lights` when it has them, else `layer.light`).
    /// A light given here replaces `layer.lights` too.
    public var light: Light?
    /// The layer's opacity, 0…1: below 1 the surface is see-through and the draw order shows.
    public var opacity: Double
    /// The draw order; `nil` chooses per output: `exact` for SVG, `depth` for PNG.
    public var sort: PainterSorter.Mode?
    /// SVG only: outline every triangle.
    public var wireframe: Bool
    /// Steps, diagonal policy and triangle budget of the tessellation.
    public var tessellation: TessellationOptions

    /// The longest side a picture may have, in pixels.
    public static let maximumSide = 16_384

    public init(
        scale: Double = 1, light: Light? = nil, opacity: Double = 1, sort: PainterSorter.Mode? = nil,
        wireframe: Bool = false, tessellation: TessellationOptions = TessellationOptions()
    ) {
        self.scale = scale
        self.light = light
        self.opacity = opacity
        self.sort = sort
        self.wireframe = wireframe
        self.tessellation = tessellation
    }
}

public extension RenderOptions {
    /// The picture's size in pixels for a layer of `size` points: each side `size·scale` rounded up
    /// (at least 1). Throws when the scale is not a finite positive number or a side exceeds
    /// ``maximumSide``.
    func pixelSize(forLayerSize size: SIMD2<Double>) throws -> (width: Int, height: Int) {
        guard scale.isFinite, scale > 0 else {
            throw MeshError(.invalidValue, path: "", "the scale \(scale) must be a finite number greater than 0")
        }
        var sides = [0, 0]
        for k in 0..<2 {
            // A hair of slack so that 320 × 0.8 = 256.00000000000003 stays 256 pixels.
            let exact = size[k] * scale
            let side = (exact - 1e-9 * Swift.max(1, exact)).rounded(.up)
            guard side.isFinite, side <= Double(RenderOptions.maximumSide) else {
                throw MeshError(
                    .limitExceeded, path: "layer.size[\(k)]",
                    "\(size[k]) points at scale \(scale) is \(exact) pixels, over the limit of \(RenderOptions.maximumSide)")
            }
            sides[k] = Swift.max(1, Int(side))
        }
        guard sides[0] * sides[1] <= RGBAImage.maximumPixelCount else {
            throw MeshError(
                .limitExceeded, path: "layer.size",
                "\(sides[0]) × \(sides[1]) pixels at scale \(scale) is over the limit of \(RGBAImage.maximumPixelCount) pixels")
        }
        return (sides[0], sides[1])
    }

    /// Checks the options that do not depend on the mesh: opacity in 0…1, a usable light.
    func validate() throws {
        guard opacity.isFinite, opacity >= 0, opacity <= 1 else {
            throw MeshError(.invalidValue, path: "", "the opacity \(opacity) must be between 0 and 1")
        }
        if let light { try light.validateForShading(path: "") }
    }
}
