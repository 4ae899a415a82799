import MeshTessellate
import SurfaceKit

/// Helpers for PainterSortTests: a projection written out from the 16 matrix entries, scenes built
/// by hand, and an independent rasterizer that compares a painter's image with a z-buffer image.
enum SortSupport {
    // MARK: Projection (row vectors, as CATransform3D; written here, not taken from SurfaceKit)

    /// `[p − anchor, 1] · M`, then divided by w and the anchor added back: (screen point, w).
    static func project(_ p: SIMD3<Double>, geometry: LayerGeometry) -> (SIMD3<Double>, Double) {
        let m = geometry.transform.elements
        let a = SIMD3(geometry.anchor.x * geometry.size.x, geometry.anchor.y * geometry.size.y, 0)
        let v = [p.x - a.x, p.y - a.y, p.z - a.z, 1]
        var h = [0.0, 0, 0, 0]
        for c in 0..<4 {
            for r in 0..<4 { h[c] += v[r] * m[r * 4 + c] }
        }
        return (SIMD3(h[0] / h[3], h[1] / h[3], h[2] / h[3]) + a, h[3])
    }

    static func geometry(size: Double, transform: Transform3D) -> LayerGeometry {
        LayerGeometry(size: SIMD2(size, size), depthScale: 1, anchor: LayerPoint(0.5, 0.5), transform: transform)
    }

    // MARK: Scenes (points space)

    /// A flat grid of n × n quads over [x0, x1] × [y0, y1] with z = height(x, y) (affine), from =
    /// (x, y) / 100, normal `normal`, all triangles of control face `face`, appended to `mesh`.
    static func appendSheet(
        to mesh: inout TriangleMesh, n: Int, x: ClosedRange<Double>, y: ClosedRange<Double>, face: Int32,
        normal: SIMD3<Double>, height: (Double, Double) -> Double
    ) {
        let base = Int32(mesh.positions.count)
        for i in 0...n {
            for j in 0...n {
                let px = x.lowerBound + (x.upperBound - x.lowerBound) * Double(j) / Double(n)
                let py = y.lowerBound + (y.upperBound - y.lowerBound) * Double(i) / Double(n)
                mesh.positions.append(SIMD3(px, py, height(px, py)))
                mesh.from.append(LayerPoint(px / 100, py / 100))
                mesh.normals.append(normal)
            }
        }
        for i in 0..<n {
            for j in 0..<n {
                let v0 = base + Int32(i * (n + 1) + j), v1 = v0 + 1, v3 = v0 + Int32(n + 1), v2 = v3 + 1
                mesh.triangles += [SIMD3(v0, v1, v2), SIMD3(v0, v2, v3)]
                mesh.sourceFaces += [face, face]
            }
        }
    }

    /// A layer 100 points a side seen straight on (screen x, y and z are the points').
    static let flat = geometry(size: 100, transform: .identity)

    /// A points-space mesh of `triangles` over `positions` on `flat`'s layer: normals up, `from`
    /// the position over 100, every triangle of control face 0.
    static func layerMesh(positions: [SIMD3<Double>], triangles: [SIMD3<Int32>]) -> TriangleMesh {
        TriangleMesh(
            space: .points, positions: positions, from: positions.map { LayerPoint($0.x / 100, $0.y / 100) },
            normals: positions.map { _ in SIMD3(0, 0, 1) }, triangles: triangles, sourceFaces: triangles.map { _ in 0 })
    }

    static func emptyPoints() -> TriangleMesh {
        TriangleMesh(space: .points, positions: [], from: [], normals: [], triangles: [], sourceFaces: [])
    }

    static let sheetNormals: [SIMD3<Double>] = [SIMD3(0, 0, 1), unit(SIMD3(-0.8, 0, 1))]

    /// Two sheets crossing along x = 50: z = 0 and z = 0.8·(x − 50), seen turned about y in
    /// perspective.
    static func intersectingSheets() -> (TriangleMesh, LayerGeometry) {
        var mesh = emptyPoints()
        appendSheet(to: &mesh, n: 3, x: 10...90, y: 10...90, face: 0, normal: sheetNormals[0]) { _, _ in 0 }
        appendSheet(to: &mesh, n: 3, x: 10...90, y: 10...90, face: 1, normal: sheetNormals[1]) { x, _ in 0.8 * (x - 50) }
        var transform = Transform3D.rotation(angle: 0.5, axis: SIMD3(0, 1, 0))
        transform.m34 = -1.0 / 250
        return (mesh, geometry(size: 100, transform: transform))
    }

