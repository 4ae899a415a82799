import RealModule

/// A 4 × 4 homogeneous transform laid out as Core Animation's `CATransform3D`.
///
/// Points are row vectors: `[x y z 1] · M`, then divided by w. `m41…m43` translate, `m34 = −1/d`
/// puts a perspective eye at z = d, and `a.concatenating(b)` applies `a` first, then `b`
/// (`CATransform3DConcat(a, b)`).
public struct Transform3D: Hashable, Sendable {
    /// Rows of the matrix: `row1 = (m11, m12, m13, m14)` and so on.
    public var row1: SIMD4<Double>
    public var row2: SIMD4<Double>
    public var row3: SIMD4<Double>
    public var row4: SIMD4<Double>

    public init(row1: SIMD4<Double>, row2: SIMD4<Double>, row3: SIMD4<Double>, row4: SIMD4<Double>) {
        self.row1 = row1
        self.row2 = row2
        self.row3 = row3
        self.row4 = row4
    }

    /// The matrix from its 16 entries in CATransform3D order `m11, m12, …, m44`.
    /// Returns `nil` unless there are exactly 16.
    public init?(elements: [Double]) {
        guard elements.count == 16 else { return nil }
        row1 = SIMD4(elements[0], elements[1], elements[2], elements[3])
        row2 = SIMD4(elements[4], elements[5], elements[6], elements[7])
        row3 = SIMD4(elements[8], elements[9], elements[10], elements[11])
        row4 = SIMD4(elements[12], elements[13], elements[14], elements[15])
    }

    /// The 16 entries in CATransform3D order `m11, m12, …, m44`.
    public var elements: [Double] {
        [row1, row2, row3, row4].flatMap { [$0.x, $0.y, $0.z, $0.w] }
    }

    public static let identity = Transform3D(
        row1: SIMD4(1, 0, 0, 0), row2: SIMD4(0, 1, 0, 0),
        row3: SIMD4(0, 0, 1, 0), row4: SIMD4(0, 0, 0, 1))

    /// `CATransform3DMakeTranslation`.
    public static func translation(_ tx: Double, _ ty: Double, _ tz: Double) -> Transform3D {
        var m = identity
        m.row4 = SIMD4(tx, ty, tz, 1)
        return m
    }

    /// `CATransform3DMakeScale`.
    public static func scale(_ sx: Double, _ sy: Double, _ sz: Double) -> Transform3D {
        Transform3D(
            row1: SIMD4(sx, 0, 0, 0), row2: SIMD4(0, sy, 0, 0),
            row3: SIMD4(0, 0, sz, 0), row4: SIMD4(0, 0, 0, 1))
    }

    /// `CATransform3DMakeRotation(angle, x, y, z)`: a right-handed rotation by `angle` radians about
    /// the axis (x, y, z). A zero axis gives the identity, as in Core Animation.
    public static func rotation(angle: Double, axis: SIMD3<Double>) -> Transform3D {
        let len = axis.length
        guard len > 0, len.isFinite else { return identity }
        let u = axis / len
        let c = Double.cos(angle), s = Double.sin(angle), t = 1 - c
        // Column-vector rotation R (Rodrigues); the row-vector matrix is its transpose.
        let r11 = t * u.x * u.x + c, r12 = t * u.x * u.y - s * u.z, r13 = t * u.x * u.z + s * u.y
        let r21 = t * u.x * u.y + s * u.z, r22 = t * u.y * u.y + c, r23 = t * u.y * u.z - s * u.x
        let r31 = t * u.x * u.z - s * u.y, r32 = t * u.y * u.z + s * u.x, r33 = t * u.z * u.z + c
        return Transform3D(
            row1: SIMD4(r11, r21, r31, 0), row2: SIMD4(r12, r22, r32, 0),
            row3: SIMD4(r13, r23, r33, 0), row4: SIMD4(0, 0, 0, 1))
    }

    /// A perspective with the eye at z = `eyeDistance` (sets `m34 = −1/eyeDistance`).
    public static func perspective(eyeDistance: Double) -> Transform3D {
        var m = identity
        m.m34 = -1 / eyeDistance
        return m
    }

    /// `m34`, the entry that makes perspective.
    public var m34: Double {
        get { row3.w }
        set { row3.w = newValue }
    }

    /// `self · other`: apply `self` first, then `other` (`CATransform3DConcat(self, other)`).
    public func concatenating(_ other: Transform3D) -> Transform3D {
        Transform3D(
            row1: other.apply(row1), row2: other.apply(row2),
            row3: other.apply(row3), row4: other.apply(row4))
    }

    /// The row vector `v · M`.
    @inlinable
    public func apply(_ v: SIMD4<Double>) -> SIMD4<Double> {
        v.x * row1 + v.y * row2 + v.z * row3 + v.w * row4
    }

    /// `[p 1] · M`, before the divide by w.
    @inlinable
    public func applyHomogeneous(_ p: SIMD3<Double>) -> SIMD4<Double> {
        p.x * row1 + p.y * row2 + p.z * row3 + row4
    }

    /// The determinant.
    public var determinant: Double {
        let m = self.elements
        return Transform3D.det4(m)
    }

    /// The inverse, or `nil` when the matrix is singular (or too close to singular to invert in
    /// floating point).
    public var inverse: Transform3D? {
        let m = elements
        let det = Transform3D.det4(m)
        guard det != 0, det.isFinite else { return nil }
        var inv = [Double](repeating: 0, count: 16)
        for r in 0..<4 {
            for c in 0..<4 {
                // inv[r][c] = cofactor(c, r) / det
                let minor = Transform3D.minor3(m, skipRow: c, skipColumn: r)
                let sign: Double = (r + c) % 2 == 0 ? 1 : -1
                inv[r * 4 + c] = sign * minor / det
            }
        }
        guard inv.allSatisfy(\.isFinite) else { return nil }
        return Transform3D(elements: inv)
    }

    /// How a normal (a row vector) is carried by the linear part A (upper-left 3 × 3) of this
    /// transform: `n · cof(A)`, which is `n · (A⁻¹)ᵀ` up to the positive factor |det A|. It stays
    /// defined for a singular A (the all-zero transform gives the zero vector).
    public func transformNormal(_ n: SIMD3<Double>) -> SIMD3<Double> {
        let a1 = SIMD3(row1.x, row1.y, row1.z)
        let a2 = SIMD3(row2.x, row2.y, row2.z)
        let a3 = SIMD3(row3.x, row3.y, row3.z)
        // Rows of cof(A) are the cross products of pairs of rows of A.
        let c1 = cross(a2, a3), c2 = cross(a3, a1), c3 = cross(a1, a2)
        let det = dot(a1, c1)
        let v = n.x * c1 + n.y * c2 + n.z * c3
        return det < 0 ? -v : v
    }
}

extension Transform3D {
    static func minor3(_ m: [Double], skipRow: Int, skipColumn: Int) -> Double {
        var a = [Double]()
        a.reserveCapacity(9)
        for r in 0..<4 where r != skipRow {
            for c in 0..<4 where c != skipColumn {
                a.append(m[r * 4 + c])
            }
        }
        return a[0] * (a[4] * a[8] - a[5] * a[7])
            - a[1] * (a[3] * a[8] - a[5] * a[6])
            + a[2] * (a[3] * a[7] - a[4] * a[6])
    }

    static func det4(_ m: [Double]) -> Double {
        var det = 0.0
        for c in 0..<4 {
            let sign: Double = c % 2 == 0 ? 1 : -1
            det += sign * m[c] * minor3(m, skipRow: 0, skipColumn: c)
        }
        return det
    }
}
