/// mesh.json's `layer.lights` and `layer.material`: the typed lights and the surface's Phong
/// reflectance, read strictly (each error names its JSON path) and written so that they read back
/// equal.
extension MeshJSONReader {
    static let materialKeys = ["ambient", "diffuse", "specular", "shininess"]

    /// The keys a light of each kind may have, in the order the writer uses.
    static func lightSourceKeys(_ kind: LightSource.Kind) -> [String] {
        switch kind {
        case .ambient: ["type", "color", "intensity"]
        case .directional: ["type", "direction", "color", "intensity"]
        case .point: ["type", "position", "color", "intensity", "attenuation"]
        case .spot: ["type", "position", "direction", "innerAngle", "outerAngle", "color", "intensity", "attenuation"]
        }
    }

    /// Reads `lights` and `material` of the layer object into `layer`. `light` and `lights`
    /// together are an error naming both.
    static func decodeLighting(_ object: JSONObject, into layer: inout LayerProperties) throws {
        if object["light"] != nil, object["lights"] != nil {
            throw MeshError(
                .invalidValue, path: "layer.lights",
                "'layer.light' and 'layer.lights' cannot both be given: 'light' is the single BCMeshTransformView light, 'lights' the typed lights; keep one"
            )
        }
        if let value = object["lights"] {
            let elements = try array(value, path: "layer.lights", expected: "an array of lights")
            guard elements.count <= LayerProperties.maximumLightCount else {
                throw MeshError(
                    .limitExceeded, path: "layer.lights",
                    "\(elements.count) lights is over the limit of \(LayerProperties.maximumLightCount)")
            }
            var lights: [LightSource] = []
            for (i, element) in elements.enumerated() {
                lights.append(try decodeLightSource(element, path: "layer.lights[\(i)]"))
            }
            layer.lights = lights
        }
        if let value = object["material"] {
            layer.material = try decodeMaterial(value)
        }
    }

    static func decodeLightSource(_ value: JSONValue, path: String) throws -> LightSource {
        let object = try self.object(value, path: path, expected: "a light object")
        let kind = try decodeLightKind(try required(object, "type", path: path), path: path + ".type")
        let known = lightSourceKeys(kind)
        for member in object.members where !known.contains(member.key) {
            let applies = LightSource.Kind.allCases.contains { lightSourceKeys($0).contains(member.key) }
            let message =
                applies
                ? "'\(member.key)' does not apply to a\(kind == .ambient ? "n" : "") \(kind.rawValue) light (its keys: \(known.joined(separator: ", ")))"
                : KeySuggestion.unknownKeyMessage(member.key, known: known)
            throw MeshError(.unknownKey, path: child(path, member.key), message)
        }
        var light = LightSource(kind: kind)
        if let value = object["color"] {
            light.color = try numbers(value, as: SIMD3<Double>.self, path: path + ".color", expected: "3 numbers (red, green, blue)")
        }
        if let value = object["intensity"] {
            light.intensity = try number(value, path: path + ".intensity").value
        }
        if light.isPositional {
            light.position = try numbers(try required(object, "position", path: path), as: Point3D.self, path: path + ".position")
            if let value = object["attenuation"] {
                light.attenuation = try numbers(
                    value, as: SIMD3<Double>.self, path: path + ".attenuation", expected: "3 numbers (constant, linear, quadratic)")
            }
        }
        if kind == .directional, let value = object["direction"] {
            light.direction = try numbers(value, as: Point3D.self, path: path + ".direction")
        }
        if kind == .spot {
            guard let direction = object["direction"] else {
                throw MeshError(
                    .invalidValue, path: path + ".direction", "required key 'direction' is missing (the way a spot light shines)")
            }
            light.direction = try numbers(direction, as: Point3D.self, path: path + ".direction")
            light.outerAngle = try number(try required(object, "outerAngle", path: path), path: path + ".outerAngle").value
            if let value = object["innerAngle"] {
                light.innerAngle = try number(value, path: path + ".innerAngle").value
            }
        }
        try light.validate(path: path)
        return light
    }

    static func decodeLightKind(_ value: JSONValue, path: String) throws -> LightSource.Kind {
        let names = LightSource.Kind.allCases.map(\.rawValue)
        guard case .string(let name) = value else {
            throw MeshError(
                .invalidValue, path: path, "expected a string (one of \(names.joined(separator: ", "))), found \(value.kindDescription)")
        }
        guard let kind = LightSource.Kind(rawValue: name) else {
            let hint =
                KeySuggestion.nearest(to: name, in: names).map { "did you mean '\($0)'?" }
                ?? "expected one of \(names.joined(separator: ", "))"
            throw MeshError(.invalidValue, path: path, "unknown light type \(JSONPath.quoted(name, quote: "'")); \(hint)")
        }
        return kind
    }

    static func decodeMaterial(_ value: JSONValue) throws -> Material {
        let object = try self.object(value, path: "layer.material", expected: "a material object")
        try checkKeys(object, known: materialKeys, path: "layer.material")
        var material = Material()
        if let value = object["ambient"] { material.ambient = try number(value, path: "layer.material.ambient").value }
        if let value = object["diffuse"] { material.diffuse = try number(value, path: "layer.material.diffuse").value }
        if let value = object["specular"] { material.specular = try number(value, path: "layer.material.specular").value }
        if let value = object["shininess"] { material.shininess = try number(value, path: "layer.material.shininess").value }
        try material.validate(path: "layer.material")
        return material
    }
}

extension MeshJSONWriter {
    /// The layer's lighting, after `"transform": […]` and before the layer's closing brace:
    /// `light` when there are no `lights` (as before lights existed), otherwise `lights` and
    /// `material`; `material` also when it differs from the default without `lights`.
    mutating func writeLighting(_ layer: LayerProperties) {
        if let lights = layer.lights {
            appendText(",\n    \"lights\": [")
            for (i, light) in lights.enumerated() {
                appendText(i == 0 ? "\n      " : ",\n      ")
                writeLightSource(light)
            }
            appendText(lights.isEmpty ? "]" : "\n    ]")
        } else {
            appendText(",\n    \"light\": {\"direction\": ")
            appendNumberList([layer.light.direction.x, layer.light.direction.y, layer.light.direction.z])
            appendText(", \"diffuse\": ")
            appendText(Self.format(layer.light.diffuse))
            appendText("}")
        }
        if layer.lights != nil || layer.material != .standard {
            let m = layer.material
            appendText(",\n    \"material\": {\"ambient\": \(Self.format(m.ambient)), \"diffuse\": \(Self.format(m.diffuse))")
            appendText(", \"specular\": \(Self.format(m.specular)), \"shininess\": \(Self.format(m.shininess))}")
        }
    }

    /// One light on one line, every key of its kind written.
    private mutating func writeLightSource(_ light: LightSource) {
        appendText("{\"type\": \"\(light.kind.rawValue)\"")
        for key in MeshJSONReader.lightSourceKeys(light.kind).dropFirst() {
            appendText(", \"\(key)\": ")
            switch key {
            case "position": appendNumberList([light.position.x, light.position.y, light.position.z])
            case "direction": appendNumberList([light.direction.x, light.direction.y, light.direction.z])
            case "innerAngle": appendText(Self.format(light.innerAngle))
            case "outerAngle": appendText(Self.format(light.outerAngle))
            case "color": appendNumberList([light.color.x, light.color.y, light.color.z])
            case "intensity": appendText(Self.format(light.intensity))
            default: appendNumberList([light.attenuation.x, light.attenuation.y, light.attenuation.z])
            }
        }
        appendText("}")
    }
}
