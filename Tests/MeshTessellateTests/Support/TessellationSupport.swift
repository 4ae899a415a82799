import MeshTessellate
import SurfaceKit
import TestSupport
import Testing

/// Helpers for TessellationTests: a seeded generator, vector arithmetic written out here, and
/// mesh builders. Everything lives in one namespace so that other test files of this module can
/// define helpers of their own without clashes.
enum TessSupport {
    /// The tests' seeded generator (one copy for all test targets, in TestSupport).
    typealias Random = SplitMix64

    // MARK: Vector arithmetic (written out, not taken from SurfaceKit)

    static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }

    static func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        a.x * b.x + a.y * b.y + a.z * b.z
    }

    static func norm(_ a: SIMD3<Double>) -> Double { dot(a, a).squareRoot() }

    static func unit(_ a: SIMD3<Double>) -> SIMD3<Double> { a / norm(a) }

    /// Signed area of the 2D triangle (a, b, c); positive when it turns counter-clockwise in a
    /// frame with x right and y up, i.e. when (b − a) × (c − a) has positive z.
    static func signedArea(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ c: SIMD2<Double>) -> Double {
        0.5 * ((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x))
    }

    /// |a − b| ≤ tolerance · max(1, |a|, |b|) for each component.
    static func close(_ a: SIMD3<Double>, _ b: SIMD3<Double>, relative tolerance: Double) -> Bool {
        for k in 0..<3 {
            let scale = max(1, abs(a[k]), abs(b[k]))
            if !(abs(a[k] - b[k]) <= tolerance * scale) { return false }
        }
        return true
    }

    static func close(_ a: SIMD2<Double>, _ b: SIMD2<Double>, tolerance: Double) -> Bool {
        abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
    }

    /// Whether two layer points lie on the same side of the unit square's border.
    static func onSameBorder(_ a: SIMD2<Double>, _ b: SIMD2<Double>, tolerance: Double = 1e-12) -> Bool {
        for k in 0..<2 {
            let u: Double = a[k], v: Double = b[k]
            if abs(u) <= tolerance && abs(v) <= tolerance { return true }
            if abs(u - 1) <= tolerance && abs(v - 1) <= tolerance { return true }
        }
        return false
    }

    // MARK: Meshes

    /// An R × C grid (vertex (i, j) at index i·(C+1)+j, `from` = (j/C, i/R)) whose `to` is
    /// `(from, 0)` moved by `jitter` cells in x, y and by up to `depth` in z, seeded.
    static func jitteredGrid(
        rows: Int, columns: Int, seed: UInt64, jitter: Double, depth: Double,
        depthNormalization: DepthNormalization = .none
    ) throws -> MeshTransform {
        var rng = Random(seed: seed)
        let grid = try MeshTransform.identity(rows: rows, columns: columns, depthNormalization: depthNormalization)
        return try grid.mappingVertices { v, _ in
            let dx = jitter / Double(columns) * rng.uniform(-1...1)
            let dy = jitter / Double(rows) * rng.uniform(-1...1)
            let dz = depth * rng.uniform(-1...1)
            return MeshVertex(from: v.from, to: Point3D(v.to.x + dx, v.to.y + dy, dz))
        }
    }

    /// The undirected edges of the triangles with the number of triangles using each.
    static func edgeUse(_ triangles: [SIMD3<Int32>]) -> [SIMD2<Int32>: Int] {
        var use: [SIMD2<Int32>: Int] = [:]
        for t in triangles {
            for k in 0..<3 {
                let a = t[k], b = t[(k + 1) % 3]
                use[SIMD2(min(a, b), max(a, b)), default: 0] += 1
            }
        }
        return use
    }

    /// The directed edges a → b of the triangles (each triangle contributes three), with counts.
    static func directedEdgeUse(_ triangles: [SIMD3<Int32>]) -> [SIMD2<Int32>: Int] {
        var use: [SIMD2<Int32>: Int] = [:]
        for t in triangles {
            for k in 0..<3 { use[SIMD2(t[k], t[(k + 1) % 3]), default: 0] += 1 }
        }
        return use
    }

    /// A triangle as a sequence of three labels, rotated so the smallest label comes first (the
    /// cyclic order, and so the orientation, is kept).
    static func canonical(_ t: [Int]) -> [Int] {
        let k = t.firstIndex(of: t.min()!)!
        return [t[k], t[(k + 1) % 3], t[(k + 2) % 3]]
    }

    /// The triangles as sorted canonical label triples.
    static func canonicalSet(_ triangles: [[Int]]) -> [[Int]] {
        triangles.map(canonical).sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// Splits OBJ text into lines of whitespace-separated fields.
    static func objLines(_ bytes: [UInt8]) -> [[Substring]] {
        String(decoding: bytes, as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: true)
            .map { $0.split(separator: " ") }
    }
}
