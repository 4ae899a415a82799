import Foundation
import MeshTessellate
import SurfaceKit
import Testing

// Property tests over random valid meshes (issue 9): grids, closed meshes, grids with holes and
// faces that share only a vertex, with random weights, depths, steps, diagonals and layer
// transforms. For each: tessellation does not throw or trap, every output number is finite, the
// output is watertight (every edge inside the surface is used by exactly two triangles, once in
// each direction, and the border is the control mesh's border cut into 2ⁿ pieces), and the exact
// painter's order draws, at every unambiguous pixel, the surface a z-buffer finds nearest.
//
// Every mesh comes from a seeded generator, so a failure names a seed that reproduces it.

@Suite struct PropertyTests {
    typealias P = PropertySupport

    static let seeds: [UInt64] = Array(1...24)

    @Test(arguments: seeds)
    func randomMeshesTessellateFiniteAndWatertight(seed: UInt64) throws {
        var random = TessSupport.Random(seed: seed &* 0x5851_F42D_4C95_7F2D)
        let sample = try P.randomMesh(&random)
        let steps = Int.random(in: 0...3, using: &random)
        let diagonal = DiagonalPolicy.allCases.randomElement(using: &random) ?? .shortest
        let options = TessellationOptions(steps: .fixed(steps), diagonal: diagonal)
        let mesh = try Tessellator.tessellate(sample.document, options: options, space: .unit)

        let perQuad = diagonal == .center ? 4 : 2
        let quads = sample.document.mesh.faces.count << (2 * steps)
        #expect(mesh.triangleCount == quads * perQuad, "seed \(seed): \(sample.kind)")
        #expect(P.allFinite(mesh), "seed \(seed): \(sample.kind) has a non-finite number")

        let edges = P.edgeUse(mesh.triangles)
        #expect(edges.overused == 0, "seed \(seed): \(sample.kind): \(edges.overused) edges used three or more times")
        #expect(edges.sameDirection == 0, "seed \(seed): \(sample.kind): \(edges.sameDirection) edges run the same way twice")
        // A crack would add border edges; a closed mesh has none.
        let expectedBorder = P.controlBorderEdgeCount(sample.document.mesh.faces) << steps
        #expect(edges.border == expectedBorder, "seed \(seed): \(sample.kind), steps \(steps), \(diagonal)")

        // The other spaces are finite too (screen space clips what is behind the eye).
        for space in [CoordinateSpace.points, .screen] {
            let other = try Tessellator.tessellate(sample.document, options: options, space: space)
            #expect(P.allFinite(other), "seed \(seed): \(sample.kind) in \(space) space")
        }
    }

    @Test(arguments: seeds.prefix(12))
    func exactPainterOrderMatchesAZBuffer(seed: UInt64) throws {
        var random = TessSupport.Random(seed: seed &* 0x2545_F491_4F6C_DD1D)
        let document = try P.foldedSheet(&random)
        let options = TessellationOptions(steps: .fixed(Int.random(in: 0...1, using: &random)))
        let points = try Tessellator.tessellate(document, options: options, space: .points)
        let (sorted, _) = try PainterSorter.sorted(mesh: points, geometry: document.geometry, mode: .exact, space: .screen)
        #expect(P.allFinite(sorted))

        let reference = points.triangles.map { t in
            (
                P.project(points.positions[Int(t.x)], layer: document.layer),
                P.project(points.positions[Int(t.y)], layer: document.layer),
                P.project(points.positions[Int(t.z)], layer: document.layer)
            )
        }
        let drawn = sorted.triangles.map { t in
            (sorted.positions[Int(t.x)], sorted.positions[Int(t.y)], sorted.positions[Int(t.z)])
        }
        let result = P.compareWithZBuffer(drawn: drawn, reference: reference, resolution: 120)
        #expect(result.overlapping > 200, "seed \(seed): the sheet should fold over itself somewhere")
        #expect(result.wrong == 0, "seed \(seed): \(result.wrong) of \(result.checked) pixels show a surface behind another")

        // The scene can tell a right order from a wrong one: tessellation order is wrong here.
        let (unsorted, _) = try PainterSorter.sorted(mesh: points, geometry: document.geometry, mode: .none, space: .screen)
        let plain = unsorted.triangles.map { t in
            (unsorted.positions[Int(t.x)], unsorted.positions[Int(t.y)], unsorted.positions[Int(t.z)])
        }
        let control = P.compareWithZBuffer(drawn: plain, reference: reference, resolution: 120)
        #expect(control.wrong > 0, "seed \(seed): drawing in tessellation order should get some pixels wrong")
    }
}

