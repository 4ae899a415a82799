import Foundation
import SurfaceKit
import Testing

@testable import MeshTessellate

/// Meshes with irregular vertices, holes and closed pieces, and the checks automatic steps must pass
/// on them: watertightness by edge counting, and the distance to the limit surface measured against
/// uniform refinement (``SubdivisionPlan`` at a fixed level, its regular sub-quads evaluated as
/// B-spline patches), which shares nothing with the feature-adaptive isolation it checks.
enum IsolationSupport {
    static func document(_ vertices: [SIMD3<Double>], _ faces: [[Int]], size: Double = 100) throws -> MeshDocument {
        let mesh = try MeshTransform(
            vertices: vertices.map { MeshVertex(from: SIMD2($0.x, $0.y), to: $0) },
            faces: faces.map { MeshFace($0[0], $0[1], $0[2], $0[3]) }, depthNormalization: .width)
        return MeshDocument(mesh: mesh, layer: LayerProperties(size: SIMD2(size, size)))
    }

    /// Three quads in an L, bent: the inner corner is a boundary vertex with three faces.
    static func lShape() throws -> MeshDocument {
        var vertices: [SIMD3<Double>] = []
        for k in 0..<9 {
            let x = Double(k % 3), y = Double(k / 3)
            vertices.append(SIMD3(x / 2, y / 2, 0.1 * sin(x + y)))
        }
        return try document(vertices, [[0, 1, 4, 3], [1, 2, 5, 4], [3, 4, 7, 6]])
    }

