import SurfaceKit

extension MeshReport {
    /// `info`'s lines on `layer.lights` and `layer.material`; none for a layer with neither, whose
    /// report stays as it was.
    static func lightingLines(_ layer: LayerProperties) -> [String] {
        var lines: [String] = []
        if let lights = layer.lights {
            lines.append("lights: \(lights.count)" + (lights.isEmpty ? " (the layer is lit by nothing: black)" : ""))
            for (i, light) in lights.enumerated() {
                lines.append("  [\(i)] \(light)")
            }
        }
        if layer.lights != nil || layer.material != .standard {
            lines.append("material: \(layer.material)" + (layer.lights == nil ? " (no effect without lights)" : ""))
        }
        return lines
    }
}