/// The generator, the checks and a rasterizer, written here and independent of the library.
enum PropertySupport {
    struct Sample {
        var kind: String
        var document: MeshDocument
    }

    // MARK: Random meshes

    static func randomMesh(_ random: inout TessSupport.Random) throws -> Sample {
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            let rows = Int.random(in: 1...4, using: &random), columns = Int.random(in: 1...4, using: &random)
            return Sample(kind: "grid \(rows)×\(columns)", document: try document(grid(rows, columns, &random), &random))
        case 1:
            return Sample(kind: "cube", document: try document(cube(&random), &random))
        case 2:
            let rows = Int.random(in: 3...4, using: &random), columns = Int.random(in: 3...5, using: &random)
            var (vertices, faces) = grid(rows, columns, &random)
            // Drop a few faces: holes, and faces left touching only at a corner.
            for _ in 0..<Int.random(in: 1...3, using: &random) where faces.count > 1 {
                faces.remove(at: Int.random(in: 0..<faces.count, using: &random))
            }
            return Sample(kind: "grid \(rows)×\(columns) with holes", document: try document((vertices, faces), &random))
        default:
            let rows = Int.random(in: 3...4, using: &random), columns = Int.random(in: 3...5, using: &random)
            return Sample(kind: "torus \(rows)×\(columns)", document: try document(torus(rows, columns, &random), &random))
        }
    }

    /// A rows × columns grid over the unit square with random depths and weights.
    static func grid(_ rows: Int, _ columns: Int, _ random: inout TessSupport.Random) -> ([MeshVertex], [MeshFace]) {
        var vertices: [MeshVertex] = []
        for i in 0...rows {
            for j in 0...columns {
                let from = SIMD2(Double(j) / Double(columns), Double(i) / Double(rows))
                let jitter = SIMD2(random.uniform(-0.2...0.2), random.uniform(-0.2...0.2)) / Double(max(rows, columns))
                vertices.append(MeshVertex(from: from, to: SIMD3(from + jitter, random.uniform(-0.5...0.5))))
            }
        }
        var faces: [MeshFace] = []
        for i in 0..<rows {
            for j in 0..<columns {
                let a = i * (columns + 1) + j
                faces.append(MeshFace(a, a + 1, a + columns + 2, a + columns + 1, weights: randomWeights(&random)))
            }
        }
        return (vertices, faces)
    }

    /// A jittered cube, every face wound the same way (outward).
    static func cube(_ random: inout TessSupport.Random) -> ([MeshVertex], [MeshFace]) {
        var vertices: [MeshVertex] = []
        for k in 0..<8 {
            let corner = SIMD3(Double(k & 1), Double(k >> 1 & 1), Double(k >> 2 & 1))
            let p = corner + SIMD3(random.uniform(-0.1...0.1), random.uniform(-0.1...0.1), random.uniform(-0.1...0.1))
            vertices.append(MeshVertex(from: SIMD2(corner.x, corner.y), to: p))
        }
        let quads = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]]
        let faces = quads.map { MeshFace($0[0], $0[1], $0[2], $0[3], weights: randomWeights(&random)) }
        return (vertices, faces)
    }

    /// A closed rows × columns torus (indices wrap both ways): every vertex has valence 4.
    static func torus(_ rows: Int, _ columns: Int, _ random: inout TessSupport.Random) -> ([MeshVertex], [MeshFace]) {
        var vertices: [MeshVertex] = []
        for i in 0..<rows {
            for j in 0..<columns {
                let u = 2 * Double.pi * Double(j) / Double(columns), v = 2 * Double.pi * Double(i) / Double(rows)
                let r = 0.3 + 0.1 * cos(v) + random.uniform(-0.02...0.02)
                let p = SIMD3(0.5 + r * cos(u), 0.5 + r * sin(u), 0.1 * sin(v))
                vertices.append(MeshVertex(from: SIMD2(Double(j) / Double(columns), Double(i) / Double(rows)), to: p))
            }
        }
        var faces: [MeshFace] = []
        for i in 0..<rows {
            for j in 0..<columns {
                let a = i * columns + j, b = i * columns + (j + 1) % columns
                let c = ((i + 1) % rows) * columns + (j + 1) % columns, d = ((i + 1) % rows) * columns + j
                faces.append(MeshFace(a, b, c, d, weights: randomWeights(&random)))
            }
        }
        return (vertices, faces)
    }

    static func randomWeights(_ random: inout TessSupport.Random) -> SIMD4<Double> {
        guard Bool.random(using: &random) else { return SIMD4(repeating: 1) }
        return SIMD4((0..<4).map { _ in random.uniform(0.2...5) })
    }

    /// The mesh on a random layer: size, depth normalization, anchor, a rotation with perspective.
    static func document(_ parts: ([MeshVertex], [MeshFace]), _ random: inout TessSupport.Random) throws -> MeshDocument {
        let depth = DepthNormalization.allCases.randomElement(using: &random) ?? .none
        let mesh = try MeshTransform(vertices: parts.0, faces: parts.1, depthNormalization: depth)
        var transform = Transform3D.rotation(
            angle: random.uniform(-1.2...1.2),
            axis: SIMD3(random.uniform(-1...1), random.uniform(-1...1), random.uniform(0.1...1)))
        // Sometimes so strong a perspective that part of the surface is behind the eye.
        transform.m34 = -1 / random.uniform(20...2000)
        let layer = LayerProperties(
            size: SIMD2(random.uniform(10...500), random.uniform(10...500)),
            anchor: SIMD2(random.uniform(0...1), random.uniform(0...1)), transform: transform)
        return MeshDocument(mesh: mesh, layer: layer)
    }

    /// A wavy identity-like sheet tilted steeply with mild perspective, so that it folds over
    /// itself on screen but stays in front of the eye.
    static func foldedSheet(_ random: inout TessSupport.Random) throws -> MeshDocument {
        let n = 4
        var vertices: [MeshVertex] = []
        for i in 0...n {
            for j in 0...n {
                let from = SIMD2(Double(j) / Double(n), Double(i) / Double(n))
                let z = (i % 2 == 0 ? 1.0 : -1.0) * random.uniform(0.15...0.4)
                vertices.append(MeshVertex(from: from, to: SIMD3(from, z)))
            }
        }
        var faces: [MeshFace] = []
        for i in 0..<n {
            for j in 0..<n {
                let a = i * (n + 1) + j
                faces.append(MeshFace(a, a + 1, a + n + 2, a + n + 1, weights: randomWeights(&random)))
            }
        }
        let mesh = try MeshTransform(vertices: vertices, faces: faces, depthNormalization: .average)
        var transform = Transform3D.rotation(angle: random.uniform(-1.45 ... -1.2), axis: SIMD3(1, random.uniform(-0.2...0.2), 0))
        transform.m34 = -1 / random.uniform(1500...4000)
        return MeshDocument(mesh: mesh, layer: LayerProperties(size: SIMD2(200, 200), transform: transform))
    }

    // MARK: Checks

    static func allFinite(_ mesh: TriangleMesh) -> Bool {
        mesh.positions.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }
            && mesh.normals.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }
            && mesh.from.allSatisfy { $0.x.isFinite && $0.y.isFinite }
    }

    struct EdgeUse {
        /// Edges used once (the border).
        var border = 0
        /// Edges used by more than two triangles.
        var overused = 0
        /// Edges used twice in the same direction (inconsistent winding).
        var sameDirection = 0
    }

    /// How the triangles use each undirected edge, counted by vertex index.
    static func edgeUse(_ triangles: [SIMD3<Int32>]) -> EdgeUse {
        // Per undirected edge (low, high): how often it runs low → high, and high → low.
        var runs: [SIMD2<Int32>: SIMD2<Int>] = [:]
        var use = EdgeUse()
        for t in triangles {
            for k in 0..<3 {
                let a = t[k], b = t[(k + 1) % 3]
                if a == b { use.overused += 1; continue }
                runs[SIMD2(min(a, b), max(a, b)), default: .zero] &+= a < b ? SIMD2(1, 0) : SIMD2(0, 1)
            }
        }
        for run in runs.values {
            let total = run.x + run.y
            if total == 1 { use.border += 1 }
            if total > 2 { use.overused += 1 }
            if run.x > 1 || run.y > 1 { use.sameDirection += 1 }
        }
        return use
    }

    /// The control edges that only one face uses.
    static func controlBorderEdgeCount(_ faces: [MeshFace]) -> Int {
        var count: [SIMD2<Int>: Int] = [:]
        for face in faces {
            for k in 0..<4 {
                let a = face.indices[k], b = face.indices[(k + 1) % 4]
                count[SIMD2(min(a, b), max(a, b)), default: 0] += 1
            }
        }
        return count.values.filter { $0 == 1 }.count
    }

    // MARK: Projection and rasterizer

    /// A points-space point on screen: `[p − a, 1] · M` (M in CATransform3D order, row vector on
    /// the left), divided by w, plus the anchor a (in points, z 0).
    static func project(_ p: SIMD3<Double>, layer: LayerProperties) -> SIMD3<Double> {
        let m = layer.transform.elements
        let a = SIMD3(layer.anchor.x * layer.size.x, layer.anchor.y * layer.size.y, 0)
        let q = p - a
        var h = [0.0, 0, 0, 0]
        for c in 0..<4 {
            h[c] = q.x * m[c] + q.y * m[4 + c] + q.z * m[8 + c] + m[12 + c]
        }
        return SIMD3(h[0] / h[3], h[1] / h[3], h[2] / h[3]) + a
    }

    struct ZBufferComparison {
        var checked = 0
        /// Pixels covered by two or more surfaces at clearly different depths.
        var overlapping = 0
        /// Pixels where the last triangle drawn is not the nearest surface.
        var wrong = 0
    }

    typealias ScreenTriangle = (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)

    /// Draws `drawn` in order (the last one covering a pixel centre wins) and z-buffers
    /// `reference` (the largest screen z, nearest the viewer, wins) on a grid of pixel centres
    /// over the reference's bounds. Pixel centres within a small margin of any edge, and pixels
    /// whose two nearest surfaces are almost at the same depth (where surfaces meet), are skipped.
    static func compareWithZBuffer(drawn: [ScreenTriangle], reference: [ScreenTriangle], resolution n: Int) -> ZBufferComparison {
        var lo = SIMD2(Double.infinity, .infinity), hi = -lo
        for t in reference {
            for p in [t.0, t.1, t.2] {
                lo = pointwiseMin(lo, SIMD2(p.x, p.y))
                hi = pointwiseMax(hi, SIMD2(p.x, p.y))
            }
        }
        let cell = (hi - lo) / Double(n)
        let margin = 1e-6 * max(hi.x - lo.x, hi.y - lo.y)
        var zRange = (Double.infinity, -Double.infinity)
        for t in reference {
            for p in [t.0, t.1, t.2] { zRange = (min(zRange.0, p.z), max(zRange.1, p.z)) }
        }
        let depthTolerance = 1e-4 * max(zRange.1 - zRange.0, 1e-9)
        var painted = [Double?](repeating: nil, count: n * n)
        var nearest = [Double](repeating: -.infinity, count: n * n), second = nearest
        var ambiguous = [Bool](repeating: false, count: n * n)

        func each(_ t: ScreenTriangle, _ body: (Int, Double?) -> Void) {
            let mn = pointwiseMin(pointwiseMin(t.0, t.1), t.2), mx = pointwiseMax(pointwiseMax(t.0, t.1), t.2)
            let j0 = max(0, Int(((mn.x - lo.x) / cell.x).rounded(.down)) - 1)
            let j1 = min(n - 1, Int(((mx.x - lo.x) / cell.x).rounded(.up)) + 1)
            let i0 = max(0, Int(((mn.y - lo.y) / cell.y).rounded(.down)) - 1)
            let i1 = min(n - 1, Int(((mx.y - lo.y) / cell.y).rounded(.up)) + 1)
            guard j0 <= j1, i0 <= i1 else { return }
            for i in i0...i1 {
                for j in j0...j1 {
                    let q = lo + SIMD2(Double(j) + 0.5, Double(i) + 0.5) * cell
                    switch depth(at: q, in: t, margin: margin) {
                    case .edge: body(i * n + j, nil)
                    case .inside(let z): body(i * n + j, z)
                    case .outside: break
                    }
                }
            }
        }
        for t in drawn {
            each(t) { k, z in
                if let z { painted[k] = z } else { ambiguous[k] = true }
            }
        }
        for t in reference {
            each(t) { k, z in
                guard let z else { ambiguous[k] = true; return }
                if z > nearest[k] {
                    second[k] = nearest[k]
                    nearest[k] = z
                } else if z > second[k] {
                    second[k] = z
                }
            }
        }
        var result = ZBufferComparison()
        for k in 0..<(n * n) where !ambiguous[k] && nearest[k] > -.infinity {
            if second[k] > -.infinity && nearest[k] - second[k] < depthTolerance { continue }
            result.checked += 1
            if second[k] > -.infinity { result.overlapping += 1 }
            guard let z = painted[k], abs(z - nearest[k]) <= depthTolerance else {
                result.wrong += 1
                continue
            }
        }
        return result
    }

    enum Coverage {
        case outside, edge
        case inside(Double)
    }

    /// Whether pixel centre q is inside the screen triangle, and its z there (screen z is affine
    /// across a projected planar triangle, so barycentric interpolation is exact).
    static func depth(at q: SIMD2<Double>, in t: ScreenTriangle, margin: Double) -> Coverage {
        let (a, b, c) = t
        let area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
        guard area != 0 else { return .outside }
        func side(_ p: SIMD3<Double>, _ r: SIMD3<Double>) -> Double {
            let length = ((r.x - p.x) * (r.x - p.x) + (r.y - p.y) * (r.y - p.y)).squareRoot()
            return ((r.x - p.x) * (q.y - p.y) - (r.y - p.y) * (q.x - p.x)) / max(length, .leastNormalMagnitude)
        }
        let s: Double = area > 0 ? 1 : -1
        let da = s * side(b, c), db = s * side(c, a), dc = s * side(a, b)
        if min(da, db, dc) < -margin { return .outside }
        if min(da, db, dc) <= margin { return .edge }
        let wa = s * ((c.x - b.x) * (q.y - b.y) - (c.y - b.y) * (q.x - b.x))
        let wb = s * ((a.x - c.x) * (q.y - c.y) - (a.y - c.y) * (q.x - c.x))
        let wc = s * ((b.x - a.x) * (q.y - a.y) - (b.y - a.y) * (q.x - a.x))
        return .inside((wa * a.z + wb * b.z + wc * c.z) / (wa + wb + wc))
    }
}
