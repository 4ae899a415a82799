import SurfaceKit

/// Screen queries for a singular layer transform (no inverse, so no preimage ray): the triangles
/// projected to the screen once, clipped at w = ``LayerGeometry/clipW``, in a BVH of their own, and
/// hit by rays along −z from in front of everything.
struct ScreenFallback: Sendable {
    let bvh: TriangleBVH
    /// Points-space position and clip w of each vertex (the mesh's, then cut vertices).
    let points: [Point3D]
    let clipW: [Double]
    let triangles: [SIMD3<Int32>]
    /// The mesh triangle each of these came from.
    let source: [Int32]

    init(mesh: TriangleMesh, geometry: LayerGeometry) {
        let eps = LayerGeometry.clipW
        var points = mesh.positions
        var clipW = points.map { geometry.clipCoordinates(ofPoints: $0).w }
        var triangles: [SIMD3<Int32>] = []
        var source: [Int32] = []
        for (t, tri) in mesh.triangles.enumerated() {
            let inside = (0..<3).map { clipW[Int(tri[$0])] > eps }
            if inside.allSatisfy({ $0 }) {
                triangles.append(tri)
                source.append(Int32(t))
                continue
            }
            guard inside.contains(true) else { continue }
            // Sutherland–Hodgman against w = clipW; w is affine in points space, so the cut point
            // is exact there.
            var polygon: [Int32] = []
            for k in 0..<3 {
                let a = Int(tri[k]), b = Int(tri[(k + 1) % 3])
                if inside[k] { polygon.append(Int32(a)) }
                if inside[k] != inside[(k + 1) % 3] {
                    let s = (eps - clipW[a]) / (clipW[b] - clipW[a])
                    points.append(points[a] + s * (points[b] - points[a]))
                    clipW.append(eps)
                    polygon.append(Int32(points.count - 1))
                }
            }
            for k in 1..<(polygon.count - 1) {
                triangles.append(SIMD3(polygon[0], polygon[k], polygon[k + 1]))
                source.append(Int32(t))
            }
        }
        let anchor = geometry.anchorInPoints
        let screen = points.map { p -> Point3D in
            let h = geometry.clipCoordinates(ofPoints: p)
            return SIMD3(h.x, h.y, h.z) / Swift.max(h.w, eps) + anchor
        }
        self.points = points
        self.clipW = clipW
        self.triangles = triangles
        self.source = source
        bvh = TriangleBVH(positions: screen, triangles: triangles, grid: nil)
    }

    /// The frontmost hit under a screen point: the mesh triangle, barycentric weights on it in
    /// points space, and the screen depth.
    func hit(_ s: SIMD2<Double>, mesh: TriangleMesh) -> (triangle: Int, barycentric: SIMD3<Double>, depth: Double)? {
        let h = bvh.firstHit(origin: SIMD3(s.x, s.y, 0), direction: SIMD3(0, 0, -1), tmin: -.infinity, tmax: .infinity)
        guard h.found else { return nil }
        let tri = triangles[Int(h.triangle)]
        let lambda = h.barycentric
        // Screen-space weights to points space: each divided by its vertex's w, renormalized.
        var mu = lambda / SIMD3(clipW[Int(tri.x)], clipW[Int(tri.y)], clipW[Int(tri.z)])
        mu /= mu.sum()
        let p = mu.x * points[Int(tri.x)] + mu.y * points[Int(tri.y)] + mu.z * points[Int(tri.z)]
        let t = Int(source[Int(h.triangle)])
        let original = mesh.triangles[t]
        let a = mesh.positions[Int(original.x)]
        let e1 = mesh.positions[Int(original.y)] - a, e2 = mesh.positions[Int(original.z)] - a
        // p lies in the triangle's plane: solve p − a = β e1 + γ e2 by the normal equations.
        let r = p - a
        let d11 = e1.dot(e1), d12 = e1.dot(e2), d22 = e2.dot(e2)
        let det = d11 * d22 - d12 * d12
        guard det > 0, det.isFinite else { return (t, mu, -h.t) }
        let beta = (d22 * r.dot(e1) - d12 * r.dot(e2)) / det
        let gamma = (d11 * r.dot(e2) - d12 * r.dot(e1)) / det
        return (t, SIMD3(1 - beta - gamma, beta, gamma), -h.t)
    }
}
