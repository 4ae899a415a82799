import RealModule
import SurfaceKit

/// A layer's `lights` and `material` in glTF terms: KHR_lights_punctual lights on nodes of their
/// own, and the material's Phong coefficients carried as far as glTF's metallic-roughness model
/// allows.
///
/// - Directional, point and spot lights become KHR_lights_punctual lights. glTF lights shine
///   along their node's −Z, so each light's node is rotated to take −Z to the way the light
///   travels (a directional light's `direction` points toward the light, so the opposite way; a
///   spot's is the way it shines), with y negated as the mesh's node negates it. Spot cone angles
///   are written in radians. Colours above 1 are scaled into 0…1 and the scale moved into the
///   intensity. Lights are placed only in a screen-space file: they are fixed in screen space, and
///   a unit- or points-space mesh does not stand where the lights see it.
/// - Not carried: the attenuation (glTF point and spot lights fall off with the inverse square of
///   the distance, and their intensity is in candela, a directional light's in lux, where
///   mesh.json's is a plain factor, written as it is); ambient lights, which glTF has no form for,
///   are baked into the material's emissive colour (the content × material.ambient × the ambient
///   lights' colour × intensity, clamped to 1); the specular exponent, approximated by the
///   roughness `(2 / (shininess + 2))^¼`; the specular factor becomes KHR_materials_specular's
///   `specularFactor` (clamped to 1); the diffuse factor the base colour factor (clamped to 1).
struct GLBLighting {
    /// KHR_lights_punctual's light objects, and for each the node that carries it.
    var lights: [String] = []
    var nodes: [String] = []
    /// Members added to the material (after `doubleSided`), and to its pbrMetallicRoughness.
    var material = ""
    var pbr = ""
    var roughness = 1.0
    var extensionsUsed: [String] = []

    init?(layer: LayerProperties?, space: CoordinateSpace, hasTexture: Bool) {
        guard let layer, let sources = layer.lights else { return nil }
        let m = layer.material
        let number = GLBLighting.number
        if space == .screen {
            for source in sources where source.kind != .ambient {
                let index = lights.count
                lights.append(GLBLighting.light(source))
                nodes.append(GLBLighting.node(source, index: index))
            }
        }
        let d = Swift.min(1, m.diffuse)
        pbr += #","baseColorFactor":[\#(number(d)),\#(number(d)),\#(number(d)),1]"#
        roughness = Double.pow(2 / (m.shininess + 2), 0.25)
        var ambient = SIMD3<Double>.zero
        for source in sources where source.kind == .ambient {
            ambient += m.ambient * source.color * source.intensity
        }
        ambient = ambient.replacing(with: 1, where: ambient .> 1)
        if ambient != .zero {
            material += #","emissiveFactor":[\#(number(ambient.x)),\#(number(ambient.y)),\#(number(ambient.z))]"#
            if hasTexture { material += #","emissiveTexture":{"index":0}"# }
        }
        material += #","extensions":{"KHR_materials_specular":{"specularFactor":\#(number(Swift.min(1, m.specular)))}}"#
        extensionsUsed.append("KHR_materials_specular")
        if !lights.isEmpty { extensionsUsed.append("KHR_lights_punctual") }
    }

    /// The root's `extensions` member, or "".
    var rootExtensions: String {
        lights.isEmpty ? "" : #""extensions":{"KHR_lights_punctual":{"lights":[\#(lights.joined(separator: ","))]}},"#
    }

    static func light(_ source: LightSource) -> String {
        let number = GLBLighting.number
        // glTF colours lie in 0…1: a brighter colour keeps its hue and gives its scale to the intensity.
        let largest = Swift.max(source.color.x, source.color.y, source.color.z)
        let scale = largest > 1 ? largest : 1
        let c = source.color / scale
        var json = #"{"type":"\#(source.kind.rawValue)","color":[\#(number(c.x)),\#(number(c.y)),\#(number(c.z))]"#
        json += #","intensity":\#(number(source.intensity * scale))"#
        if source.kind == .spot {
            let outer = source.outerAngle * Double.pi / 180
            // glTF asks for inner < outer; an equal pair (a hard edge) is kept just inside.
            let inner = Swift.min(source.innerAngle * Double.pi / 180, outer * (1 - 1e-6))
            json += #","spot":{"innerConeAngle":\#(number(inner)),"outerConeAngle":\#(number(outer))}"#
        }
        return json + "}"
    }

    static func node(_ source: LightSource, index: Int) -> String {
        let number = GLBLighting.number
        // The way the light travels, in glTF's frame (y negated, as the mesh node's scale does).
        let travel = source.kind == .directional ? -source.direction : source.direction
        let q = rotation(takingMinusZTo: Point3D(travel.x, -travel.y, travel.z))
        var json = #"{"name":"\#(source.kind.rawValue) light \#(index)""#
        if source.isPositional {
            let p = source.position
            json += #","translation":[\#(number(p.x)),\#(number(-p.y)),\#(number(p.z))]"#
        }
        if source.isDirected {
            json += #","rotation":[\#(number(q.x)),\#(number(q.y)),\#(number(q.z)),\#(number(q.w))]"#
        }
        return json + #","extensions":{"KHR_lights_punctual":{"light":\#(index)}}}"#
    }

    /// A number as glTF stores it (a Float): values beyond Float's range are written as its
    /// largest finite value rather than overflowing to a non-JSON `inf`.
    static func number(_ value: Double) -> String {
        let limit = Double(Float.greatestFiniteMagnitude)
        return TriangleMesh.jsonNumber(value.isNaN ? 0 : Swift.min(limit, Swift.max(-limit, value)))
    }

    /// The unit quaternion (x, y, z, w) of the shortest rotation taking (0, 0, −1) to the
    /// direction of `s`: w = 1 + a·b, (x, y, z) = a × b for unit a, b, normalized; the half-turn
    /// about x when s points along +z.
    static func rotation(takingMinusZTo s: Point3D) -> SIMD4<Double> {
        // Scaled by the largest component first, so tiny or huge finite directions normalise.
        let largest = Swift.max(abs(s.x), abs(s.y), abs(s.z))
        let b = largest > 0 && largest.isFinite ? (s / largest).normalized(or: Point3D(0, 0, -1)) : Point3D(0, 0, -1)
        let w = 1 - b.z
        guard w > 1e-12 else { return SIMD4(1, 0, 0, 0) }
        let q = SIMD4(b.y, -b.x, 0, w)
        return q / (q * q).sum().squareRoot()
    }
}
