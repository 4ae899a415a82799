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
