import Foundation
import SurfaceKit

/// Helpers for HitTestingTests, written independently of the code under test: a row-vector
/// projection (Docs/surface.md, "Spaces"), transforms from their matrix entries, a rational bicubic B-spline patch
/// (copied from SurfaceKitTests' BSpline.swift) and mesh builders.
enum HitSupport {
    /// `[p − a, 1] · M`, divided by w, plus a, with M given by its 16 entries m11…m44.
    static func project(_ p: SIMD3<Double>, matrix m: [Double], anchor a: SIMD3<Double>) -> (screen: SIMD3<Double>, w: Double) {
        let q = p - a
        var h = [Double](repeating: 0, count: 4)
        for c in 0..<4 {
            h[c] = q.x * m[c] + q.y * m[4 + c] + q.z * m[8 + c] + m[12 + c]
        }
        return (SIMD3(h[0], h[1], h[2]) / h[3] + a, h[3])
    }

    /// The product of two matrices given by entries, row-vector convention: apply `a` first.
    static func multiply(_ a: [Double], _ b: [Double]) -> [Double] {
        var r = [Double](repeating: 0, count: 16)
        for i in 0..<4 {
            for j in 0..<4 {
                for k in 0..<4 { r[4 * i + j] += a[4 * i + k] * b[4 * k + j] }
            }
        }
        return r
    }

    /// A rotation by `angle` about x as row-vector entries: y' = y cos − z sin, z' = y sin + z cos.
    static func rotationX(_ angle: Double) -> [Double] {
        let c = cos(angle), s = sin(angle)
        return [1, 0, 0, 0, 0, c, s, 0, 0, -s, c, 0, 0, 0, 0, 1]
    }

    /// A rotation by `angle` about y: x' = x cos + z sin, z' = −x sin + z cos.
    static func rotationY(_ angle: Double) -> [Double] {
        let c = cos(angle), s = sin(angle)
        return [c, 0, -s, 0, 0, 1, 0, 0, s, 0, c, 0, 0, 0, 0, 1]
    }

    /// A perspective with the eye at z = d: m34 = −1/d.
    static func perspective(_ d: Double) -> [Double] {
        [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -1 / d, 0, 0, 0, 1]
    }

    static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }

    static func maxDiff(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double { max(abs(a.x - b.x), abs(a.y - b.y)) }
    static func maxDiff(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        max(abs(a.x - b.x), abs(a.y - b.y), abs(a.z - b.z))
    }

    /// An R × C grid, vertex (i, j) at index i·(C+1)+j with from = (j/C, i/R) and to = (from, z),
    /// z a gentle seeded bump; face (i, j) = (v(i,j), v(i,j+1), v(i+1,j+1), v(i+1,j)) with corner
    /// weights taken from per-vertex weights (so all faces agree: NURBS weights).
    static func grid(
        rows: Int, columns: Int, seed: UInt64, depth: Double, weights: ClosedRange<Double> = 1...1
    ) throws -> (mesh: MeshTransform, weights: [Double]) {
        var rng = Random(seed: seed)
        var vertices: [MeshVertex] = []
        var w: [Double] = []
        for i in 0...rows {
            for j in 0...columns {
                let x = Double(j) / Double(columns), y = Double(i) / Double(rows)
                let z = depth * (sin(3 * x + 1) * cos(2 * y) + 0.3 * rng.uniform(-1...1))
                vertices.append(MeshVertex(from: SIMD2(x, y), to: SIMD3(x, y, z)))
                w.append(rng.uniform(weights))
            }
        }
        var faces: [MeshFace] = []
        for i in 0..<rows {
            for j in 0..<columns {
                let a = i * (columns + 1) + j, b = a + 1, c = a + columns + 2, d = a + columns + 1
                faces.append(MeshFace(a, b, c, d, weights: SIMD4(w[a], w[b], w[c], w[d])))
            }
        }
        return (try MeshTransform(vertices: vertices, faces: faces, depthNormalization: .none), w)
    }

    /// The module's seeded generator (SplitMix64), shared with the tessellation tests.
    typealias Random = TessSupport.Random

    /// The uniform cubic B-spline basis on one knot interval, written out as polynomials.
    static func basis(_ t: Double) -> [Double] {
        let s = 1 - t
        return [s * s * s / 6, (3 * t * t * t - 6 * t * t + 4) / 6, (-3 * t * t * t + 3 * t * t + 3 * t + 1) / 6, t * t * t / 6]
    }

    /// The rational bicubic patch of a 4 × 4 block of control vertices with weights:
    /// `control[a][b]` with a along u (columns), b along v (rows). Returns from and to (unit).
    static func patchPoint(
        control: [[MeshVertex]], weights: [[Double]], u: Double, v: Double
    ) -> (from: SIMD2<Double>, to: SIMD3<Double>) {
        let bu = basis(u), bv = basis(v)
        var from = SIMD2<Double>(), to = SIMD3<Double>(), w = 0.0
        for a in 0..<4 {
            for b in 0..<4 {
                let k = bu[a] * bv[b] * weights[a][b]
                from += k * control[a][b].from
                to += k * control[a][b].to
                w += k
            }
        }
        return (from / w, to / w)
    }
}
