/// A directional light fixed in screen space, as BCMeshTransformView's: intensity
/// `(1 − diffuse) + diffuse · |n · l̂|`.
public struct Light: Hashable, Sendable {
    /// Direction toward the light; need not be normalized.
    public var direction: Point3D
    /// How much the diffuse term counts: 1 is pure diffuse, 0 ambient only.
    public var diffuse: Double

    public init(direction: Point3D = Point3D(0, 0, 1), diffuse: Double = 1) {
        self.direction = direction
        self.diffuse = diffuse
    }
}

/// What a mesh transform needs to know of the layer it is applied to.
public struct LayerProperties: Hashable, Sendable {
    /// The layer's bounds size in points (W, H).
    public var size: SIMD2<Double>
    /// The anchor point in unit coordinates; the transform is applied about it.
    public var anchor: LayerPoint
    /// The layer transform (`CALayer.transform`).
    public var transform: Transform3D
    /// The light for shading (the BCMeshTransformView model), used when ``lights`` is `nil`.
    public var light: Light
    /// The layer's lights (`layer.lights`); `nil` when absent, which selects ``light``. An empty
    /// array is a layer lit by nothing (black).
    public var lights: [LightSource]?
    /// How the surface reflects ``lights`` (`layer.material`).
    public var material: Material

    public init(
        size: SIMD2<Double> = SIMD2(1, 1),
        anchor: LayerPoint = LayerPoint(0.5, 0.5),
        transform: Transform3D = .identity,
        light: Light = Light(),
        lights: [LightSource]? = nil,
        material: Material = .standard
    ) {
        self.size = size
        self.anchor = anchor
        self.transform = transform
        self.light = light
        self.lights = lights
        self.material = material
    }
}
