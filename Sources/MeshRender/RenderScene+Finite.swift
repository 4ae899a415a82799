import SurfaceKit

extension RenderScene {
    /// The last check before a picture is drawn or written: every pixel coordinate, `1/w`,
    /// texture coordinate and shade is finite, or `.invalidValue` is thrown and nothing is
    /// written (an SVG would otherwise show a wrong polygon, a PNG a wrong pixel). Inputs inside
    /// ``NumericRange`` never fail it.
    func checkFinite() throws {
        let columns: [(String, [Double])] = [
            ("x", x), ("y", y), ("1/w", inverseW), ("texture u", u), ("texture v", v), ("shade", shade),
        ]
        // Only vertices a drawn triangle uses: clipping leaves the originals of cut triangles behind.
        var used = [Bool](repeating: false, count: x.count)
        for t in triangles {
            for k in 0..<3 where Int(t[k]) < used.count { used[Int(t[k])] = true }
        }
        for (name, values) in columns {
            if let i = values.indices.first(where: { used.indices.contains($0) && used[$0] && !values[$0].isFinite }) {
                throw MeshError(
                    .invalidValue, path: "",
                    "the picture's \(name) of vertex \(i) is \(values[i]), not a finite number; nothing was written "
                        + "(inputs inside the documented numeric range never do this)")
            }
        }
        if let t = flatShade.firstIndex(where: { !$0.isFinite }) {
            throw MeshError(
                .invalidValue, path: "",
                "the shade of triangle \(t) is \(flatShade[t]), not a finite number; nothing was written")
        }
    }
}
