import SurfaceKit

extension Tessellator {
    /// Two diagonals compare equal when their lengths differ by no more than this fraction; the tie
    /// rule then decides, so that rounding cannot flip a symmetric case.
    static let tieTolerance = 1e-12

    /// Triangles for every sub-quad of the plan, in quad order. `points` (points space) are needed by
    /// `shortest` and `surface`, `centers` by `surface` and `center` (whose centre vertices follow the
    /// points: quad q's centre is vertex `pointCount + q`).
    ///
    /// The listing is a contract the exact painter's sort builds on (for speed, never for the
    /// result): quad q's two triangles are 2q and 2q + 1 (four, 4q to 4q + 3 around its centre,
    /// with `center`), they share the quad's diagonal, run the other way in each, so the pair winds
    /// as the quad does, and the quads of a control face follow one another row by row, so a quad
    /// shares a side with the quad listed just before it and with the quad a row back, the same
    /// number of quads back throughout the face. `OverlapCandidates.keptRuns` cancels those shared
    /// sides before its counting sort; a listing of any other kind gives the same draw order, more
    /// slowly. `TessellatorListingTests` checks the contract on real output.
    static func triangulate(
        plan: SubdivisionPlan, policy: DiagonalPolicy, points: [Point3D], centers: [Point3D]?
    ) -> [SIMD3<Int32>] {
        let quads = plan.quadCount
        var result = [SIMD3<Int32>]()
        result.reserveCapacity(quads * policy.trianglesPerQuad)
        let base = Int32(plan.pointCount)
        for q in 0..<quads {
            let c = plan.quad(q)
            switch policy {
            case .center:
                let m = base + Int32(q)
                result.append(SIMD3(c[0], c[1], m))
                result.append(SIMD3(c[1], c[2], m))
                result.append(SIMD3(c[2], c[3], m))
                result.append(SIMD3(c[3], c[0], m))
            default:
                if useFirstDiagonal(policy: policy, corners: c, points: points, center: centers?[q]) {
                    result.append(SIMD3(c[0], c[1], c[2]))
                    result.append(SIMD3(c[0], c[2], c[3]))
                } else {
                    result.append(SIMD3(c[0], c[1], c[3]))
                    result.append(SIMD3(c[1], c[2], c[3]))
                }
            }
        }
        return result
    }

    /// Whether the quad is split along corners 0–2 (else 1–3).
    static func useFirstDiagonal(
        policy: DiagonalPolicy, corners c: SIMD4<Int32>, points: [Point3D], center: Point3D?
    ) -> Bool {
        switch policy {
        case .first, .center:
            return true
        case .second:
            return false
        case .shortest:
            return shorterIsFirst(corners: c, points: points)
        case .surface:
            guard let center else { return shorterIsFirst(corners: c, points: points) }
            let p0 = points[Int(c[0])], p1 = points[Int(c[1])], p2 = points[Int(c[2])], p3 = points[Int(c[3])]
            let d02 = ((p0 + p2) / 2 - center).length
            let d13 = ((p1 + p3) / 2 - center).length
            if abs(d02 - d13) <= tieTolerance * max(d02, d13, (p0 - p2).length, (p1 - p3).length) {
                return shorterIsFirst(corners: c, points: points)
            }
            return d02 < d13
        }
    }

    static func shorterIsFirst(corners c: SIMD4<Int32>, points: [Point3D]) -> Bool {
        let d02 = (points[Int(c[0])] - points[Int(c[2])]).length
        let d13 = (points[Int(c[1])] - points[Int(c[3])]).length
        return d13 >= d02 - tieTolerance * max(d02, d13)
    }
}
