/// A quadrilateral face: four vertex indices in the order top-left, top-right, bottom-right,
/// bottom-left (as `CAMeshFace`), and a weight for each corner.
///
/// The weight a face gives a corner enters the rational surface: a vertex's weight is the mean of
/// the weights its faces give it, and a larger weight pulls the surface toward the vertex.
public struct MeshFace: Hashable, Sendable {
    /// Vertex indices: top-left, top-right, bottom-right, bottom-left.
    public var indices: SIMD4<Int>
    /// Corner weights, each finite and greater than zero.
    public var weights: SIMD4<Double>

    public init(indices: SIMD4<Int>, weights: SIMD4<Double> = SIMD4(repeating: 1)) {
        self.indices = indices
        self.weights = weights
    }

    public init(_ i0: Int, _ i1: Int, _ i2: Int, _ i3: Int, weights: SIMD4<Double> = SIMD4(repeating: 1)) {
        self.init(indices: SIMD4(i0, i1, i2, i3), weights: weights)
    }
}