    /// The cube: six faces, eight vertices of valence 3, closed.
    static func cube() throws -> MeshDocument {
        var vertices: [SIMD3<Double>] = []
        for k in 0..<8 {
            let x: Double = 0.25 + 0.5 * Double(k & 1)
            let y: Double = 0.25 + 0.5 * Double((k >> 1) & 1)
            let z: Double = 0.5 * Double(k >> 2)
            vertices.append(SIMD3(x, y, z))
        }
        let faces = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]]
        return try document(vertices, faces)
    }

    /// The icosahedron with each triangle cut into three quads (corner, edge midpoints, centre):
    /// 60 quads, closed, with valence-5 and valence-3 vertices.
    static func icosahedron() throws -> MeshDocument {
        let t = (1 + 5.0.squareRoot()) / 2
        let corners: [SIMD3<Double>] = [
            SIMD3(-1, t, 0), SIMD3(1, t, 0), SIMD3(-1, -t, 0), SIMD3(1, -t, 0), SIMD3(0, -1, t), SIMD3(0, 1, t),
            SIMD3(0, -1, -t), SIMD3(0, 1, -t), SIMD3(t, 0, -1), SIMD3(t, 0, 1), SIMD3(-t, 0, -1), SIMD3(-t, 0, 1),
        ]
        var points = corners.map { $0 / ($0 * $0).sum().squareRoot() }
        let triangles = [
            [0, 11, 5], [0, 5, 1], [0, 1, 7], [0, 7, 10], [0, 10, 11], [1, 5, 9], [5, 11, 4], [11, 10, 2], [10, 7, 6], [7, 1, 8],
            [3, 9, 4], [3, 4, 2], [3, 2, 6], [3, 6, 8], [3, 8, 9], [4, 9, 5], [2, 4, 11], [6, 2, 10], [8, 6, 7], [9, 8, 1],
        ]
        var midpoints: [SIMD2<Int>: Int] = [:]
        func midpoint(_ a: Int, _ b: Int) -> Int {
            let key = SIMD2(min(a, b), max(a, b))
            if let m = midpoints[key] { return m }
            points.append((points[a] + points[b]) / 2)
            midpoints[key] = points.count - 1
            return points.count - 1
        }
        var faces: [[Int]] = []
        for tri in triangles {
            let (a, b, c) = (tri[0], tri[1], tri[2])
            points.append((points[a] + points[b] + points[c]) / 3)
            let m = points.count - 1
            let ab = midpoint(a, b), bc = midpoint(b, c), ca = midpoint(c, a)
            faces += [[a, ab, m, ca], [b, bc, m, ab], [c, ca, m, bc]]
        }
        return try document(points.map { SIMD3(0.5 + 0.35 * $0.x, 0.5 + 0.35 * $0.y, 0.35 * $0.z) }, faces)
    }

    /// n quads around a centre vertex of valence n (a bump), with a rim.
    static func fan(valence n: Int) throws -> MeshDocument {
        var vertices: [SIMD3<Double>] = [SIMD3(0.5, 0.5, 0.05)]
        var faces: [[Int]] = []
        for k in 0..<n {
            let a = 2 * Double.pi * Double(k) / Double(n), b = 2 * Double.pi * (Double(k) + 0.5) / Double(n)
            vertices.append(SIMD3(0.5 + 0.4 * cos(a), 0.5 + 0.4 * sin(a), 0))
            vertices.append(SIMD3(0.5 + 0.45 * cos(b), 0.5 + 0.45 * sin(b), 0.02))
        }
        for k in 0..<n { faces.append([0, 1 + 2 * k, 2 + 2 * k, 1 + 2 * ((k + 1) % n)]) }
        return try document(vertices, faces)
    }

    /// A bent 6 × 6 grid with a 2 × 2 hole: the hole's corners are boundary vertices with three faces.
    static func gridWithHole() throws -> MeshDocument {
        let n = 6
        var vertices: [SIMD3<Double>] = []
        for i in 0...n {
            for j in 0...n {
                let x = Double(j) / Double(n), y = Double(i) / Double(n)
                vertices.append(SIMD3(x, y, 0.05 * sin(3 * x) * cos(2 * y)))
            }
        }
        var faces: [[Int]] = []
        for i in 0..<n {
            for j in 0..<n where !((2...3).contains(i) && (2...3).contains(j)) {
                let a = i * (n + 1) + j
                faces.append([a, a + 1, a + n + 2, a + n + 1])
            }
        }
        return try document(vertices, faces)
    }

    /// Every edge of the triangles used exactly twice, except edges on a boundary of the control
    /// mesh (both corners on the same side of the unit square, on a side no other face shares),
    /// used once; no degenerate triangle. Returns the number of problems.
    static func watertightProblems(_ result: AdaptiveTessellation, mesh: MeshTransform) throws -> Int {
        let parameters = try #require(result.parameters)
        var faceEdgeUse: [SIMD2<Int>: Int] = [:]
        for face in mesh.faces {
            for k in 0..<4 {
                let a = face.indices[k], b = face.indices[(k + 1) % 4]
                faceEdgeUse[SIMD2(min(a, b), max(a, b)), default: 0] += 1
            }
        }
        func boundarySide(_ f: Int, _ p: SIMD2<Double>, _ q: SIMD2<Double>) -> Bool {
            let sides = [p.y == 0 && q.y == 0, p.x == 1 && q.x == 1, p.y == 1 && q.y == 1, p.x == 0 && q.x == 0]
            let face = mesh.faces[f].indices
            for k in 0..<4 where sides[k] {
                let a = face[k], b = face[(k + 1) % 4]
                if faceEdgeUse[SIMD2(min(a, b), max(a, b))] == 1 { return true }
            }
            return false
        }
        var uses: [SIMD2<Int32>: (count: Int, onBoundary: Bool)] = [:]
        var problems = 0
        for (t, tri) in result.mesh.triangles.enumerated() {
            if tri.x == tri.y || tri.y == tri.z || tri.z == tri.x { problems += 1 }
            let f = Int(result.mesh.sourceFaces[t])
            let corners = [tri.x, tri.y, tri.z]
            for k in 0..<3 {
                let a = corners[k], b = corners[(k + 1) % 3]
                let key = SIMD2(min(a, b), max(a, b))
                let boundary = boundarySide(f, parameters[3 * t + k], parameters[3 * t + (k + 1) % 3])
                let old = uses[key] ?? (0, false)
                uses[key] = (old.count + 1, old.onBoundary || boundary)
            }
        }
        for (_, use) in uses where use.count != (use.onBoundary ? 1 : 2) { problems += 1 }
        return problems
    }

    /// The limit surface by uniform refinement to `steps`, each regular sub-quad a B-spline patch.
    struct UniformReference {
        let patches: LimitPatches
        let steps: Int
        var cache: [Int: RationalPatch?] = [:]

        init(_ mesh: MeshTransform, steps: Int) throws {
            let topology = try SurfaceTopology(faces: mesh.faces, vertexCount: mesh.vertices.count)
            let plan = try SubdivisionPlan(topology: topology, steps: steps, maximumQuads: Int.max)
            patches = try plan.limitPatches(vertices: mesh.vertices, weights: topology.vertexWeights(faces: mesh.faces))
            self.steps = steps
        }

        /// The surface point (unit `to`) at (u, v) of face f; `nil` inside a sub-quad at an
        /// irregular vertex, which has no patch at this level.
        mutating func point(face f: Int, _ uv: SIMD2<Double>) -> SIMD3<Double>? {
            let n = 1 << steps
            let i = min(max(Int(uv.x * Double(n)), 0), n - 1), j = min(max(Int(uv.y * Double(n)), 0), n - 1)
            let q = f * n * n + j * n + i
            if cache[q] == nil { cache[q] = .some(patches.patch(ofQuad: q)) }
            guard let patch = cache[q] ?? nil else { return nil }
            return patch.evaluate(u: uv.x * Double(n) - Double(i), v: uv.y * Double(n) - Double(j)).to
        }
    }

    /// The largest distance (points) between a triangle point and the surface point with the same
    /// parameters, over 10 barycentric points of every triangle, and how many points fell next to
    /// an irregular vertex (within 2⁻ˢᵗᵉᵖˢ of it, where the proven bound speaks instead).
    static func deviation(
        of result: AdaptiveTessellation, reference: inout UniformReference, scale: SIMD3<Double>
    ) throws -> (worst: Double, skipped: Int, measured: Int) {
        let parameters = try #require(result.parameters)
        let weights: [SIMD3<Double>] = [
            SIMD3(1, 1, 1) / 3, SIMD3(0.5, 0.5, 0), SIMD3(0, 0.5, 0.5), SIMD3(0.5, 0, 0.5),
            SIMD3(2, 1, 1) / 4, SIMD3(1, 2, 1) / 4, SIMD3(1, 1, 2) / 4,
            SIMD3(0.25, 0.75, 0), SIMD3(0, 0.25, 0.75), SIMD3(0.75, 0, 0.25),
        ]
        var worst = 0.0, skipped = 0, measured = 0
        let positions = result.mesh.positions
        for (t, tri) in result.mesh.triangles.enumerated() {
            let f = Int(result.mesh.sourceFaces[t])
            for w in weights {
                let uv = w.x * parameters[3 * t] + w.y * parameters[3 * t + 1] + w.z * parameters[3 * t + 2]
                guard let surface = reference.point(face: f, uv) else {
                    skipped += 1
                    continue
                }
                let linear = w.x * positions[Int(tri.x)] + w.y * positions[Int(tri.y)] + w.z * positions[Int(tri.z)]
                let d = surface * scale - linear
                worst = max(worst, (d * d).sum().squareRoot())
                measured += 1
            }
        }
        return (worst, skipped, measured)
    }
}
