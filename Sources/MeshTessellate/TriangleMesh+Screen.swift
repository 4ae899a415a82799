import SurfaceKit

extension TriangleMesh {
    /// This points-space mesh in screen space (Docs/surface.md): positions carried through the layer transform
    /// about the anchor and divided by w, normals through the transform's linear part.
    ///
    /// Geometry at or behind the eye (w ≤ ``LayerGeometry/clipW``) is clipped: a triangle entirely
    /// there is dropped, one that crosses is cut along w = clipW. The cut adds vertices after the
    /// existing ones (which keep their order); their positions, layer points and normals are
    /// interpolated in points space, so a cut vertex's screen position is exactly the projection of
    /// its points-space position. Both triangles that share a cut edge share the new vertex.
    func projectedToScreen(_ geometry: LayerGeometry) -> TriangleMesh {
        let eps = LayerGeometry.clipW
        let clip = positions.map { geometry.clipCoordinates(ofPoints: $0) }
        let anchor = geometry.anchorInPoints
        func screen(_ h: SIMD4<Double>) -> Point3D { SIMD3(h.x, h.y, h.z) / h.w + anchor }

        var result = TriangleMesh(
            space: .screen,
            positions: clip.map { $0.w > eps ? screen($0) : .zero },
            from: from,
            normals: normals.map { geometry.screenNormal(fromPoints: $0) },
            triangles: [], sourceFaces: [])
        result.triangles.reserveCapacity(triangles.count)
        result.sourceFaces.reserveCapacity(triangles.count)

        var cutVertex: [UInt64: Int32] = [:]
        /// The vertex where edge a–b (a inside, b outside, or the reverse) crosses w = clipW.
        func cut(_ a: Int32, _ b: Int32) -> Int32 {
            let key = UInt64(UInt32(min(a, b))) << 32 | UInt64(UInt32(max(a, b)))
            if let v = cutVertex[key] { return v }
            let (lo, hi) = (Int(min(a, b)), Int(max(a, b)))
            let t = (eps - clip[lo].w) / (clip[hi].w - clip[lo].w)
            let p = positions[lo] + t * (positions[hi] - positions[lo])
            let f = from[lo] + t * (from[hi] - from[lo])
            let n = normals[lo] + t * (normals[hi] - normals[lo])
            let h = geometry.clipCoordinates(ofPoints: p)
            // h.w is clipW up to rounding; divide by the bound itself so the point stays finite.
            result.positions.append(SIMD3(h.x, h.y, h.z) / max(h.w, eps) + anchor)
            result.from.append(f)
            result.normals.append(geometry.screenNormal(fromPoints: n))
            let v = Int32(result.positions.count - 1)
            cutVertex[key] = v
            return v
        }

        for (t, tri) in triangles.enumerated() {
            let inside = [clip[Int(tri.x)].w > eps, clip[Int(tri.y)].w > eps, clip[Int(tri.z)].w > eps]
            let count = inside.reduce(0) { $0 + ($1 ? 1 : 0) }
            if count == 3 {
                result.triangles.append(tri)
                result.sourceFaces.append(sourceFaces[t])
                continue
            }
            if count == 0 { continue }
            // Walk the triangle's edges in order, keeping inside corners and the crossings
            // (Sutherland–Hodgman against one plane), then fan the polygon.
            var polygon: [Int32] = []
            for k in 0..<3 {
                let a = tri[k], b = tri[(k + 1) % 3]
                if inside[k] { polygon.append(a) }
                if inside[k] != inside[(k + 1) % 3] { polygon.append(cut(a, b)) }
            }
            for k in 1..<(polygon.count - 1) {
                result.triangles.append(SIMD3(polygon[0], polygon[k], polygon[k + 1]))
                result.sourceFaces.append(sourceFaces[t])
            }
        }
        return result
    }
}
