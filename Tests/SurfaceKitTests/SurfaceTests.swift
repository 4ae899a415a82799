import Foundation
import SurfaceKit
import TestSupport
import Testing

// Tests of the rational Catmull–Clark surface (Docs/surface.md). Every expected value comes from
// mathematics written here: the rational bicubic B-spline patch (Support/BSpline.swift) where the
// mesh is regular, and a small, independent Catmull–Clark refiner with the limit-position masks
// elsewhere. Nothing is compared with values the code under test produced on another path.

// MARK: - Fixtures

/// The points-space scale used for normals: a 320 × 480 layer with depth 200.
private let pointScale = SIMD3<Double>(320, 480, 200)

/// An R × C grid of faces; vertex (r, c) is index r·(C+1) + c, face (r, c) has corners
/// TL (r, c), TR (r, c+1), BR (r+1, c+1), BL (r+1, c), so u runs along columns and v along rows.
private struct GridMesh {
    let rows: Int
    let columns: Int
    var vertices: [MeshVertex]
    var faces: [MeshFace]

    func vertex(_ r: Int, _ c: Int) -> Int { r * (columns + 1) + c }
    func face(_ r: Int, _ c: Int) -> Int { r * columns + c }

    /// `jitter` moves `from` and `to.xy` by up to that fraction of a cell; `depth` is the amplitude of
    /// a random `to.z`; face weights are drawn independently per face and corner from `weights`,
    /// so faces disagree on the weights of the vertices they share.
    init(rows: Int, columns: Int, seed: UInt64, jitter: Double, depth: Double, weights: ClosedRange<Double>?) {
        self.rows = rows
        self.columns = columns
        var rng = SplitMix64(seed: seed)
        var vertices: [MeshVertex] = []
        for r in 0...rows {
            for c in 0...columns {
                let base = SIMD2(Double(c) / Double(columns), Double(r) / Double(rows))
                let cell = SIMD2(1 / Double(columns), 1 / Double(rows))
                let from = base + jitter * cell * SIMD2(rng.uniform(-1...1), rng.uniform(-1...1))
                let toXY = base + jitter * cell * SIMD2(rng.uniform(-1...1), rng.uniform(-1...1))
                let z = depth == 0 ? 0 : depth * rng.uniform(-1...1)
                vertices.append(MeshVertex(from: from, to: SIMD3(toXY.x, toXY.y, z)))
            }
        }
        var faces: [MeshFace] = []
        for r in 0..<rows {
            for c in 0..<columns {
                let w: SIMD4<Double> =
                    weights.map {
                        SIMD4(rng.uniform($0), rng.uniform($0), rng.uniform($0), rng.uniform($0))
                    } ?? SIMD4(repeating: 1)
                faces.append(
                    MeshFace(
                        r * (columns + 1) + c, r * (columns + 1) + c + 1,
                        (r + 1) * (columns + 1) + c + 1, (r + 1) * (columns + 1) + c, weights: w))
            }
        }
        self.vertices = vertices
        self.faces = faces
    }
}

/// Vertex weights as Docs/surface.md defines them: the mean of the weights the faces using a vertex give it.
private func meanVertexWeights(_ faces: [MeshFace], vertexCount: Int) -> [Double] {
    var sum = [Double](repeating: 0, count: vertexCount)
    var count = [Double](repeating: 0, count: vertexCount)
    for face in faces {
        for k in 0..<4 {
            sum[face.indices[k]] += face.weights[k]
            count[face.indices[k]] += 1
        }
    }
    return zip(sum, count).map { $1 > 0 ? $0 / $1 : 1 }
}

private func homogeneousValues(_ vertices: [MeshVertex], _ weights: [Double]) -> [HomogeneousPoint] {
    zip(vertices, weights).map { HomogeneousPoint(from: $0.from, to: $0.to, weight: $1) }
}

/// The homogeneous control grid of a `GridMesh`, extended by one ring of phantom points.
///
/// Why phantom points describe the edge-and-corner boundary: along a boundary, Catmull–Clark with
/// crease boundaries refines the boundary vertices with the cubic B-spline curve rules, vertex
/// `(a + 6v + b)/8`, edge `(a + b)/2`, and a corner (a vertex of one face) stays put. Take the
/// uniform cubic B-spline whose first control point P₋₁ is the phantom 2P₀ − P₁:
///   - at the first knot it evaluates to (P₋₁ + 4P₀ + P₁)/6 = (2P₀ − P₁ + 4P₀ + P₁)/6 = P₀, so the
///     end point is interpolated (the corner stays pinned);
///   - one refinement step gives P₀' = (P₋₁ + 6P₀ + P₁)/8 = P₀ (the corner rule), P₁' = (P₀ + P₁)/2
///     (the boundary edge rule), and the new phantom (P₋₁ + P₀)/2 = (3P₀ − P₁)/2 = 2P₀' − P₁', so the
///     relation P₋₁ = 2P₀ − P₁ is reproduced at every level.
/// The same holds for the surface: Catmull–Clark on a regular grid is the tensor product of the curve
/// rules, and with the phantom row the tensor-product rules reduce on the boundary row to the
/// crease rules above (the across-boundary factor (P₋₁ + 6P₀ + P₁)/8 is P₀), while the rows inside
/// see only real points. The phantom relation is linear in the control values, so refining in u
/// keeps it for every column and refining in v keeps it by the curve argument; the corner phantom
/// (the rule applied in both directions, 4P₀₀ − 2P₁₀ − 2P₀₁ + P₁₁) is the same in either order.
/// Hence the limit surface is the bicubic B-spline over the extended grid, on homogeneous values.
private func extendedHomogeneousGrid(_ grid: GridMesh, weights: [Double]) -> (Int, Int) -> HomogeneousPoint {
    let R = grid.rows, C = grid.columns
    let width = C + 3
    var ext = [HomogeneousPoint](repeating: .zero, count: (R + 3) * width)
    func at(_ r: Int, _ c: Int) -> Int { (r + 1) * width + (c + 1) }
    for r in 0...R {
        for c in 0...C {
            let v = grid.vertex(r, c)
            ext[at(r, c)] = HomogeneousPoint(from: grid.vertices[v].from, to: grid.vertices[v].to, weight: weights[v])
        }
    }
    // Rows first (for the real columns), then columns for every row including the phantom rows.
    for c in 0...C {
        ext[at(-1, c)] = 2 * ext[at(0, c)] - ext[at(1, c)]
        ext[at(R + 1, c)] = 2 * ext[at(R, c)] - ext[at(R - 1, c)]
    }
    for r in -1...(R + 1) {
        ext[at(r, -1)] = 2 * ext[at(r, 0)] - ext[at(r, 1)]
        ext[at(r, C + 1)] = 2 * ext[at(r, C)] - ext[at(r, C - 1)]
    }
    return { r, c in ext[at(r, c)] }
}

/// The patch of face (r, c): control[a][b] = point (r − 1 + b, c − 1 + a).
private func patch(face r: Int, _ c: Int, grid: (Int, Int) -> HomogeneousPoint) -> RationalBicubicPatch {
    RationalBicubicPatch(control: (0..<4).map { a in (0..<4).map { b in grid(r - 1 + b, c - 1 + a) } })
}

/// Largest deviations of an evaluation from patches, over the chosen faces.
private struct Deviation: CustomStringConvertible {
    var from = 0.0, to = 0.0, normal = 0.0
    var samples = 0
    var worst = ""

    mutating func add(_ got: (SIMD2<Double>, SIMD3<Double>, SIMD3<Double>), _ want: PatchSample, _ label: @autoclosure () -> String) {
        let df = Vec.maxDiff(got.0, want.from), dt = Vec.maxDiff(got.1, want.to), dn = Vec.maxDiff(got.2, want.normal)
        if max(df, dt, dn) > max(from, to, normal) {
            worst = "\(label()): got from \(got.0) to \(got.1) n \(got.2), want from \(want.from) to \(want.to) n \(want.normal)"
        }
        from = max(from, df)
        to = max(to, dt)
        normal = max(normal, dn)
        samples += 1
    }

