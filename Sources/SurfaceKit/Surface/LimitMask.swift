import RealModule

/// Weights that take a vertex and its ordered ring (``TopologyLevel/orderedRing(_:into:)``) to the
/// limit position and two limit tangents at that vertex. Index 0 is the vertex itself, then the ring.
struct LimitMask: Sendable {
    var position: [Double]
    var tangent1: [Double]
    var tangent2: [Double]

    /// Interior vertex of valence n ≥ 3, ring `e₀ f₀ … e₍ₙ₋₁₎ f₍ₙ₋₁₎`.
    ///
    /// Position `(n² v + 4 Σ eᵢ + Σ fᵢ) / (n (n + 5))`. Tangents (Halstead, Kass and DeRose 1993):
    /// `Σ Aₙ cos(2πi/n) eᵢ + (cos(2πi/n) + cos(2π(i+1)/n)) fᵢ` and the same with sines, where
    /// `Aₙ = 1 + cos(2π/n) + cos(π/n) √(2 (9 + cos(2π/n)))`. For n = 4 this is the bicubic
    /// B-spline's derivative pair, up to a common factor.
    static func smooth(valence n: Int) -> LimitMask {
        let nd = Double(n)
        let denom = nd * (nd + 5)
        var p = [nd * nd / denom], t1 = [0.0], t2 = [0.0]
        let theta = 2 * Double.pi / nd
        let an = 1 + Double.cos(theta) + Double.cos(theta / 2) * Double.sqrt(2 * (9 + Double.cos(theta)))
        for i in 0..<n {
            let a = Double(i) * theta, b = Double(i + 1) * theta
            p += [4 / denom, 1 / denom]
            t1 += [an * Double.cos(a), Double.cos(a) + Double.cos(b)]
            t2 += [an * Double.sin(a), Double.sin(a) + Double.sin(b)]
        }
        return LimitMask(position: p, tangent1: t1, tangent2: t2)
    }

    /// Interior vertex of valence 2, ring `e₀ f₀ e₁ f₁`: the position rule as for other valences;
    /// the tangents of the two edges, as at a corner (the smooth tangent masks degenerate here).
    static func smoothValenceTwo() -> LimitMask {
        let denom = 2.0 * 7
        return LimitMask(
            position: [4 / denom, 4 / denom, 1 / denom, 4 / denom, 1 / denom],
            tangent1: [-1, 1, 0, 0, 0],
            tangent2: [-1, 0, 0, 1, 0])
    }

    /// Boundary vertex with k ≥ 2 faces, ring `e₀ f₀ e₁ … f₍ₖ₋₁₎ eₖ` (e₀ and eₖ on the boundary).
    ///
    /// Position: the boundary B-spline curve's `(e₀ + 4v + eₖ) / 6`. Along: `(e₀ − eₖ) / 2`, an exact
    /// eigen-direction (eigenvalue ½) since boundary edge points are midpoints. Across (into the
    /// surface): for k = 2 the regular B-spline cross derivative; for k ≥ 3 the left eigenvector of
    /// the largest subdominant eigenvalue of the ring's subdivision matrix under the rules this
    /// package refines with. (The closed-form Biermann–Levin–Zorin tangent, which OpenSubdiv uses, is
    /// exact only for the modified boundary rules it was derived for; under the standard rules it is
    /// off by up to 10⁻³ rad at k = 3.) For k ≥ 4 the standard rules have further eigenvalues at or
    /// above ½, so the surface has no single tangent plane there and this normal is the one spanned
    /// by the boundary and the dominant cross direction.
    static func boundary(faces k: Int) -> LimitMask {
        var mask = closedFormBoundary(faces: k)
        if k >= 3, let across = eigenAcrossTangent(faces: k) {
            mask.tangent2 = across
        }
        return mask
    }

    /// The ring's subdivision matrix for a boundary vertex with k faces, rows and columns in ring
    /// order (v, e₀, f₀, e₁, …, f₍ₖ₋₁₎, eₖ): the child ring as combinations of the parent ring.
    static func boundaryRingMatrix(faces k: Int) -> [Double] {
        let n = 2 * k + 2
        var s = [Double](repeating: 0, count: n * n)
        let v = 0
        func e(_ i: Int) -> Int { 1 + 2 * i }
        func f(_ i: Int) -> Int { 2 + 2 * i }
        func add(_ row: Int, _ col: Int, _ w: Double) { s[row * n + col] += w }
        func addFacePoint(_ row: Int, _ i: Int, _ w: Double) {
            for c in [v, e(i), f(i), e(i + 1)] { add(row, c, w / 4) }
        }
        add(v, v, 6.0 / 8)
        add(v, e(0), 1.0 / 8)
        add(v, e(k), 1.0 / 8)
        for i in 0...k {
            if i == 0 || i == k {
                add(e(i), v, 0.5)
                add(e(i), e(i), 0.5)
            } else {
                add(e(i), v, 0.25)
                add(e(i), e(i), 0.25)
                addFacePoint(e(i), i - 1, 0.25)
                addFacePoint(e(i), i, 0.25)
            }
        }
        for i in 0..<k { addFacePoint(f(i), i, 1) }
        return s
    }

    /// The across tangent for k ≥ 3 from the ring matrix, oriented into the surface; `nil` if LAPACK
    /// cannot provide it.
    static func eigenAcrossTangent(faces k: Int) -> [Double]? {
        let n = 2 * k + 2
        guard let pairs = Eigen.realLeftEigenpairs(of: boundaryRingMatrix(faces: k), n: n) else { return nil }
        // Skip the eigenvalue 1 (position); the next real one with an eigenvector that is not the
        // boundary's own (antisymmetric, weight on e₀ and eₖ only) is the cross direction.
        for pair in pairs where pair.value < 1 - 1e-9 {
            let l = pair.vector
            let interior = (1..<k).reduce(0.0) { $0 + l[1 + 2 * $1] }
            guard abs(interior) > 1e-9 else { continue }
            return interior > 0 ? l : l.map { -$0 }
        }
        return nil
    }

    static func closedFormBoundary(faces k: Int) -> LimitMask {
        let size = 1 + 2 * k + 1
        var p = [Double](repeating: 0, count: size)
        var t1 = p, t2 = p
        let first = 1, last = size - 1
        p[0] = 4.0 / 6
        p[first] = 1.0 / 6
        p[last] = 1.0 / 6
        t1[first] = 0.5
        t1[last] = -0.5
        let kd = Double(k)
        let theta = Double.pi / kd
        let c = Double.cos(theta), s = Double.sin(theta)
        let common = 1 / (kd * (3 + c))
        let r = (c + 1) / s
        t2[0] = 4 * r * (c - 1) * common
        t2[first] = -r * (1 + 2 * c) * common
        t2[last] = -r * (1 + 2 * c) * common
        for i in 0..<k {
            // ring slot of eᵢ is 1 + 2i, of fᵢ is 2 + 2i
            if i > 0 { t2[1 + 2 * i] = 4 * Double.sin(Double(i) * theta) * common }
            t2[2 + 2 * i] = (Double.sin(Double(i) * theta) + Double.sin(Double(i + 1) * theta)) * common
        }
        return LimitMask(position: p, tangent1: t1, tangent2: t2)
    }

    /// A corner of a single face, ring `e₀ f₀ e₁` (next, opposite, previous corner): the vertex
    /// itself, with the two boundary curves' end tangents.
    static func corner() -> LimitMask {
        LimitMask(position: [1, 0, 0, 0], tangent1: [-1, 1, 0, 0], tangent2: [-1, 0, 0, 1])
    }
}
