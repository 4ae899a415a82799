/// One-line descriptions for reports (`meshgeo info`), numbers as mesh.json writes them.
extension LightSource: CustomStringConvertible {
    /// `spot at [160, 120, 300] shining [0, 0, -1], cone 15°…25°, color [1, 1, 1], intensity 1, attenuation [1, 0, 0]`.
    public var description: String {
        var parts = [kind.rawValue]
        if isPositional { parts[0] += " at " + Self.list(position) }
        switch kind {
        case .directional: parts[0] += " toward " + Self.list(direction)
        case .spot: parts[0] += " shining " + Self.list(direction)
        default: break
        }
        if kind == .spot {
            parts.append("cone \(MeshJSONWriter.format(innerAngle))°…\(MeshJSONWriter.format(outerAngle))°")
        }
        parts.append("color " + Self.list(color))
        parts.append("intensity " + MeshJSONWriter.format(intensity))
        if isPositional { parts.append("attenuation " + Self.list(attenuation)) }
        return parts.joined(separator: ", ")
    }

    static func list(_ v: SIMD3<Double>) -> String {
        "[\(MeshJSONWriter.format(v.x)), \(MeshJSONWriter.format(v.y)), \(MeshJSONWriter.format(v.z))]"
    }
}

extension Material: CustomStringConvertible {
    /// `ambient 1, diffuse 1, specular 0.5, shininess 32`.
    public var description: String {
        let f = MeshJSONWriter.format
        return "ambient \(f(ambient)), diffuse \(f(diffuse)), specular \(f(specular)), shininess \(f(shininess))"
    }
}