    /// Three thin strips, each over the next where they cross and the third over the first: no
    /// order of whole triangles draws them right. z is affine along each strip.
    static func cyclicStrips() -> (TriangleMesh, LayerGeometry) {
        var mesh = emptyPoints()
        func strip(from p: SIMD2<Double>, to q: SIMD2<Double>, halfWidth h: Double, face: Int32, z: (SIMD2<Double>) -> Double) {
            let d = q - p, len = (d * d).sum().squareRoot()
            let side = SIMD2(-d.y, d.x) / len * h
            let corners = [p + side, q + side, q - side, p - side]
            let base = Int32(mesh.positions.count)
            for c in corners {
                mesh.positions.append(SIMD3(c.x, c.y, z(c)))
                mesh.from.append(LayerPoint(c.x / 100, c.y / 100))
                mesh.normals.append(SIMD3(0, 0, 1))
            }
            mesh.triangles += [SIMD3(base, base + 1, base + 2), SIMD3(base, base + 2, base + 3)]
            mesh.sourceFaces += [face, face]
        }
        // Crossings: A–B at (70, 20), B–C at (70, 37.5), C–A at (84, 20).
        strip(from: SIMD2(0, 20), to: SIMD2(100, 20), halfWidth: 3, face: 0) { 1 - ($0.x - 70) / 7 } // A over B
        strip(from: SIMD2(70, 0), to: SIMD2(70, 100), halfWidth: 3, face: 1) { ($0.y - 20) / 17.5 } // B over C
        strip(from: SIMD2(20, 100), to: SIMD2(100, 0), halfWidth: 3, face: 2) { _ in 0 } // C over A
        var transform = Transform3D.identity
        transform.m34 = -1.0 / 500
        return (mesh, geometry(size: 100, transform: transform))
    }

    /// The reference ripple with 4× the amplitude, turned 82° about x in perspective: the
    /// ripple's crests fold over the troughs behind them.
    static func foldedRipple(steps: Int) throws -> (TriangleMesh, LayerGeometry) {
        var document = ExampleMesh.ripple.document
        try document.mesh.mapVertices { v, _ in MeshVertex(from: v.from, to: Point3D(v.to.x, v.to.y, 4 * v.to.z)) }
        var transform = Transform3D.rotation(angle: -82 * Double.pi / 180, axis: SIMD3(1, 0, 0))
        transform.m34 = -1.0 / 2
        document.layer.transform = transform
        let mesh = try Tessellator.tessellate(document, options: TessellationOptions(steps: .fixed(steps)), space: .points)
        return (mesh, document.geometry)
    }

    static func unit(_ v: SIMD3<Double>) -> SIMD3<Double> { v / (v * v).sum().squareRoot() }

    // MARK: Rasterizer

    struct Comparison {
        var checked = 0
        var skipped = 0
        var mismatches = 0
    }

    /// Screen triangles as corner triples with their faces.
    typealias Triangles = [(SIMD3<Double>, SIMD3<Double>, SIMD3<Double>, Int32)]

    static func triangles(of mesh: TriangleMesh) -> Triangles {
        mesh.triangles.indices.map { t in
            let v = mesh.triangles[t]
            return (mesh.positions[Int(v.x)], mesh.positions[Int(v.y)], mesh.positions[Int(v.z)], mesh.sourceFaces[t])
        }
    }

    /// The reference: every input triangle projected here (all in front of the eye in these scenes).
    static func projected(_ mesh: TriangleMesh, geometry: LayerGeometry) -> Triangles {
        mesh.triangles.indices.map { t in
            let v = mesh.triangles[t]
            return (
                project(mesh.positions[Int(v.x)], geometry: geometry).0,
                project(mesh.positions[Int(v.y)], geometry: geometry).0,
                project(mesh.positions[Int(v.z)], geometry: geometry).0, mesh.sourceFaces[t]
            )
        }
    }

