/// The one NURBS surface of a grid mesh, with the boundary rule folded into clamped knots.
///
/// Along one direction the grid's limit surface is the uniform cubic B-spline of the control
/// points P₀ … Pₙ (n faces) extended by the edge-and-corner phantoms P₋₁ = 2P₀ − P₁ and
/// Pₙ₊₁ = 2Pₙ − Pₙ₋₁, on the parameters 0 … n (face j covering [j, j+1]). Its clamped form, knots
/// 0,0,0,0, 1, 2, …, n−1, n,n,n,n, has n + 3 control points Q, each the blossom of the spline at
/// three consecutive knots (Qₖ = f(tₖ₊₁, tₖ₊₂, tₖ₊₃)):
///
/// - Q₀ = f(0,0,0) = (P₋₁ + 4P₀ + P₁)/6 = P₀ (the phantom makes the end point the corner);
/// - Q₁ = f(0,0,1) = (2P₀ + P₁)/3;
/// - Qₖ = f(k−1, k, k+1) = Pₖ₋₁ for 2 ≤ k ≤ n (a uniform control point is the blossom at its
///   three middle knots);
/// - Qₙ₊₁ = (Pₙ₋₁ + 2Pₙ)/3 and Qₙ₊₂ = Pₙ, by symmetry.
///
/// For n = 1 the list reads P₀, (2P₀ + P₁)/3, (P₀ + 2P₁)/3, P₁: the Bézier form of the one span.
/// Every Q is a combination of the Pₖ with non-negative coefficients, so weights stay positive.
/// The rational surface is the tensor product of this conversion applied to homogeneous values.
enum ClampedGridSurface {
    /// The clamped control points of the phantom-extended uniform spline of `p` (at least 2 points).
    static func clamped(_ p: [SIMD4<Double>]) -> [SIMD4<Double>] {
        let n = p.count - 1
        var q = [p[0], (2 * p[0] + p[1]) / 3]
        if n >= 2 { q += p[1..<n] }
        q += [(p[n - 1] + 2 * p[n]) / 3, p[n]]
        return q
    }

    /// Knots 0,0,0,0, 1, …, n−1, n,n,n,n for n spans.
    static func knots(spans n: Int) -> [Double] {
        [0, 0, 0] + (0...n).map(Double.init) + [Double(n), Double(n), Double(n)]
    }

    /// The surface over the grid, parameters u ∈ [0, columns], v ∈ [0, rows].
    static func net(layout: GridLayout, control: [SIMD4<Double>]) -> HomogeneousNet {
        let rows = layout.rows, columns = layout.columns
        let cu = columns + 3, cv = rows + 3
        var alongU = [SIMD4<Double>]()
        alongU.reserveCapacity((rows + 1) * cu)
        for i in 0...rows {
            alongU += clamped((0...columns).map { control[layout.vertices[i * (columns + 1) + $0]] })
        }
        var values = [SIMD4<Double>](repeating: .zero, count: cu * cv)
        for j in 0..<cu {
            let column = clamped((0...rows).map { alongU[$0 * cu + j] })
            for i in 0..<cv { values[i * cu + j] = column[i] }
        }
        return HomogeneousNet(
            countU: cu, countV: cv, knotsU: knots(spans: columns), knotsV: knots(spans: rows), values: values)
    }
}
