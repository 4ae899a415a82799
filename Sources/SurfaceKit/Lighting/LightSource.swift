/// One light of a layer's `lights` (Core Animation's private `CALight`): ambient, directional,
/// point or spot, fixed in screen space (points, the frame of the layer's untransformed bounds, +z
/// toward the viewer), so lights do not move with the layer.
///
/// The type is not named `Light` because ``Light`` is the single directional light of the
/// BCMeshTransformView model (`layer.light`), which stays as it is.
public struct LightSource: Hashable, Sendable {
    /// The four kinds of light, named as in mesh.json's `type`.
    public enum Kind: String, CaseIterable, Hashable, Sendable {
        /// Lights every point equally, whatever its normal.
        case ambient
        /// A light at infinity; ``LightSource/direction`` points toward it.
        case directional
        /// A light at ``LightSource/position`` shining every way.
        case point
        /// A light at ``LightSource/position`` shining along ``LightSource/direction`` in a cone.
        case spot
    }

    public var kind: Kind
    /// Linear RGB, each channel ≥ 0 (above 1 is allowed: the result is clamped per channel).
    public var color: SIMD3<Double>
    /// Multiplies ``color``; ≥ 0.
    public var intensity: Double
    /// Point and spot lights: where the light is, in screen-space points.
    public var position: Point3D
    /// Directional: toward the light (as `layer.light.direction`). Spot: the way it shines.
    /// Need not be normalized, but not zero.
    public var direction: Point3D
    /// Point and spot lights: the constant, linear and quadratic coefficients (c, l, q) of the
    /// falloff `1 / (c + l·dist + q·dist²)`, each ≥ 0 and not all zero.
    public var attenuation: SIMD3<Double>
    /// Spot lights: full brightness within this angle of ``direction``, in degrees.
    public var innerAngle: Double
    /// Spot lights: no light beyond this angle of ``direction``, in degrees (inner ≤ outer ≤ 90).
    public var outerAngle: Double

    public static let defaultColor = SIMD3<Double>(1, 1, 1)
    public static let defaultAttenuation = SIMD3<Double>(1, 0, 0)
    /// A directional light without a direction shines from the viewer, as `layer.light` does.
    public static let defaultDirection = Point3D(0, 0, 1)

    public init(
        kind: Kind, color: SIMD3<Double> = LightSource.defaultColor, intensity: Double = 1,
        position: Point3D = .zero, direction: Point3D = LightSource.defaultDirection,
        attenuation: SIMD3<Double> = LightSource.defaultAttenuation, innerAngle: Double = 0, outerAngle: Double = 90
    ) {
        self.kind = kind
        self.color = color
        self.intensity = intensity
        self.position = position
        self.direction = direction
        self.attenuation = attenuation
        self.innerAngle = innerAngle
        self.outerAngle = outerAngle
    }
}

public extension LightSource {
    static func ambient(color: SIMD3<Double> = defaultColor, intensity: Double = 1) -> LightSource {
        LightSource(kind: .ambient, color: color, intensity: intensity)
    }

    /// A light at infinity in the direction `toward`.
    static func directional(toward direction: Point3D, color: SIMD3<Double> = defaultColor, intensity: Double = 1) -> LightSource {
        LightSource(kind: .directional, color: color, intensity: intensity, direction: direction)
    }

    static func point(
        at position: Point3D, color: SIMD3<Double> = defaultColor, intensity: Double = 1,
        attenuation: SIMD3<Double> = defaultAttenuation
    ) -> LightSource {
        LightSource(kind: .point, color: color, intensity: intensity, position: position, attenuation: attenuation)
    }

    /// A spot at `position` shining along `direction`, angles in degrees.
    static func spot(
        at position: Point3D, shining direction: Point3D, innerAngle: Double, outerAngle: Double,
        color: SIMD3<Double> = defaultColor, intensity: Double = 1, attenuation: SIMD3<Double> = defaultAttenuation
    ) -> LightSource {
        LightSource(
            kind: .spot, color: color, intensity: intensity, position: position, direction: direction,
            attenuation: attenuation, innerAngle: innerAngle, outerAngle: outerAngle)
    }

    /// Whether the light has a position (point and spot).
    var isPositional: Bool { kind == .point || kind == .spot }
    /// Whether the light has a direction (directional and spot).
    var isDirected: Bool { kind == .directional || kind == .spot }
}