    /// Coverage of pixel centre q by a triangle: nil when q is within `margin` of an edge line
    /// (ambiguous), else whether it is inside, with the z interpolated barycentrically.
    static func cover(_ q: SIMD2<Double>, _ a: SIMD3<Double>, _ b: SIMD3<Double>, _ c: SIMD3<Double>, margin: Double) -> (
        inside: Bool, z: Double
    )? {
        func edge(_ p: SIMD3<Double>, _ r: SIMD3<Double>) -> Double { (r.x - p.x) * (q.y - p.y) - (r.y - p.y) * (q.x - p.x) }
        let area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
        if area == 0 { return (false, 0) }
        let s: Double = area > 0 ? 1 : -1
        let ea = s * edge(b, c), eb = s * edge(c, a), ec = s * edge(a, b)
        let la = ((c.x - b.x) * (c.x - b.x) + (c.y - b.y) * (c.y - b.y)).squareRoot()
        let lb = ((a.x - c.x) * (a.x - c.x) + (a.y - c.y) * (a.y - c.y)).squareRoot()
        let lc = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
        let da = ea / la, db = eb / lb, dc = ec / lc
        let inside = da > 0 && db > 0 && dc > 0
        // Only edges near a point that the triangle (nearly) covers make the pixel ambiguous.
        if min(da, db, dc) > -margin, [da, db, dc].contains(where: { abs($0) <= margin }) { return nil }
        guard inside else { return (false, 0) }
        let z = (ea * a.z + eb * b.z + ec * c.z) / (ea + eb + ec)
        return (true, z)
    }

    /// Paints `drawn` in order (last wins) and z-buffers `reference` (max z wins) over a grid of
    /// pixel centres covering the reference's screen bounds, and compares face and depth (the
    /// painted depth within `depthTolerance` × max(1, |z|) of the nearest).
    static func compare(
        drawn: Triangles, reference: Triangles, resolution: Int, margin: Double = 1e-9, depthTolerance: Double = 1e-7
    ) -> Comparison {
        var lo = SIMD2<Double>(.infinity, .infinity), hi = -lo
        for t in reference {
            for p in [t.0, t.1, t.2] {
                lo = pointwiseMin(lo, SIMD2(p.x, p.y))
                hi = pointwiseMax(hi, SIMD2(p.x, p.y))
            }
        }
        let n = resolution
        let cell = (hi - lo) / Double(n)
        func centre(_ i: Int, _ j: Int) -> SIMD2<Double> { lo + SIMD2(Double(j) + 0.5, Double(i) + 0.5) * cell }
        var ambiguous = [Bool](repeating: false, count: n * n)
        var paintFace = [Int32](repeating: -1, count: n * n), paintZ = [Double](repeating: 0, count: n * n)
        var best = [Double](repeating: -.infinity, count: n * n), second = best
        var bestFace = [Int32](repeating: -1, count: n * n)
        func pixels(_ t: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>, Int32), _ body: (Int, SIMD2<Double>) -> Void) {
            let mn = pointwiseMin(pointwiseMin(t.0, t.1), t.2), mx = pointwiseMax(pointwiseMax(t.0, t.1), t.2)
            let j0 = max(0, Int(((mn.x - lo.x) / cell.x - 0.5).rounded(.down)) - 1)
            let j1 = min(n - 1, Int(((mx.x - lo.x) / cell.x - 0.5).rounded(.up)) + 1)
            let i0 = max(0, Int(((mn.y - lo.y) / cell.y - 0.5).rounded(.down)) - 1)
            let i1 = min(n - 1, Int(((mx.y - lo.y) / cell.y - 0.5).rounded(.up)) + 1)
            guard j0 <= j1, i0 <= i1 else { return }
            for i in i0...i1 { for j in j0...j1 { body(i * n + j, centre(i, j)) } }
        }
        for t in drawn {
            pixels(t) { k, q in
                guard let c = cover(q, t.0, t.1, t.2, margin: margin) else { ambiguous[k] = true; return }
                if c.inside { paintFace[k] = t.3; paintZ[k] = c.z }
            }
        }
        for t in reference {
            pixels(t) { k, q in
                guard let c = cover(q, t.0, t.1, t.2, margin: margin) else { ambiguous[k] = true; return }
                guard c.inside else { return }
                if c.z > best[k] {
                    second[k] = best[k]
                    best[k] = c.z
                    bestFace[k] = t.3
                } else if c.z > second[k] {
                    second[k] = c.z
                }
            }
        }
        var result = Comparison()
        for k in 0..<(n * n) {
            if ambiguous[k] || (second[k] > -.infinity && best[k] - second[k] <= margin) {
                result.skipped += 1
                continue
            }
            result.checked += 1
            let same =
                paintFace[k] == bestFace[k]
                && (bestFace[k] < 0 || abs(paintZ[k] - best[k]) <= depthTolerance * max(1, abs(best[k])))
            if !same { result.mismatches += 1 }
        }
        return result
    }
}
