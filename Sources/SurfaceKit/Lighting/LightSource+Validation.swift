/// The rules a layer's lights and material obey, shared by the mesh.json reader and
/// ``LayerProperties/validate()``; each error names the JSON path of the offending value.
public extension LightSource {
    /// The widest spot cone, in degrees from the axis: a hemisphere.
    static let maximumAngle: Double = 90

    /// Throws a ``MeshError`` naming the first value out of range, under `path` (such as
    /// `layer.lights[2]`).
    ///
    /// Colour channels, intensity and attenuation coefficients are finite and ≥ 0, the
    /// attenuation not all zero; a position is finite; a direction is finite and not zero; a
    /// spot's angles satisfy 0 ≤ innerAngle ≤ outerAngle ≤ 90 and outerAngle > 0.
    func validate(path: String) throws {
        for k in 0..<3 where !(color[k].isFinite && color[k] >= 0) {
            throw MeshError(.invalidValue, path: "\(path).color[\(k)]", "\(Self.text(color[k])) must be a finite number ≥ 0")
        }
        guard intensity.isFinite, intensity >= 0 else {
            throw MeshError(.invalidValue, path: "\(path).intensity", "\(Self.text(intensity)) must be a finite number ≥ 0")
        }
        if isPositional {
            for k in 0..<3 where !position[k].isFinite {
                throw MeshError(.invalidValue, path: "\(path).position[\(k)]", "\(Self.text(position[k])) is not a finite number")
            }
            for k in 0..<3 where !(attenuation[k].isFinite && attenuation[k] >= 0) {
                throw MeshError(
                    .invalidValue, path: "\(path).attenuation[\(k)]", "\(Self.text(attenuation[k])) must be a finite number ≥ 0")
            }
            guard attenuation != .zero else {
                throw MeshError(
                    .invalidValue, path: "\(path).attenuation",
                    "the attenuation [0, 0, 0] divides by zero; give at least one coefficient above 0 ([1, 0, 0] is none)")
            }
        }
        if isDirected {
            for k in 0..<3 where !direction[k].isFinite {
                throw MeshError(.invalidValue, path: "\(path).direction[\(k)]", "\(Self.text(direction[k])) is not a finite number")
            }
            guard direction != .zero else {
                throw MeshError(.invalidValue, path: "\(path).direction", "the direction [0, 0, 0] has no length")
            }
        }
        if kind == .spot {
            guard outerAngle.isFinite, outerAngle > 0, outerAngle <= Self.maximumAngle else {
                throw MeshError(
                    .invalidValue, path: "\(path).outerAngle",
                    "\(Self.text(outerAngle)) must be above 0 and at most \(Self.text(Self.maximumAngle)) degrees")
            }
            guard innerAngle.isFinite, innerAngle >= 0 else {
                throw MeshError(.invalidValue, path: "\(path).innerAngle", "\(Self.text(innerAngle)) must be a finite number ≥ 0 (degrees)")
            }
            guard innerAngle <= outerAngle else {
                throw MeshError(
                    .invalidValue, path: "\(path).innerAngle",
                    "\(Self.text(innerAngle)) is greater than outerAngle \(Self.text(outerAngle)); the inner cone must lie within the outer"
                )
            }
        }
    }

    /// A number as mesh.json writes it.
    internal static func text(_ value: Double) -> String {
        value.isFinite ? MeshJSONWriter.format(value) : "\(value)"
    }
}

public extension Material {
    /// Throws a ``MeshError`` naming the first coefficient that is not a finite number ≥ 0, under
    /// `path` (such as `layer.material`).
    func validate(path: String) throws {
        let values: [(String, Double)] = [("ambient", ambient), ("diffuse", diffuse), ("specular", specular), ("shininess", shininess)]
        for (key, value) in values where !(value.isFinite && value >= 0) {
            throw MeshError(.invalidValue, path: "\(path).\(key)", "\(LightSource.text(value)) must be a finite number ≥ 0")
        }
    }
}

public extension LayerProperties {
    /// The most lights a layer may have: shading costs a pass per light at every pixel, and a
    /// GPU shader holds them in an array of fixed size.
    static let maximumLightCount = 16

    /// Checks ``lights`` (at most ``maximumLightCount``, each valid) and ``material``.
    func validateLighting() throws {
        if let lights {
            guard lights.count <= Self.maximumLightCount else {
                throw MeshError(
                    .limitExceeded, path: "layer.lights", "\(lights.count) lights is over the limit of \(Self.maximumLightCount)")
            }
            for (i, light) in lights.enumerated() {
                try light.validate(path: "layer.lights[\(i)]")
            }
        }
        try material.validate(path: "layer.material")
    }
}
