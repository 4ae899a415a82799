import SurfaceKit

public extension HitTester {
    /// The frontmost surface under a screen point (screen space, Docs/surface.md: points, in the frame of
    /// the layer's untransformed bounds), or `nil`. Frontmost is the largest screen z after the
    /// perspective divide; geometry at or behind the eye (w ≤ `LayerGeometry.clipW`) is never hit.
    ///
    /// With an invertible layer transform the query is a points-space ray: the screen point's
    /// preimage (see ``screenRay(through:)``), so the hit's barycentric weights, and `from`, are
    /// those of the points-space triangle: perspective-correct. A singular transform (which
    /// flattens the layer) has no such ray; the triangles are then projected to the screen once, at
    /// build time, and the query is a point-in-triangle test there, with the weights carried back
    /// to points space by their 1/w (perspective-correct too).
    func hitTest(_ point: SIMD2<Double>) -> ScreenHit? {
        guard point.x.isFinite, point.y.isFinite else { return nil }
        if let ray = screenRay(through: point) {
            guard let found = triangleHit(ray) else { return nil }
            var hit = found
            if let surface, let grid, let refined = surface.refine(found, grid: grid, mesh: mesh, along: ray) {
                hit = refined
            }
            return screenHit(hit)
        }
        guard let fallback = screenFallback, let found = fallback.hit(point, mesh: mesh) else { return nil }
        var hit = self.hit(triangle: found.triangle, barycentric: found.barycentric, t: -found.depth)
        if let surface, let grid,
            let refined = surface.refine(hit, grid: grid, mesh: mesh, screenPoint: point, geometry: geometry)
        {
            hit = refined
        }
        return screenHit(hit)
    }

    /// The points-space ray whose points all show at screen point `point`, ordered front to back
    /// (t grows as screen z falls), with its interval limited to where w > `LayerGeometry.clipW`;
    /// `nil` when the layer transform is singular or nothing on that line is in front of the eye.
    ///
    /// A screen point (x, y, z) comes from the points-space point `[x − aₓ, y − a_y, z, 1] · M⁻¹`
    /// (divided by its w, plus the anchor a); as z runs, these points form a line. Its origin is
    /// put at the screen depth of the mesh's centre, so it lies near the geometry even for a very
    /// distant eye, and its direction is the derivative of that point along −z.
    func screenRay(through point: SIMD2<Double>) -> Ray? {
        guard let inverse = inverseTransform, point.x.isFinite, point.y.isFinite else { return nil }
        let anchor = geometry.anchorInPoints
        let a = inverse.apply(SIMD4(point.x - anchor.x, point.y - anchor.y, 0, 1))
        let b = inverse.row3
        let eps = LayerGeometry.clipW
        var depths: [Double] = []
        if let centre, let z = geometry.screenFromPoints(centre)?.z { depths.append(z) }
        depths.append(0)
        if b.w != 0 { depths.append((1 - a.w) / b.w) }
        for z in depths {
            let l = a + z * b
            // Clip w of the point at depth z is 1/l.w: visible when 0 < l.w < 1/clipW.
            guard l.w > 0, l.w * eps < 1 else { continue }
            let xyz = SIMD3(l.x, l.y, l.z), bxyz = SIMD3(b.x, b.y, b.z)
            let origin = xyz / l.w + anchor
            let direction = -(bxyz * l.w - xyz * b.w) / (l.w * l.w)
            let length = direction.length
            guard origin.x.isFinite, origin.y.isFinite, origin.z.isFinite, length > 0, length.isFinite else { continue }
            let d = direction / length
            // w is affine along the line; keep the part where it exceeds clipW.
            let w0 = geometry.clipCoordinates(ofPoints: origin).w
            let slope = d.x * geometry.transform.row1.w + d.y * geometry.transform.row2.w + d.z * geometry.transform.row3.w
            var tmin = -Double.infinity, tmax = Double.infinity
            if slope > 0 {
                tmin = (eps - w0) / slope
            } else if slope < 0 {
                tmax = (eps - w0) / slope
            }
            return Ray(origin: origin, direction: d, tmin: tmin, tmax: tmax)
        }
        return nil
    }
}

extension HitTester {
    /// The screen-space answer for a points-space hit; `nil` if it is at or behind the eye (which
    /// the ray's interval already excludes, up to rounding).
    func screenHit(_ hit: RayHit) -> ScreenHit? {
        guard let screen = geometry.screenFromPoints(hit.position) else { return nil }
        return ScreenHit(from: hit.from, to: hit.position / geometry.pointScale, face: hit.face, depth: screen.z, hit: hit)
    }
}
