/// A mesh.json file: the mesh transform and the layer it applies to.
public struct MeshDocument: Hashable, Sendable {
    public var mesh: MeshTransform
    public var layer: LayerProperties

    public init(mesh: MeshTransform, layer: LayerProperties = LayerProperties()) {
        self.mesh = mesh
        self.layer = layer
    }

    /// The coordinate maps (unit → points → screen) for this mesh on this layer.
    public var geometry: LayerGeometry {
        LayerGeometry(layer: layer, depthNormalization: mesh.depthNormalization)
    }
}

public extension MeshDocument {
    /// Checks the mesh (``MeshTransform/validate()``) and the layer: a finite size above zero, a
    /// finite anchor, transform and light. Throws the first problem with its JSON path.
    func validate() throws {
        try mesh.validate()
        try layer.validate()
    }
}

public extension LayerProperties {
    /// Throws a ``MeshError`` naming the first non-finite or out-of-range value (`layer.size[0]`),
    /// or a light direction that is the zero vector.
    func validate() throws {
        for k in 0..<2 where !(size[k].isFinite && size[k] > 0) {
            throw MeshError(.invalidValue, path: "layer.size[\(k)]", "\(size[k]) must be a finite number greater than 0")
        }
        for k in 0..<2 where !anchor[k].isFinite {
            throw MeshError(.invalidValue, path: "layer.anchor[\(k)]", "\(anchor[k]) is not a finite number")
        }
        for (k, m) in transform.elements.enumerated() where !m.isFinite {
            throw MeshError(.invalidValue, path: "layer.transform[\(k)]", "\(m) is not a finite number")
        }
        for k in 0..<3 where !light.direction[k].isFinite {
            throw MeshError(.invalidValue, path: "layer.light.direction[\(k)]", "\(light.direction[k]) is not a finite number")
        }
        guard light.direction != .zero else {
            throw MeshError(
                .invalidValue, path: "layer.light.direction", "the direction toward the light must not be the zero vector")
        }
        guard light.diffuse.isFinite else {
            throw MeshError(.invalidValue, path: "layer.light.diffuse", "\(light.diffuse) is not a finite number")
        }
        try validateLighting()
    }
}
