/// How a layer's surface reflects ``LightSource``s (Phong): multipliers of the ambient, diffuse and
/// specular terms and the specular exponent.
public struct Material: Hashable, Sendable {
    public var ambient: Double
    public var diffuse: Double
    public var specular: Double
    /// The exponent of `max(0, r·v)`: larger is a smaller, sharper highlight.
    public var shininess: Double

    /// The defaults: the content lit fully by ambient and diffuse light, no highlight.
    public static let standard = Material()

    public init(ambient: Double = 1, diffuse: Double = 1, specular: Double = 0, shininess: Double = 32) {
        self.ambient = ambient
        self.diffuse = diffuse
        self.specular = specular
        self.shininess = shininess
    }
}