    var maximum: Double { max(from, to, normal) }
    var description: String { "\(samples) samples, max |Δfrom| \(from), |Δto| \(to), |Δnormal| \(normal); worst \(worst)" }
}

/// Compares every sub-quad corner and centre of the selected faces of a grid with the patch.
private func compareGridWithPatches(
    _ grid: GridMesh, weights: [Double], steps: Int, faces selected: [(Int, Int)],
    control: (Int, Int) -> HomogeneousPoint
) throws -> (corners: Deviation, centers: Deviation) {
    let topology = try SurfaceTopology(faces: grid.faces, vertexCount: grid.vertices.count)
    let plan = try SubdivisionPlan(topology: topology, steps: steps)
    let evaluation = try plan.evaluate(vertices: grid.vertices, weights: weights, pointScale: pointScale, includeCenters: true)
    let points = evaluation.points
    let centers = try #require(evaluation.centers)
    let n = 1 << steps
    var corners = Deviation(), middles = Deviation()
    for (r, c) in selected {
        let f = grid.face(r, c)
        let p = patch(face: r, c, grid: control)
        for j in 0..<n {
            for i in 0..<n {
                let q = f * n * n + j * n + i
                let quad = plan.quad(q)
                let params = [(i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1)]
                for k in 0..<4 {
                    let index = Int(quad[k])
                    let (a, b) = params[k]
                    let want = p.evaluate(u: Double(a) / Double(n), v: Double(b) / Double(n), pointScale: pointScale)
                    corners.add(
                        (points.from[index], points.to[index], points.normals[index]), want,
                        "steps \(steps) face (\(r),\(c)) corner (\(a),\(b))/\(n)")
                }
                let want = p.evaluate(u: (Double(i) + 0.5) / Double(n), v: (Double(j) + 0.5) / Double(n), pointScale: pointScale)
                middles.add(
                    (centers.from[q], centers.to[q], centers.normals[q]), want,
                    "steps \(steps) face (\(r),\(c)) centre (\(i)+½,\(j)+½)/\(n)")
            }
        }
    }
    return (corners, middles)
}

// MARK: - An independent Catmull–Clark refiner (edge-and-corner boundaries)

private struct EdgeKey: Hashable {
    let a: Int, b: Int
    init(_ x: Int, _ y: Int) { a = min(x, y); b = max(x, y) }
}

/// A quad mesh on homogeneous values, with, for every control face, the (2ⁿ+1)² grid of vertex
/// indices covering it at the current level (`grids[f][j·(res+1) + i]`, i along u, j along v).
private struct ReferenceMesh {
    var points: [HomogeneousPoint]
    var faces: [SIMD4<Int>]
    var grids: [[Int]]
    var resolution: Int

    init(points: [HomogeneousPoint], controlFaces: [SIMD4<Int>]) {
        self.points = points
        faces = controlFaces
        grids = controlFaces.map { [$0[0], $0[1], $0[3], $0[2]] }
        resolution = 1
    }

    /// Adjacency derived from the face list.
    struct Adjacency {
        var vertexFaces: [[Int]]
        var neighbours: [[Int]]
        var edgeFaces: [EdgeKey: [Int]]
    }

    var adjacency: Adjacency {
        var vertexFaces = [[Int]](repeating: [], count: points.count)
        var neighbours = [Set<Int>](repeating: [], count: points.count)
        var edgeFaces: [EdgeKey: [Int]] = [:]
        for (f, face) in faces.enumerated() {
            for k in 0..<4 {
                let a = face[k], b = face[(k + 1) % 4]
                vertexFaces[a].append(f)
                neighbours[a].insert(b)
                neighbours[b].insert(a)
                edgeFaces[EdgeKey(a, b), default: []].append(f)
            }
        }
        return Adjacency(vertexFaces: vertexFaces, neighbours: neighbours.map { Array($0) }, edgeFaces: edgeFaces)
    }

    enum Rule {
        case smooth(Int)
        case crease(Int, Int)
        case corner
    }

    static func rule(_ v: Int, _ adj: Adjacency) -> Rule {
        let nf = adj.vertexFaces[v].count, ne = adj.neighbours[v].count
        let boundary = adj.neighbours[v].filter { adj.edgeFaces[EdgeKey(v, $0)]!.count == 1 }
        if nf <= 1 { return .corner }
        if boundary.isEmpty && ne == nf { return .smooth(nf) }
        if boundary.count == 2 && ne == nf + 1 { return .crease(boundary[0], boundary[1]) }
        return .corner
    }

    /// One Catmull–Clark step: face points (mean of the corners); edge points (v₀ + v₁ + f₀ + f₁)/4
    /// inside and (v₀ + v₁)/2 on a boundary; vertex points (Q + 2R + (n − 3)v)/n inside (Q the mean
    /// of the new face points around v, R the mean of the midpoints of its edges), (a + 6v + b)/8 on
    /// a boundary, and v itself at a corner.
    func refined() -> ReferenceMesh {
        let adj = adjacency
        let V = points.count, F = faces.count
        let facePoints = faces.map { (points[$0[0]] + points[$0[1]] + points[$0[2]] + points[$0[3]]) / 4 }
        var edgeIndex: [EdgeKey: Int] = [:]
        var edgePoints: [HomogeneousPoint] = []
        for face in faces {
            for k in 0..<4 {
                let key = EdgeKey(face[k], face[(k + 1) % 4])
                if edgeIndex[key] != nil { continue }
                edgeIndex[key] = edgePoints.count
                let fs = adj.edgeFaces[key]!
                let ends = points[key.a] + points[key.b]
                edgePoints.append(fs.count == 2 ? (ends + facePoints[fs[0]] + facePoints[fs[1]]) / 4 : ends / 2)
            }
        }
        var vertexPoints = points
        for v in 0..<V {
            switch ReferenceMesh.rule(v, adj) {
            case .corner:
                break
            case let .crease(a, b):
                vertexPoints[v] = (points[a] + 6 * points[v] + points[b]) / 8
            case let .smooth(n):
                let q = adj.vertexFaces[v].reduce(HomogeneousPoint.zero) { $0 + facePoints[$1] } / Double(n)
                let r = adj.neighbours[v].reduce(HomogeneousPoint.zero) { $0 + (points[v] + points[$1]) / 2 } / Double(n)
                vertexPoints[v] = (q + 2 * r + Double(n - 3) * points[v]) / Double(n)
            }
        }
        let res = resolution, res2 = 2 * resolution
        var newGrids: [[Int]] = []
        for (f, grid) in grids.enumerated() {
            func old(_ i: Int, _ j: Int) -> Int { grid[j * (res + 1) + i] }
            var g = [Int](repeating: 0, count: (res2 + 1) * (res2 + 1))
            for J in 0...res2 {
                for I in 0...res2 {
                    let value: Int
                    switch (I % 2, J % 2) {
                    case (0, 0): value = old(I / 2, J / 2)
                    case (1, 0): value = V + edgeIndex[EdgeKey(old(I / 2, J / 2), old(I / 2 + 1, J / 2))]!
                    case (0, 1): value = V + edgeIndex[EdgeKey(old(I / 2, J / 2), old(I / 2, J / 2 + 1))]!
                    default: value = V + edgePoints.count + f * res * res + (J / 2) * res + I / 2
                    }
                    g[J * (res2 + 1) + I] = value
                }
            }
            newGrids.append(g)
        }
        var next = self
        next.points = vertexPoints + edgePoints + facePoints
        next.grids = newGrids
        next.resolution = res2
        next.faces = []
        for g in newGrids {
            for j in 0..<res2 {
                for i in 0..<res2 {
                    let s = res2 + 1
                    next.faces.append(SIMD4(g[j * s + i], g[j * s + i + 1], g[(j + 1) * s + i + 1], g[(j + 1) * s + i]))
                }
            }
        }
        precondition(next.faces.count == 4 * F)
        return next
    }

