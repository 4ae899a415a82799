/// A control value in homogeneous form: `(W·from.x, W·from.y, W·to.x, W·to.y, W·to.z, W, 0, 0)`.
///
/// Catmull–Clark refinement is linear, so refining these and dividing by W at the end gives the
/// rational surface exactly. Eight lanes (two spare) keep a value in one cache line and let the
/// compiler use vector arithmetic.
typealias Homogeneous = SIMD8<Double>

extension Homogeneous {
    init(vertex: MeshVertex, weight w: Double) {
        self.init(w * vertex.from.x, w * vertex.from.y, w * vertex.to.x, w * vertex.to.y, w * vertex.to.z, w, 0, 0)
    }

    @inline(__always) var weight: Double { self[5] }
    @inline(__always) var fromPart: SIMD2<Double> { SIMD2(self[0], self[1]) }
    @inline(__always) var toPart: SIMD3<Double> { SIMD3(self[2], self[3], self[4]) }
}
