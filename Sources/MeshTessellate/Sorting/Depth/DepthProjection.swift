import SurfaceKit

/// The screen depth of points-space positions, two at a time: the z and w lanes of
/// `LayerGeometry.clipCoordinates` (`[p − a, 1] · M`), then z / w + the anchor's z, NaN where
/// w ≤ `LayerGeometry.clipW` (at or behind the eye, or not a number).
///
/// Every lane takes the same operations in the same order as `clipCoordinates` and
/// `SortPool.screen`, so each depth has their bits; the two divisions are one packed division,
/// which takes about as long as one scalar division on the cores measured (the projection's
/// slowest instruction).
struct DepthProjection {
    let anchor: Point3D
    /// Rows of the transform, their z and w lanes.
    let r1: SIMD2<Double>, r2: SIMD2<Double>, r3: SIMD2<Double>, r4: SIMD2<Double>

    init(geometry: LayerGeometry) {
        anchor = geometry.anchorInPoints
        let m = geometry.transform
        r1 = SIMD2(m.row1.z, m.row1.w)
        r2 = SIMD2(m.row2.z, m.row2.w)
        r3 = SIMD2(m.row3.z, m.row3.w)
        r4 = SIMD2(m.row4.z, m.row4.w)
    }

    /// The depths of `p` and `q`.
    @inline(__always)
    func depths(_ p: Point3D, _ q: Point3D) -> SIMD2<Double> {
        let a = p - anchor, b = q - anchor
        let g = a.x * r1 + a.y * r2 + a.z * r3 + r4
        let h = b.x * r1 + b.y * r2 + b.z * r3 + r4
        let z = SIMD2(g.x, h.x), w = SIMD2(g.y, h.y)
        let depth = z / w + anchor.z
        return depth.replacing(with: .nan, where: .!(w .> LayerGeometry.clipW))
    }
}