    /// Limit positions: interior valence n `(n² v + 4 Σ eᵢ + Σ dᵢ) / (n (n + 5))` (eᵢ edge
    /// neighbours, dᵢ the diagonal corner of each face), boundary `(a + 4v + b)/6` (the boundary
    /// cubic B-spline), corner v.
    func limitPoints() -> [HomogeneousPoint] {
        let adj = adjacency
        return (0..<points.count).map { v in
            switch ReferenceMesh.rule(v, adj) {
            case .corner:
                return points[v]
            case let .crease(a, b):
                return (points[a] + 4 * points[v] + points[b]) / 6
            case let .smooth(n):
                let e = adj.neighbours[v].reduce(HomogeneousPoint.zero) { $0 + points[$1] }
                let d = adj.vertexFaces[v].reduce(HomogeneousPoint.zero) { sum, f in
                    let face = faces[f]
                    let k = (0..<4).first { face[$0] == v }!
                    return sum + points[face[(k + 2) % 4]]
                }
                let nd = Double(n)
                return (nd * nd * points[v] + 4 * e + d) / (nd * (nd + 5))
            }
        }
    }
}

/// Matches the plan's sub-quad corners with the reference mesh's grids (both are laid out per
/// control face, row v, column u) and returns the largest deviation of the limit points.
private func compareWithReference(
    vertices: [MeshVertex], faces: [MeshFace], weights: [Double], steps: Int
) throws -> (from: Double, to: Double, mappingErrors: Int, pointCount: Int, worst: String) {
    let topology = try SurfaceTopology(faces: faces, vertexCount: vertices.count)
    let plan = try SubdivisionPlan(topology: topology, steps: steps)
    let evaluation = try plan.evaluate(vertices: vertices, weights: weights, pointScale: pointScale)
    var reference = ReferenceMesh(points: homogeneousValues(vertices, weights), controlFaces: faces.map(\.indices))
    for _ in 0..<steps { reference = reference.refined() }
    let limit = reference.limitPoints()
    let n = reference.resolution
    var planToReference = [Int: Int](), referenceToPlan = [Int: Int]()
    var mappingErrors = 0
    var dFrom = 0.0, dTo = 0.0, worst = ""
    for f in 0..<faces.count {
        let grid = reference.grids[f]
        for j in 0..<n {
            for i in 0..<n {
                let quad = plan.quad(f * n * n + j * n + i)
                let params = [(i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1)]
                for k in 0..<4 {
                    let p = Int(quad[k]), r = grid[params[k].1 * (n + 1) + params[k].0]
                    if planToReference[p, default: r] != r || referenceToPlan[r, default: p] != p { mappingErrors += 1 }
                    planToReference[p] = r
                    referenceToPlan[r] = p
                    let wantFrom = limit[r].projectedFrom, wantTo = limit[r].projectedTo
                    let df = Vec.maxDiff(evaluation.points.from[p], wantFrom)
                    let dt = Vec.maxDiff(evaluation.points.to[p], wantTo)
                    if max(df, dt) > max(dFrom, dTo) {
                        worst = "face \(f) corner (\(params[k].0),\(params[k].1))/\(n): got \(evaluation.points.to[p]) want \(wantTo)"
                    }
                    dFrom = max(dFrom, df)
                    dTo = max(dTo, dt)
                }
            }
        }
    }
    #expect(planToReference.count == plan.pointCount, "every plan point is a sub-quad corner (steps \(steps))")
    #expect(reference.points.count == plan.pointCount, "refined vertex count (steps \(steps))")
    return (dFrom, dTo, mappingErrors, plan.pointCount, worst)
}

// MARK: - Meshes with extraordinary vertices

/// A fan of `sectors` parallelogram grids of `size` × `size` faces around a centre vertex (index 0).
/// Sector s spans the directions a_s, a_{s+1} (angles 2πs/k when closed, πs/k when open): grid
/// point (i, j) of sector s sits at (i·a_s + j·a_{s+1})/size; its ray j = 0 is shared with ray
/// i = 0 of sector s − 1. Closed, the centre is interior of valence k; open (the rays 0 and k stay
/// apart), it is a boundary vertex with k faces. `centerFaces` are the faces whose corner 0 is the
/// centre, in order around it.
private struct FanMesh {
    var vertices: [MeshVertex] = []
    var faces: [MeshFace] = []
    var centerFaces: [Int] = []

    init(sectors k: Int, size m: Int, closed: Bool, seed: UInt64, weights: ClosedRange<Double>?) {
        var rng = SplitMix64(seed: seed)
        let span = (closed ? 2 : 1) * Double.pi / Double(k)
        func direction(_ ray: Int) -> SIMD2<Double> { SIMD2(cos(span * Double(ray)), sin(span * Double(ray))) }
        var ids: [String: Int] = [:]
        var vertices: [MeshVertex] = []
        func id(_ s: Int, _ i: Int, _ j: Int) -> Int {
            let key: String
            if i == 0 && j == 0 {
                key = "c"
            } else if j == 0 {
                key = "r\(closed ? s % k : s):\(i)"
            } else if i == 0 {
                key = "r\(closed ? (s + 1) % k : s + 1):\(j)"
            } else {
                key = "s\(s):\(i),\(j)"
            }
            if let existing = ids[key] { return existing }
            let planar = (Double(i) * direction(s) + Double(j) * direction(s + 1)) / Double(m)
            let from = SIMD2(0.5, 0.5) + 0.4 * planar + 0.02 * SIMD2(rng.uniform(-1...1), rng.uniform(-1...1))
            let to = SIMD3(
                0.5 + 0.4 * planar.x + 0.03 * rng.uniform(-1...1),
                0.5 + 0.4 * planar.y + 0.03 * rng.uniform(-1...1),
                0.08 * rng.uniform(-1...1))
            ids[key] = vertices.count
            vertices.append(MeshVertex(from: from, to: to))
            return vertices.count - 1
        }
        _ = id(0, 0, 0)
        for s in 0..<k {
            for j in 0..<m {
                for i in 0..<m {
                    if i == 0 && j == 0 { centerFaces.append(faces.count) }
                    let w: SIMD4<Double> =
                        weights.map {
                            SIMD4(rng.uniform($0), rng.uniform($0), rng.uniform($0), rng.uniform($0))
                        } ?? SIMD4(repeating: 1)
                    faces.append(MeshFace(id(s, i, j), id(s, i + 1, j), id(s, i + 1, j + 1), id(s, i, j + 1), weights: w))
                }
            }
        }
        self.vertices = vertices
    }
}

/// The normal at a control vertex estimated from the limit points of the sub-quad corners adjacent
/// to it: Σ over its faces of (next − p) × (previous − p) in points space (corner 0 of each face is
/// the vertex, so next is the face's u-neighbour and previous its v-neighbour: Tu × Tv).
private func estimatedNormal(plan: SubdivisionPlan, points: SurfaceSamples, faces: [Int]) -> (SIMD3<Double>, Int) {
    let perFace = plan.resolution * plan.resolution
    var sum = SIMD3<Double>.zero
    var center = -1
    for f in faces {
        let quad = plan.quad(f * perFace)
        center = Int(quad[0])
        let p = points.to[center] * pointScale
        let next = points.to[Int(quad[1])] * pointScale, prev = points.to[Int(quad[3])] * pointScale
        sum += Vec.cross(next - p, prev - p)
    }
    return (Vec.normalize(sum), center)
}

// MARK: - Exact limit normals from the one-ring subdivision matrix

