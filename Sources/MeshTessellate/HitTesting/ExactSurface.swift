import SurfaceKit

/// What exact mode refines on: the limit patches of the evaluated mesh, and the scale to points.
///
/// A hit starts on a triangle of sub-quad q; its (u, v) in q follows from the triangle's corners
/// and barycentric weights. Newton's method then solves for the (u, v) where the sub-quad's rational
/// bicubic patch meets the query (a ray, or the preimage of a screen point), moving to the
/// neighbouring sub-quad of the same control face when (u, v) leaves [0, 1]². It gives up (the
/// caller keeps the triangle hit) when the sub-quad touches an extraordinary vertex, when the
/// solution would lie in another control face, or when Newton does not converge.
struct ExactSurface: Sendable {
    let patches: LimitPatches
    let pointScale: SIMD3<Double>

    /// Largest Newton iterations, counting moves between sub-quads.
    static let iterationLimit = 60
    /// A Newton step in (u, v) this small means convergence: convergence is quadratic, so the
    /// parameter after that step is settled to rounding. (Much smaller would be out of reach on a
    /// small layer, where rounding of the residual alone moves (u, v) by about 1e-14.)
    static let stepTolerance = 1e-11

    /// The hit refined along `ray`; `nil` when refinement is not possible there.
    func refine(_ hit: RayHit, grid: TessellationGrid, mesh: TriangleMesh, along ray: Ray) -> RayHit? {
        let d = ray.direction
        let dd = d.dot(d)
        guard dd > 0, dd.isFinite else { return nil }
        // Two directions across the ray: the residual is the offset of the patch point from the ray
        // in the plane they span.
        let helper: Point3D =
            abs(d.x) <= abs(d.y) && abs(d.x) <= abs(d.z)
            ? SIMD3(1, 0, 0)
            : (abs(d.y) <= abs(d.z) ? SIMD3(0, 1, 0) : SIMD3(0, 0, 1))
        let e1 = d.cross(helper).normalized(), e2 = d.cross(e1).normalized()
        guard
            var refined = newton(
                hit, grid: grid, mesh: mesh,
                residual: { p, pu, pv in
                    let r = p - ray.origin
                    return (SIMD2(r.dot(e1), r.dot(e2)), SIMD2(pu.dot(e1), pu.dot(e2)), SIMD2(pv.dot(e1), pv.dot(e2)))
                })
        else { return nil }
        let t = (refined.position - ray.origin).dot(d) / dd
        guard t >= ray.tmin, t <= ray.tmax else { return nil }
        refined.t = t
        return refined
    }

    /// The hit refined so that the surface point projects exactly to `screenPoint`.
    func refine(
        _ hit: RayHit, grid: TessellationGrid, mesh: TriangleMesh, screenPoint s: SIMD2<Double>, geometry: LayerGeometry
    ) -> RayHit? {
        let m = geometry.transform
        let anchor = geometry.anchorInPoints
        guard
            var refined = newton(
                hit, grid: grid, mesh: mesh,
                residual: { p, pu, pv in
                    let h = geometry.clipCoordinates(ofPoints: p)
                    guard h.w > LayerGeometry.clipW else { return nil }
                    func screenDerivative(_ dp: Point3D) -> SIMD2<Double> {
                        let dh = dp.x * m.row1 + dp.y * m.row2 + dp.z * m.row3
                        return (SIMD2(dh.x, dh.y) * h.w - SIMD2(h.x, h.y) * dh.w) / (h.w * h.w)
                    }
                    let r = SIMD2(h.x, h.y) / h.w + SIMD2(anchor.x, anchor.y) - s
                    return (r, screenDerivative(pu), screenDerivative(pv))
                })
        else { return nil }
        guard let screen = geometry.screenFromPoints(refined.position) else { return nil }
        refined.t = -screen.z
        return refined
    }

