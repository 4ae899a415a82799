/// Blending two meshes, for animation.
public extension MeshTransform {
    /// Throws `.incompatible` naming the first difference unless `other` has the same vertex count,
    /// face count, indices face by face and depth normalization (BCMeshTransformView's rule).
    func checkCompatible(with other: MeshTransform) throws {
        guard vertices.count == other.vertices.count else {
            throw MeshError(.incompatible, path: "vertices", "vertex counts differ (\(vertices.count) and \(other.vertices.count))")
        }
        guard faces.count == other.faces.count else {
            throw MeshError(.incompatible, path: "faces", "face counts differ (\(faces.count) and \(other.faces.count))")
        }
        for f in faces.indices where faces[f].indices != other.faces[f].indices {
            throw MeshError(.incompatible, path: "faces[\(f)].indices", "the faces name different vertices")
        }
        guard depthNormalization == other.depthNormalization else {
            throw MeshError(
                .incompatible, path: "depthNormalization",
                "depth normalizations differ (\(depthNormalization.rawValue) and \(other.depthNormalization.rawValue))")
        }
    }

    /// The mesh a `fraction` of the way from `self` (0) to `other` (1): `from`, `to` and weights blend
    /// linearly; indices, depth normalization and steps are `self`'s. Fractions outside 0…1
    /// extrapolate; a blend whose weights would not stay positive is an error.
    func interpolated(to other: MeshTransform, fraction t: Double) throws -> MeshTransform {
        guard t.isFinite else {
            throw MeshError(.invalidValue, path: "fraction", "\(t) is not a finite number")
        }
        try checkCompatible(with: other)
        var result = self
        for i in vertices.indices {
            let a = vertices[i], b = other.vertices[i]
            let v = MeshVertex(from: a.from + t * (b.from - a.from), to: a.to + t * (b.to - a.to))
            try Self.checkVertex(v, index: i)
            result.vertices[i] = v
        }
        for f in faces.indices {
            let w = faces[f].weights + t * (other.faces[f].weights - faces[f].weights)
            result.faces[f].weights = w
            for k in 0..<4 where !(w[k] > 0 && w[k].isFinite) {
                throw MeshError(.invalidValue, path: "faces[\(f)].w[\(k)]", "the blended weight \(w[k]) is not positive")
            }
        }
        return result
    }
}