/// The subdivision matrix of a vertex's one-ring under the edge-and-corner Catmull–Clark rules, and
/// the limit normal it implies.
///
/// Ring order: v, e₀ … (edge neighbours), f₀ … (diagonal corners), face i being (v, eᵢ, fᵢ, eᵢ₊₁).
/// One refinement step maps the ring to the new ring of v: v' (vertex point), eᵢ' (the point of edge
/// v–eᵢ), fᵢ' (the point of face i); all depend on the old ring only, so `S` is square. Limit tangents
/// are left eigenvectors of S: if ℓS = λℓ then ℓ·(ring at level n) = λⁿ ℓ·(ring at level 0), so the
/// direction ℓ·ring is the same at every level and is a tangent of the limit surface. The tangent
/// plane is spanned by the two dominant such directions among masks that sum to zero (the rows of S
/// sum to 1, so the zero-sum masks are invariant and exclude the position eigenvector). They are
/// found here by orthogonal subspace iteration, which needs no closed form of the masks.
private enum OneRing {
    /// Interior vertex of valence n: vertex (Q + 2R + (n − 3)v)/n, edges (v + eᵢ + Fᵢ₋₁ + Fᵢ)/4.
    static func interiorMatrix(valence n: Int) -> [[Double]] {
        let size = 2 * n + 1
        func e(_ i: Int) -> Int { 1 + (i + n) % n }
        func f(_ i: Int) -> Int { 1 + n + (i + n) % n }
        func face(_ i: Int) -> [Double] {
            var r = [Double](repeating: 0, count: size)
            for j in [0, e(i), f(i), e(i + 1)] { r[j] += 0.25 }
            return r
        }
        var S = [[Double]](repeating: [Double](repeating: 0, count: size), count: size)
        let nd = Double(n)
        // Q = mean of the face points, R = mean of the edge midpoints (v + eᵢ)/2.
        S[0][0] += Double(n - 3) / nd + 2 / nd * 0.5
        for i in 0..<n {
            S[0][e(i)] += 2 / nd * 0.5 / nd
            let fi = face(i)
            for j in 0..<size { S[0][j] += fi[j] / nd / nd }
        }
        for i in 0..<n {
            let a = face(i - 1), b = face(i)
            for j in 0..<size { S[e(i)][j] = (a[j] + b[j]) / 4 }
            S[e(i)][0] += 0.25
            S[e(i)][e(i)] += 0.25
            S[f(i)] = face(i)
        }
        return S
    }

    /// Boundary vertex with k faces (k + 1 edge neighbours, e₀ and eₖ on the boundary): vertex
    /// (e₀ + 6v + eₖ)/8, boundary edges (v + e)/2, inner edges (v + eᵢ + Fᵢ₋₁ + Fᵢ)/4.
    static func boundaryMatrix(faces k: Int) -> [[Double]] {
        let size = 2 * k + 2
        func e(_ i: Int) -> Int { 1 + i }
        func f(_ i: Int) -> Int { k + 2 + i }
        func face(_ i: Int) -> [Double] {
            var r = [Double](repeating: 0, count: size)
            for j in [0, e(i), f(i), e(i + 1)] { r[j] += 0.25 }
            return r
        }
        var S = [[Double]](repeating: [Double](repeating: 0, count: size), count: size)
        S[0][0] = 6.0 / 8
        S[0][e(0)] = 1.0 / 8
        S[0][e(k)] = 1.0 / 8
        for i in [0, k] {
            S[e(i)][0] = 0.5
            S[e(i)][e(i)] = 0.5
        }
        for i in 1..<k {
            let a = face(i - 1), b = face(i)
            for j in 0..<size { S[e(i)][j] = (a[j] + b[j]) / 4 }
            S[e(i)][0] += 0.25
            S[e(i)][e(i)] += 0.25
        }
        for i in 0..<k { S[f(i)] = face(i) }
        return S
    }

    /// ℓ ↦ ℓS.
    static func leftMultiply(_ l: [Double], _ S: [[Double]]) -> [Double] {
        (0..<S.count).map { j in (0..<S.count).reduce(0) { $0 + l[$1] * S[$1][j] } }
    }

    /// An orthonormal basis of the dominant two-dimensional left-invariant subspace among zero-sum
    /// masks, and the growth factors of the last iteration (the two subdominant eigenvalues).
    static func dominantTangentMasks(_ S: [[Double]], iterations: Int = 800) -> ([Double], [Double], Double, Double) {
        let n = S.count
        var x = (0..<n).map { sin(Double(3 * $0 + 1)) }
        var y = (0..<n).map { cos(Double(5 * $0 + 2)) }
        func zeroSum(_ v: [Double]) -> [Double] { let m = v.reduce(0, +) / Double(n); return v.map { $0 - m } }
        func norm(_ v: [Double]) -> Double { v.reduce(0) { $0 + $1 * $1 }.squareRoot() }
        var gx = 0.0, gy = 0.0
        for _ in 0..<iterations {
            x = zeroSum(leftMultiply(x, S))
            gx = norm(x)
            x = x.map { $0 / gx }
            y = zeroSum(leftMultiply(y, S))
            let d = zip(x, y).reduce(0) { $0 + $1.0 * $1.1 }
            y = zip(y, x).map { $0 - d * $1 }
            gy = norm(y)
            y = y.map { $0 / gy }
        }
        return (x, y, gx, gy)
    }

    /// The unit normal in points space at the limit point `position·ring`, from the tangent masks:
    /// T = (T̃.to − P·T̃.w)/W for each homogeneous tangent T̃ (quotient rule), n = normalize(T₁ × T₂),
    /// oriented to agree with `orientation`.
    static func normal(
        ring: [HomogeneousPoint], position: [Double], masks: ([Double], [Double]),
        orientation: SIMD3<Double>
    ) -> SIMD3<Double> {
        func apply(_ m: [Double]) -> HomogeneousPoint { zip(m, ring).reduce(.zero) { $0 + $1.0 * $1.1 } }
        let l = apply(position)
        let p = l.projectedTo
        func tangent(_ m: [Double]) -> SIMD3<Double> {
            let t = apply(m)
            return (t.hTo - p * t.hWeight) / l.hWeight * pointScale
        }
        let n = Vec.normalize(Vec.cross(tangent(masks.0), tangent(masks.1)))
        return Vec.dot(n, orientation) < 0 ? -n : n
    }
}

/// The control values of the one-ring around vertex 0 of a fan, in `OneRing` order.
private func fanRing(_ fan: FanMesh, weights: [Double], closed: Bool) -> [HomogeneousPoint] {
    let k = fan.centerFaces.count
    var ids = [Int](repeating: -1, count: closed ? 2 * k + 1 : 2 * k + 2)
    let fOffset = closed ? 1 + k : 2 + k
    for (i, f) in fan.centerFaces.enumerated() {
        let face = fan.faces[f].indices
        ids[0] = face[0]
        ids[1 + i] = face[1]
        ids[fOffset + i] = face[2]
        if !closed || i + 1 < k { ids[2 + i] = face[3] }
    }
    return ids.map { HomogeneousPoint(from: fan.vertices[$0].from, to: fan.vertices[$0].to, weight: weights[$0]) }
}

/// A fan of k faces around a boundary vertex, evaluated at steps 1…5, with the exact limit normal at
/// the vertex and a finite estimate of it (Aitken-extrapolated from steps 3, 4, 5).
private struct BoundaryFanFixture {
    var fan: FanMesh
    var weights: [Double]
    /// The vertex's sample at steps 1, 2 and 5.
    var centers: [Int: (to: SIMD3<Double>, normal: SIMD3<Double>)] = [:]
    var rawEstimate = SIMD3<Double>.zero
    var extrapolated = SIMD3<Double>.zero
    var exact = SIMD3<Double>.zero
    var growth = (0.0, 0.0)