    /// Newton on (u, v) for `residual(P, ∂P/∂u, ∂P/∂v) = 0` (points space), from the triangle hit.
    func newton(
        _ hit: RayHit, grid: TessellationGrid, mesh: TriangleMesh,
        residual: (Point3D, Point3D, Point3D) -> (SIMD2<Double>, SIMD2<Double>, SIMD2<Double>)?
    ) -> RayHit? {
        guard grid.triangleCount == mesh.triangleCount, grid.resolution > 0,
            let start = startParameter(hit, grid: grid, mesh: mesh)
        else { return nil }
        let res = grid.resolution
        var q = hit.triangle / grid.trianglesPerQuad
        let faceBase = (q / grid.quadsPerFace) * grid.quadsPerFace
        var row = (q - faceBase) / res, column = (q - faceBase) % res
        var uv = start
        guard var patch = patches.patch(ofQuad: q) else { return nil }
        var converged = false
        for _ in 0..<ExactSurface.iterationLimit {
            let point = patch.evaluate(u: uv.x, v: uv.y)
            guard let (r, ju, jv) = residual(point.to * pointScale, point.toU * pointScale, point.toV * pointScale) else {
                return nil
            }
            let det = ju.x * jv.y - jv.x * ju.y
            guard det != 0, det.isFinite else { return nil }
            var step = SIMD2((-r.x * jv.y + jv.x * r.y) / det, (-ju.x * r.y + r.x * ju.y) / det)
            guard step.x.isFinite, step.y.isFinite else { return nil }
            // A far jump means the linearisation is poor: go half a sub-quad at most.
            let size = Swift.max(abs(step.x), abs(step.y))
            if size > 0.5 { step *= 0.5 / size }
            uv += step
            // Into the neighbouring sub-quad of the same control face when (u, v) leaves this one.
            var moved = false
            if uv.x < 0, column > 0 {
                column -= 1; uv.x += 1; moved = true
            } else if uv.x > 1, column < res - 1 {
                column += 1; uv.x -= 1; moved = true
            }
            if uv.y < 0, row > 0 { row -= 1; uv.y += 1; moved = true } else if uv.y > 1, row < res - 1 { row += 1; uv.y -= 1; moved = true }
            if moved {
                q = faceBase + row * res + column
                guard let next = patches.patch(ofQuad: q) else { return nil }
                patch = next
                continue
            }
            // Beyond the control face: a patch's polynomial there is not the surface.
            guard uv.x > -0.5, uv.x < 1.5, uv.y > -0.5, uv.y < 1.5 else { return nil }
            if Swift.max(abs(step.x), abs(step.y)) <= ExactSurface.stepTolerance {
                converged = true
                break
            }
        }
        let slack = 1e-9
        guard converged, uv.x >= -slack, uv.x <= 1 + slack, uv.y >= -slack, uv.y <= 1 + slack else { return nil }
        let point = patch.evaluate(u: uv.x, v: uv.y)
        let p = point.to * pointScale
        guard let (r, _, _) = residual(p, point.toU * pointScale, point.toV * pointScale),
            (r * r).sum().squareRoot() <= 1e-7 * Swift.max(1, p.length)
        else { return nil }
        var refined = hit
        refined.position = p
        refined.from = point.from
        refined.normal = (point.toU * pointScale).cross(point.toV * pointScale).normalized(or: hit.normal)
        refined.quad = q
        refined.patchParameter = uv
        refined.isExact = true
        return refined
    }

    /// The hit's (u, v) in its sub-quad, from the triangle's corners and the barycentric weights.
    func startParameter(_ hit: RayHit, grid: TessellationGrid, mesh: TriangleMesh) -> SIMD2<Double>? {
        let corners: [SIMD2<Double>] = [SIMD2(0, 0), SIMD2(1, 0), SIMD2(1, 1), SIMD2(0, 1)]
        let k = hit.triangle % grid.trianglesPerQuad
        let params: [SIMD2<Double>]
        switch grid.trianglesPerQuad {
        case 4:
            // Centre policy: (c_k, c_{k+1}, centre).
            params = [corners[k], corners[(k + 1) % 4], SIMD2(0.5, 0.5)]
        case 2:
            // First diagonal: (c0, c1, c2), (c0, c2, c3); second: (c0, c1, c3), (c1, c2, c3). The pair
            // shares c0 and c2 exactly when the first diagonal was used.
            let base = hit.triangle - k
            let t0 = mesh.triangles[base], t1 = mesh.triangles[base + 1]
            let first = t0.x == t1.x && t0.z == t1.y
            if first {
                params = k == 0 ? [corners[0], corners[1], corners[2]] : [corners[0], corners[2], corners[3]]
            } else {
                params = k == 0 ? [corners[0], corners[1], corners[3]] : [corners[1], corners[2], corners[3]]
            }
        default:
            return nil
        }
        let w = hit.barycentric
        return w.x * params[0] + w.y * params[1] + w.z * params[2]
    }
}
