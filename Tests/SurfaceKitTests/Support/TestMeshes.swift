import Foundation
import TestSupport

@testable import SurfaceKit

// Control meshes the fast-path and positions tests share.

/// A rows × columns grid with jittered positions and random per-face weights (a rational surface).
func jitteredGrid(rows: Int, columns: Int, seed: UInt64) -> (vertices: [MeshVertex], faces: [MeshFace]) {
    var rng = SplitMix64(seed: seed)
    var vertices: [MeshVertex] = []
    for r in 0...rows {
        for c in 0...columns {
            let u = Double(c) / Double(columns), v = Double(r) / Double(rows)
            vertices.append(
                MeshVertex(
                    from: SIMD2(u + 0.01 * rng.uniform(-1...1), v + 0.01 * rng.uniform(-1...1)),
                    to: SIMD3(u + 0.02 * rng.uniform(-1...1), v + 0.02 * rng.uniform(-1...1), 0.1 * rng.uniform(-1...1))))
        }
    }
    var faces: [MeshFace] = []
    for r in 0..<rows {
        for c in 0..<columns {
            let a = r * (columns + 1) + c
            let w = SIMD4(rng.uniform(0.5...2), rng.uniform(0.5...2), rng.uniform(0.5...2), rng.uniform(0.5...2))
            faces.append(MeshFace(a, a + 1, a + columns + 2, a + columns + 1, weights: w))
        }
    }
    return (vertices, faces)
}

/// A disc of `sectors` sectors of m × m faces around one centre vertex: the centre is an interior
/// vertex of valence `sectors`, the rim a boundary with corners where the sectors' outer corners are.
func fan(sectors k: Int, size m: Int, seed: UInt64) -> (vertices: [MeshVertex], faces: [MeshFace]) {
    var rng = SplitMix64(seed: seed)
    var index: [String: Int] = [:]
    var vertices: [MeshVertex] = []
    func ray(_ s: Int) -> SIMD2<Double> {
        let a = 2 * Double.pi * Double(s % k) / Double(k)
        return SIMD2(cos(a), sin(a))
    }
    // Point (i, j) of sector s lies at i·ray(s) + j·ray(s+1); the rays are shared with neighbours.
    func vertex(_ s: Int, _ i: Int, _ j: Int) -> Int {
        let key = i == 0 && j == 0 ? "centre" : (j == 0 ? "ray\(s % k):\(i)" : (i == 0 ? "ray\((s + 1) % k):\(j)" : "s\(s):\(i),\(j)"))
        if let known = index[key] { return known }
        let p = SIMD2(0.5, 0.5) + 0.4 * (Double(i) * ray(s) + Double(j) * ray(s + 1)) / Double(m)
        index[key] = vertices.count
        vertices.append(
            MeshVertex(
                from: p + 0.01 * SIMD2(rng.uniform(-1...1), rng.uniform(-1...1)),
                to: SIMD3(p.x + 0.02 * rng.uniform(-1...1), p.y + 0.02 * rng.uniform(-1...1), 0.1 * rng.uniform(-1...1))))
        return vertices.count - 1
    }
    var faces: [MeshFace] = []
    for s in 0..<k {
        for j in 0..<m {
            for i in 0..<m {
                let w = SIMD4(rng.uniform(0.5...2), rng.uniform(0.5...2), rng.uniform(0.5...2), rng.uniform(0.5...2))
                faces.append(MeshFace(vertex(s, i, j), vertex(s, i + 1, j), vertex(s, i + 1, j + 1), vertex(s, i, j + 1), weights: w))
            }
        }
    }
    return (vertices, faces)
}

/// The rational bicubic B-spline patch of face (row, column) of a rows × columns grid of control
/// vertices (row-major, (columns + 1) a row), with the grid extended by one row and column of
/// phantom points on every side: P₋₁ = 2·P₀ − P₁ (rows first, then the columns of the extended
/// rows, which makes the corners 4·P₀₀ − 2·P₁₀ − 2·P₀₁ + P₁₁).
func mirroredGridPatch(
    vertices: [MeshVertex], weights: [Double], rows: Int, columns: Int, row: Int, column: Int
) -> RationalBicubicPatch {
    func control(_ r: Int, _ c: Int) -> HomogeneousPoint {
        let v = vertices[r * (columns + 1) + c], w = weights[r * (columns + 1) + c]
        return HomogeneousPoint(from: v.from, to: v.to, weight: w)
    }
    func alongRow(_ r: Int, _ c: Int) -> HomogeneousPoint {
        if c < 0 { return 2 * control(r, 0) - control(r, 1) }
        if c > columns { return 2 * control(r, columns) - control(r, columns - 1) }
        return control(r, c)
    }
    func extended(_ r: Int, _ c: Int) -> HomogeneousPoint {
        if r < 0 { return 2 * alongRow(0, c) - alongRow(1, c) }
        if r > rows { return 2 * alongRow(rows, c) - alongRow(rows - 1, c) }
        return alongRow(r, c)
    }
    return RationalBicubicPatch(control: (0..<4).map { a in (0..<4).map { b in extended(row - 1 + b, column - 1 + a) } })
}