    init(faces k: Int) throws {
        fan = FanMesh(sectors: k, size: 2, closed: false, seed: UInt64(200 + k), weights: 0.5...2.0)
        weights = meanVertexWeights(fan.faces, vertexCount: fan.vertices.count)
        let topology = try SurfaceTopology(faces: fan.faces, vertexCount: fan.vertices.count)
        #expect(topology.vertexKinds[0] == .boundary(faces: k))
        var estimates: [SIMD3<Double>] = []
        for steps in 1...5 {
            let plan = try SubdivisionPlan(topology: topology, steps: steps)
            let points = try plan.evaluate(vertices: fan.vertices, weights: weights, pointScale: pointScale).points
            let center = Int(plan.quad(fan.centerFaces[0] * plan.resolution * plan.resolution)[0])
            if steps != 3 && steps != 4 { centers[steps] = (points.to[center], points.normals[center]) }
            if steps >= 3 { estimates.append(estimatedNormal(plan: plan, points: points, faces: fan.centerFaces).0) }
        }
        rawEstimate = estimates[2]
        let d1 = estimates[1] - estimates[0], d2 = estimates[2] - estimates[1]
        var e = estimates[2]
        for axis in 0..<3 where abs(d2[axis] - d1[axis]) > 1e-15 {
            e[axis] -= d2[axis] * d2[axis] / (d2[axis] - d1[axis])
        }
        extrapolated = Vec.normalize(e)

        let S = OneRing.boundaryMatrix(faces: k)
        var positionMask = [Double](repeating: 0, count: 2 * k + 2)
        positionMask[0] = 4.0 / 6
        positionMask[1] = 1.0 / 6
        positionMask[k + 1] = 1.0 / 6
        let fixed = OneRing.leftMultiply(positionMask, S)
        #expect(zip(fixed, positionMask).allSatisfy { abs($0 - $1) < 1e-15 }, "the boundary limit mask is S's left eigenvector for 1")
        let (x, y, gx, gy) = OneRing.dominantTangentMasks(S)
        growth = (gx, gy)
        exact = OneRing.normal(
            ring: fanRing(fan, weights: weights, closed: false), position: positionMask,
            masks: (x, y), orientation: extrapolated)
    }
}

// MARK: - Tests

@Suite struct SurfaceTests {
    @Test func bsplineBasisIsPartitionOfUnityWithMatchingDerivatives() {
        for t in stride(from: 0.0, through: 1.0, by: 0.125) {
            let b = CubicBSpline.basis(t)
            #expect(abs(b.sum() - 1) < 1e-15)
            #expect(abs(CubicBSpline.derivative(t).sum()) < 1e-15)
            let h = 1e-6
            let fd = (CubicBSpline.basis(t + h) - CubicBSpline.basis(t - h)) / (2 * h)
            #expect(
                Vec.maxDiff(
                    SIMD3(fd[0], fd[1], fd[2]),
                    SIMD3(CubicBSpline.derivative(t)[0], CubicBSpline.derivative(t)[1], CubicBSpline.derivative(t)[2])) < 1e-9)
            #expect(abs(fd[3] - CubicBSpline.derivative(t)[3]) < 1e-9)
        }
        // C² joins: the end of one interval continues as the start of the next, shifted by one.
        #expect(CubicBSpline.basis(1)[1] == CubicBSpline.basis(0)[0])
        #expect(abs(CubicBSpline.basis(1)[2] - CubicBSpline.basis(0)[1]) < 1e-15)
        #expect(abs(CubicBSpline.basis(1)[3] - CubicBSpline.basis(0)[2]) < 1e-15)
    }

    @Test func vertexWeightsAreMeansOfFaceWeights() throws {
        let grid = GridMesh(rows: 4, columns: 5, seed: 7, jitter: 0.2, depth: 0.1, weights: 0.5...2.0)
        let topology = try SurfaceTopology(faces: grid.faces, vertexCount: grid.vertices.count)
        let got = topology.vertexWeights(faces: grid.faces)
        let want = meanVertexWeights(grid.faces, vertexCount: grid.vertices.count)
        #expect(got.count == want.count)
        let worst = zip(got, want).map { abs($0 - $1) }.max() ?? 0
        #expect(worst < 1e-15)
        // The fixture really has faces that disagree on shared vertices.
        let v = grid.vertex(2, 2)
        let given = grid.faces.enumerated().compactMap { _, f in (0..<4).first { f.indices[$0] == v }.map { f.weights[$0] } }
        #expect(given.count == 4 && Set(given).count == 4)
    }

    @Test func gridVertexKindsAreCornersBoundariesAndRegularInterior() throws {
        let grid = GridMesh(rows: 3, columns: 4, seed: 1, jitter: 0, depth: 0, weights: nil)
        let kinds = try SurfaceTopology(faces: grid.faces, vertexCount: grid.vertices.count).vertexKinds
        for r in 0...3 {
            for c in 0...4 {
                let onRow = r == 0 || r == 3, onColumn = c == 0 || c == 4
                let want: SurfaceTopology.VertexKind =
                    onRow && onColumn ? .corner : (onRow || onColumn ? .boundary(faces: 2) : .interior(valence: 4))
                #expect(kinds[grid.vertex(r, c)] == want, "vertex (\(r),\(c))")
            }
        }
    }

    /// Property 1: where every vertex has four faces, the surface is the rational bicubic B-spline of
    /// each face's 4×4 neighbourhood, for `to`, `from`, the points-space normals and the centres.
    @Test(arguments: [1, 2, 3])
    func interiorFacesMatchRationalBicubicPatch(steps: Int) throws {
        let grid = GridMesh(rows: 6, columns: 7, seed: 42, jitter: 0.3, depth: 0.25, weights: 0.4...2.5)
        let weights = meanVertexWeights(grid.faces, vertexCount: grid.vertices.count)
        let control = extendedHomogeneousGrid(grid, weights: weights)
        // Interior faces: the 4×4 neighbourhood (rows r−1…r+2, columns c−1…c+2) is all real vertices.
        var interior: [(Int, Int)] = []
        for r in 1...(grid.rows - 3) { for c in 1...(grid.columns - 3) { interior.append((r, c)) } }
        #expect(interior.count == 12)
        let (corners, centers) = try compareGridWithPatches(grid, weights: weights, steps: steps, faces: interior, control: control)
        #expect(corners.samples == 12 * 4 * (1 << (2 * steps)))
        #expect(corners.maximum < 1e-9, "sub-quad corners: \(corners)")
        #expect(centers.maximum < 1e-9, "sub-quad centres: \(centers)")
    }

    /// Property 2: with edge-and-corner boundaries, the boundary and corner faces are the B-spline
    /// patches over the grid extended by phantom points P₋₁ = 2P₀ − P₁ (see `extendedHomogeneousGrid`).
    @Test(arguments: [1, 2, 3])
    func boundaryFacesMatchPhantomExtendedPatch(steps: Int) throws {
        let grid = GridMesh(rows: 5, columns: 6, seed: 4242, jitter: 0.3, depth: 0.25, weights: 0.4...2.5)
        let weights = meanVertexWeights(grid.faces, vertexCount: grid.vertices.count)
        let control = extendedHomogeneousGrid(grid, weights: weights)
        var boundary: [(Int, Int)] = []
        for r in 0..<grid.rows {
            for c in 0..<grid.columns where r == 0 || c == 0 || r == grid.rows - 1 || c == grid.columns - 1 {
                boundary.append((r, c))
            }
        }
        let (corners, centers) = try compareGridWithPatches(grid, weights: weights, steps: steps, faces: boundary, control: control)
        #expect(corners.maximum < 1e-9, "boundary sub-quad corners: \(corners)")
        #expect(centers.maximum < 1e-9, "boundary sub-quad centres: \(centers)")
        // A 1-face-wide strip: every face is a boundary face and two of its corners are corners.
        let strip = GridMesh(rows: 1, columns: 3, seed: 99, jitter: 0.3, depth: 0.25, weights: 0.4...2.5)
        let stripWeights = meanVertexWeights(strip.faces, vertexCount: strip.vertices.count)
        let (stripCorners, stripCenters) = try compareGridWithPatches(
            strip, weights: stripWeights, steps: steps, faces: [(0, 0), (0, 1), (0, 2)],
            control: extendedHomogeneousGrid(strip, weights: stripWeights))
        #expect(stripCorners.maximum < 1e-9, "1×3 strip corners: \(stripCorners)")
        #expect(stripCenters.maximum < 1e-9, "1×3 strip centres: \(stripCenters)")
    }

    /// The layer's corners stay pinned and the boundary is the cubic B-spline of the boundary vertices.
    @Test func gridCornersArePinned() throws {
        let grid = GridMesh(rows: 3, columns: 4, seed: 5, jitter: 0.3, depth: 0.25, weights: 0.4...2.5)
        let weights = meanVertexWeights(grid.faces, vertexCount: grid.vertices.count)
        let topology = try SurfaceTopology(faces: grid.faces, vertexCount: grid.vertices.count)
        for steps in 1...3 {
            let plan = try SubdivisionPlan(topology: topology, steps: steps)
            let points = try plan.evaluate(vertices: grid.vertices, weights: weights, pointScale: pointScale).points
            let n = plan.resolution
            let cornerQuads = [
                (grid.face(0, 0), 0, 0), (grid.face(0, 3), n - 1, 0),
                (grid.face(2, 3), n - 1, n - 1), (grid.face(2, 0), 0, n - 1),
            ]
            let vertices = [grid.vertex(0, 0), grid.vertex(0, 4), grid.vertex(3, 4), grid.vertex(3, 0)]
            for (k, (f, i, j)) in cornerQuads.enumerated() {
                let index = Int(plan.quad(f * n * n + j * n + i)[k])
                #expect(Vec.maxDiff(points.to[index], grid.vertices[vertices[k]].to) < 1e-14, "steps \(steps) corner \(k)")
                #expect(Vec.maxDiff(points.from[index], grid.vertices[vertices[k]].from) < 1e-14, "steps \(steps) corner \(k)")
            }
        }
    }

    /// Property 3: a closed cube (every vertex of valence 3) refined by an independent Catmull–Clark
    /// refiner and moved to the limit with (n²v + 4Σe + Σd)/(n(n+5)) gives every evaluated point.
    @Test func closedCubeMatchesReferenceRefinementAndLimitMask() throws {
        var rng = SplitMix64(seed: 2024)
        var corners: [SIMD3<Double>] = []
        for index in 0..<8 {
            corners.append(SIMD3(Double(index & 1), Double((index >> 1) & 1), Double((index >> 2) & 1)))
        }
        var faces: [MeshFace] = []
        for axis in 0..<3 {
            for side in 0..<2 {
                let b = (axis + 1) % 3, c = (axis + 2) % 3
                var quad: [Int] = []
                for (x, y) in [(0, 0), (1, 0), (1, 1), (0, 1)] {
                    var coords = [0, 0, 0]
                    coords[axis] = side
                    coords[b] = x
                    coords[c] = y
                    quad.append(coords[0] + 2 * coords[1] + 4 * coords[2])
                }
                // Orient outward: (v1 − v0) × (v3 − v0) points away from the cube's centre.
                let n = Vec.cross(corners[quad[1]] - corners[quad[0]], corners[quad[3]] - corners[quad[0]])
                let out = (corners[quad[0]] + corners[quad[2]]) / 2 - SIMD3(repeating: 0.5)
                if Vec.dot(n, out) < 0 { quad = [quad[0], quad[3], quad[2], quad[1]] }
                faces.append(MeshFace(quad[0], quad[1], quad[2], quad[3]))
            }
        }
        let vertices = corners.map { p in
            MeshVertex(
                from: SIMD2(rng.uniform(0...1), rng.uniform(0...1)),
                to: p * 0.5 + 0.25 + 0.08 * SIMD3(rng.uniform(-1...1), rng.uniform(-1...1), rng.uniform(-1...1)))
        }
        let topology = try SurfaceTopology(faces: faces, vertexCount: 8)
        #expect(topology.boundaryEdgeCount == 0)
        #expect(topology.vertexKinds == Array(repeating: .interior(valence: 3), count: 8))
        for steps in 1...3 {
            let result = try compareWithReference(vertices: vertices, faces: faces, weights: Array(repeating: 1, count: 8), steps: steps)
            #expect(result.pointCount == 6 * (1 << (2 * steps)) + 2)
            #expect(result.mappingErrors == 0)
            #expect(max(result.from, result.to) < 1e-9, "steps \(steps): max |Δfrom| \(result.from) |Δto| \(result.to); \(result.worst)")
        }
        // The same with weights the faces disagree on (the refiner works on homogeneous values).
        let weighted = faces.map {
            MeshFace(
                indices: $0.indices, weights: SIMD4(rng.uniform(0.5...2), rng.uniform(0.5...2), rng.uniform(0.5...2), rng.uniform(0.5...2)))
        }
        let weights = meanVertexWeights(weighted, vertexCount: 8)
        for steps in 1...3 {
            let result = try compareWithReference(vertices: vertices, faces: weighted, weights: weights, steps: steps)
            #expect(result.mappingErrors == 0)
            #expect(
                max(result.from, result.to) < 1e-9,
                "weighted, steps \(steps): max |Δfrom| \(result.from) |Δto| \(result.to); \(result.worst)")
        }
    }

    /// Property 4: `to = (from, 0)` is the identity whatever the weights and steps: to == (from, 0) and
    /// the normal is (0, 0, 1). With equal weights, `from` at a sub-quad corner is the corner's
    /// dyadic parameter mapped affinely into the face's rectangle of the layer.
    @Test func identityMeshStaysIdentityAtEveryStep() throws {
        let rows = 3, columns = 4
        // Random weights: the to/from identity and flat normals.
        let random = GridMesh(rows: rows, columns: columns, seed: 77, jitter: 0, depth: 0, weights: 0.3...3.0)
        var identity = random
        identity.vertices = random.vertices.map { MeshVertex(from: $0.from, to: SIMD3($0.from.x, $0.from.y, 0)) }
        let weights = meanVertexWeights(identity.faces, vertexCount: identity.vertices.count)
        let topology = try SurfaceTopology(faces: identity.faces, vertexCount: identity.vertices.count)
        let plans = try (0...4).map { try SubdivisionPlan(topology: topology, steps: $0) }
        for steps in 0...4 {
            let plan = plans[steps]
            let evaluation = try plan.evaluate(vertices: identity.vertices, weights: weights, pointScale: pointScale, includeCenters: true)
            let centerSamples = try #require(evaluation.centers)
            for samples in [evaluation.points, centerSamples] {
                var dTo = 0.0, dNormal = 0.0
                for k in 0..<samples.count {
                    dTo = max(dTo, Vec.maxDiff(samples.to[k], SIMD3(samples.from[k].x, samples.from[k].y, 0)))
                    dNormal = max(dNormal, Vec.maxDiff(samples.normals[k], SIMD3(0, 0, 1)))
                }
                #expect(dTo < 1e-12, "steps \(steps): max |to − (from, 0)| = \(dTo)")
                #expect(dNormal < 1e-12, "steps \(steps): max |normal − (0,0,1)| = \(dNormal)")
            }
        }
        // Equal weights: from is the affine image of the dyadic parameters. (With unequal weights the
        // rational parametrisation is not affine; property 1 checks that case against the patch.)
        for constant in [1.0, 2.5] {
            let uniform = [Double](repeating: constant, count: identity.vertices.count)
            for steps in 0...4 {
                let plan = plans[steps]
                let evaluation = try plan.evaluate(
                    vertices: identity.vertices, weights: uniform, pointScale: pointScale, includeCenters: true)
                let centers = try #require(evaluation.centers)
                let n = plan.resolution
                var dCorner = 0.0, dCenter = 0.0
                for r in 0..<rows {
                    for c in 0..<columns {
                        for j in 0..<n {
                            for i in 0..<n {
                                let q = identity.face(r, c) * n * n + j * n + i
                                let quad = plan.quad(q)
                                for (k, (a, b)) in [(i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1)].enumerated() {
                                    let want = SIMD2(
                                        (Double(c) + Double(a) / Double(n)) / Double(columns),
                                        (Double(r) + Double(b) / Double(n)) / Double(rows))
                                    dCorner = max(dCorner, Vec.maxDiff(evaluation.points.from[Int(quad[k])], want))
                                }
                                let want = SIMD2(
                                    (Double(c) + (Double(i) + 0.5) / Double(n)) / Double(columns),
                                    (Double(r) + (Double(j) + 0.5) / Double(n)) / Double(rows))
                                dCenter = max(dCenter, Vec.maxDiff(centers.from[q], want))
                            }
                        }
                    }
                }
                #expect(dCorner < 1e-12, "weight \(constant) steps \(steps): corner from off by \(dCorner)")
                #expect(dCenter < 1e-12, "weight \(constant) steps \(steps): centre from off by \(dCenter)")
            }
        }
    }

    /// Property 5: steps 0 is the control mesh: one point per control vertex, the faces as quads.
    @Test func stepsZeroPassesThroughControlVertices() throws {
        for weighted in [false, true] {
            let grid = GridMesh(rows: 3, columns: 4, seed: 31, jitter: 0.3, depth: 0.3, weights: weighted ? 0.3...3.0 : nil)
            let weights = meanVertexWeights(grid.faces, vertexCount: grid.vertices.count)
            let topology = try SurfaceTopology(faces: grid.faces, vertexCount: grid.vertices.count)
            let plan = try SubdivisionPlan(topology: topology, steps: 0)
            #expect(plan.pointCount == grid.vertices.count)
            #expect(plan.quadCount == grid.faces.count)
            for (f, face) in grid.faces.enumerated() {
                #expect(plan.quad(f) == SIMD4<Int32>(truncatingIfNeeded: face.indices), "face \(f)")
            }
            let points = try plan.evaluate(vertices: grid.vertices, weights: weights, pointScale: pointScale).points
            for (v, vertex) in grid.vertices.enumerated() {
                if weighted {
                    // (W·x)/W rounds twice: allow a few units in the last place.
                    #expect(Vec.maxDiff(points.to[v], vertex.to) <= 4 * Double.ulpOfOne, "vertex \(v)")
                    #expect(Vec.maxDiff(points.from[v], vertex.from) <= 4 * Double.ulpOfOne, "vertex \(v)")
                } else {
                    #expect(points.to[v] == vertex.to, "vertex \(v)")
                    #expect(points.from[v] == vertex.from, "vertex \(v)")
                }
                #expect(abs(Vec.length(points.normals[v]) - 1) < 1e-12)
            }
        }
    }

    /// Property 6: counts, manifold quad connectivity and watertightness of a grid's tessellation.
    @Test func gridTessellationCountsAndEdgesAreWatertight() throws {
        let rows = 3, columns = 4
        let grid = GridMesh(rows: rows, columns: columns, seed: 8, jitter: 0.2, depth: 0.2, weights: 0.5...2)
        let topology = try SurfaceTopology(faces: grid.faces, vertexCount: grid.vertices.count)
        for steps in 0...4 {
            let plan = try SubdivisionPlan(topology: topology, steps: steps)
            let n = 1 << steps
            #expect(plan.resolution == n)
            #expect(plan.pointCount == (rows * n + 1) * (columns * n + 1), "steps \(steps)")
            #expect(plan.quadCount == rows * columns * n * n, "steps \(steps)")
            var directed: [EdgeKey: [(Int, Int)]] = [:]
            var used = Set<Int>()
            for q in 0..<plan.quadCount {
                #expect(plan.controlFace(ofQuad: q) == q / (n * n))
                let quad = plan.quad(q)
                #expect(Set((0..<4).map { quad[$0] }).count == 4, "quad \(q) repeats a corner")
                for k in 0..<4 {
                    let a = Int(quad[k]), b = Int(quad[(k + 1) % 4])
                    used.insert(a)
                    directed[EdgeKey(a, b), default: []].append((a, b))
                }
            }
            #expect(used.count == plan.pointCount, "every point is a corner, steps \(steps)")
            #expect(used.allSatisfy { $0 >= 0 && $0 < plan.pointCount })
            var boundary = 0, interior = 0, bad = 0
            for (_, uses) in directed {
                switch uses.count {
                case 1: boundary += 1
                case 2 where uses[0].0 == uses[1].1 && uses[0].1 == uses[1].0: interior += 1
                default: bad += 1
                }
            }
            #expect(bad == 0, "edges used more than twice or twice in the same direction, steps \(steps)")
            #expect(boundary == 2 * (rows + columns) * n, "steps \(steps)")
            #expect(interior == (rows * n) * (columns * n - 1) + (columns * n) * (rows * n - 1), "steps \(steps)")
            // Shared control edges: face (r, c)'s right column of corners is face (r, c+1)'s left,
            // and its bottom row is face (r+1, c)'s top.
            func corner(_ f: Int, _ i: Int, _ j: Int) -> Int32 {
                // Corner (i, j) of face f at resolution n, i, j ∈ 0…n.
                let qi = min(i, n - 1), qj = min(j, n - 1)
                let quad = plan.quad(f * n * n + qj * n + qi)
                switch (i == qi, j == qj) {
                case (true, true): return quad[0]
                case (false, true): return quad[1]
                case (false, false): return quad[2]
                case (true, false): return quad[3]
                }
            }
            var mismatches = 0
            for r in 0..<rows {
                for c in 0..<columns {
                    for t in 0...n {
                        if c + 1 < columns, corner(grid.face(r, c), n, t) != corner(grid.face(r, c + 1), 0, t) { mismatches += 1 }
                        if r + 1 < rows, corner(grid.face(r, c), t, n) != corner(grid.face(r + 1, c), t, 0) { mismatches += 1 }
                    }
                    // Within a face, the (n+1)² corners are distinct points.
                    var own = Set<Int32>()
                    for j in 0...n { for i in 0...n { own.insert(corner(grid.face(r, c), i, j)) } }
                    #expect(own.count == (n + 1) * (n + 1))
                }
            }
            #expect(mismatches == 0, "steps \(steps): \(mismatches) edge points differ between neighbouring faces")
        }
    }

    /// Property 7: interior extraordinary vertices (valence 3, 5 and 6; 4 as a control). Every limit
    /// point at steps 1 and 2 agrees with the reference refiner + limit mask; the normal at the
    /// extraordinary vertex is unit, is the exact limit normal (from the one-ring subdivision
    /// matrix's tangent eigenvectors) at steps 1, 2 and 4, and agrees with the normal of the steps-4
    /// limit points around it (a finite estimate, to 1e-2 rad; it is within 3e-4 rad here).
    @Test(arguments: [3, 5, 6, 4])
    func extraordinaryInteriorVertexMatchesReferenceAndNormalEstimate(valence: Int) throws {
        let fan = FanMesh(sectors: valence, size: 2, closed: true, seed: UInt64(100 + valence), weights: 0.5...2.0)
        let weights = meanVertexWeights(fan.faces, vertexCount: fan.vertices.count)
        let topology = try SurfaceTopology(faces: fan.faces, vertexCount: fan.vertices.count)
        #expect(topology.vertexKinds[0] == .interior(valence: valence))
        for steps in 1...2 {
            let result = try compareWithReference(vertices: fan.vertices, faces: fan.faces, weights: weights, steps: steps)
            #expect(result.mappingErrors == 0)
            #expect(
                max(result.from, result.to) < 1e-9,
                "valence \(valence) steps \(steps): max |Δfrom| \(result.from) |Δto| \(result.to); \(result.worst)")
        }
        // The exact normal. Check the matrix first: the position mask (n²v + 4Σe + Σd)/(n(n+5)) is
        // its left eigenvector for 1.
        let S = OneRing.interiorMatrix(valence: valence)
        let nd = Double(valence)
        let position = [nd * nd] + [Double](repeating: 4, count: valence) + [Double](repeating: 1, count: valence)
        let positionMask = position.map { $0 / (nd * (nd + 5)) }
        let fixed = OneRing.leftMultiply(positionMask, S)
        #expect(zip(fixed, positionMask).allSatisfy { abs($0 - $1) < 1e-15 })
        let (x, y, gx, gy) = OneRing.dominantTangentMasks(S)
        // Both subdominant eigenvalues equal λ = (5 + cos(2π/n) + cos(π/n)√(2(9 + cos(2π/n))))/16.
        let c = cos(2 * Double.pi / nd)
        let lambda = (5 + c + cos(Double.pi / nd) * (2 * (9 + c)).squareRoot()) / 16
        #expect(abs(gx - lambda) < 1e-9 && abs(gy - lambda) < 1e-9, "valence \(valence): growth \(gx), \(gy), λ = \(lambda)")

        let fine = try SubdivisionPlan(topology: topology, steps: 4)
        let finePoints = try fine.evaluate(vertices: fan.vertices, weights: weights, pointScale: pointScale).points
        let (estimate, fineCenter) = estimatedNormal(plan: fine, points: finePoints, faces: fan.centerFaces)
        let exact = OneRing.normal(
            ring: fanRing(fan, weights: weights, closed: true), position: positionMask,
            masks: (x, y), orientation: estimate)
        #expect(Vec.angle(exact, estimate) < 1e-2, "valence \(valence): exact normal \(exact) vs estimate \(estimate)")
        for steps in [1, 2, 4] {
            let plan = try SubdivisionPlan(topology: topology, steps: steps)
            let points =
                steps == 4 ? finePoints : try plan.evaluate(vertices: fan.vertices, weights: weights, pointScale: pointScale).points
            let center = Int(plan.quad(fan.centerFaces[0] * plan.resolution * plan.resolution)[0])
            let normal = points.normals[center]
            #expect(abs(Vec.length(normal) - 1) < 1e-12)
            let angle = Vec.angle(normal, estimate)
            #expect(angle < 1e-2, "valence \(valence) steps \(steps): normal \(normal) is \(angle) rad from the estimate \(estimate)")
            #expect(
                Vec.angle(normal, exact) < 1e-9,
                "valence \(valence) steps \(steps): normal \(normal) is \(Vec.angle(normal, exact)) rad from the exact \(exact)")
            // The limit point of a control vertex does not depend on the level it is computed at.
            #expect(Vec.maxDiff(points.to[center], finePoints.to[fineCenter]) < 1e-12)
        }
    }

    /// Property 8: a boundary vertex with three faces (two as the regular control). Limit points agree
    /// with the reference refiner, and the limit normal at the vertex is within 1e-2 rad of the normal
    /// estimated from the limit points of the fine tessellation around it.
    ///
    /// The finite estimate: with the edge-and-corner rules the one-ring matrix of a 3-face boundary
    /// vertex has eigenvalues 1, 0.5797 (across), 1/2 (along the boundary), 0.4101, …, so the normal of
    /// the limit points adjacent to the vertex at steps n converges only like (0.4101/0.5)ⁿ ≈ 0.82ⁿ
    /// (at steps 5 it is still about 0.02 rad off). The estimate used is therefore the Aitken Δ²
    /// extrapolation of the steps 3, 4, 5 estimates, itself checked against the exact normal.
    @Test(arguments: [3, 2])
    func extraordinaryBoundaryVertexNormalMatchesFineTessellation(faces k: Int) throws {
        let fixture = try BoundaryFanFixture(faces: k)
        for steps in 1...2 {
            let result = try compareWithReference(
                vertices: fixture.fan.vertices, faces: fixture.fan.faces, weights: fixture.weights, steps: steps)
            #expect(result.mappingErrors == 0)
            #expect(
                max(result.from, result.to) < 1e-9,
                "boundary k=\(k) steps \(steps): max |Δfrom| \(result.from) |Δto| \(result.to); \(result.worst)")
        }
        #expect(
            Vec.angle(fixture.exact, fixture.extrapolated) < 1e-2,
            "k=\(k): exact \(fixture.exact) vs extrapolated estimate \(fixture.extrapolated) (raw steps-5 estimate \(fixture.rawEstimate))")
        for (steps, center) in fixture.centers {
            #expect(abs(Vec.length(center.normal) - 1) < 1e-12)
            #expect(Vec.maxDiff(center.to, fixture.centers[5]!.to) < 1e-12, "the vertex's limit point does not depend on the steps")
            let angle = Vec.angle(center.normal, fixture.extrapolated)
            #expect(
                angle < 1e-2,
                "boundary k=\(k) steps \(steps): normal \(center.normal) is \(angle) rad from the extrapolated estimate \(fixture.extrapolated)"
            )
        }
    }

    /// The normal at a boundary vertex with three faces is the exact limit normal (Docs/surface.md), to
    /// 1e-9 rad, at every number of steps: the plane of the two dominant tangent eigenvectors of the
    /// one-ring subdivision matrix of the edge-and-corner rules (see `OneRing`), one of which is the
    /// boundary curve's tangent (e₀ − eₖ)/2 with eigenvalue 1/2. (Two faces: the regular control.)
    @Test(arguments: [3, 2])
    func boundaryVertexNormalIsExactLimitNormal(faces k: Int) throws {
        let fixture = try BoundaryFanFixture(faces: k)
        #expect(
            abs(min(fixture.growth.0, fixture.growth.1) - 0.5) < 1e-9 || abs(max(fixture.growth.0, fixture.growth.1) - 0.5) < 1e-9,
            "k=\(k): growth \(fixture.growth)")
        // Needs no reference at all: the normal at one surface point must not depend on the steps.
        let (n1, n5) = (fixture.centers[1]!.normal, fixture.centers[5]!.normal)
        #expect(
            Vec.angle(n1, n5) < 1e-9, "boundary k=\(k): normal at steps 1 \(n1) and at steps 5 \(n5) differ by \(Vec.angle(n1, n5)) rad")
        for (steps, center) in fixture.centers.sorted(by: { $0.key < $1.key }) {
            let angle = Vec.angle(center.normal, fixture.exact)
            #expect(
                angle < 1e-9,
                "boundary k=\(k) steps \(steps): normal \(center.normal) is \(angle) rad from the exact limit normal \(fixture.exact)")
        }
    }

    /// Boundary vertices with four and five faces: limit points agree with the reference refiner.
    /// (Their normals are not checked: with these rules the one-ring matrix has a second eigenvalue
    /// ≥ 1/2 besides the boundary's, so the tangent plane is not the plane of the boundary tangent.)
    @Test(arguments: [4, 5])
    func boundaryVertexWithManyFacesMatchesReference(faces k: Int) throws {
        let fan = FanMesh(sectors: k, size: 2, closed: false, seed: UInt64(300 + k), weights: 0.5...2.0)
        let weights = meanVertexWeights(fan.faces, vertexCount: fan.vertices.count)
        let topology = try SurfaceTopology(faces: fan.faces, vertexCount: fan.vertices.count)
        #expect(topology.vertexKinds[0] == .boundary(faces: k))
        for steps in 1...2 {
            let result = try compareWithReference(vertices: fan.vertices, faces: fan.faces, weights: weights, steps: steps)
            #expect(result.mappingErrors == 0)
            #expect(
                max(result.from, result.to) < 1e-9,
                "boundary k=\(k) steps \(steps): max |Δfrom| \(result.from) |Δto| \(result.to); \(result.worst)")
        }
    }
}
