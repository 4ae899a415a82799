import MeshTessellate
import SurfaceKit
import Testing

// The BVH's nearest hit against a loop over every triangle written here (plane intersection and
// barycentric weights from sub-areas), for the grid-shaped build of a tessellation and the general
// build of the same triangles, on random rays (oblique and axis-aligned, with and without limits).

@Suite struct HitTestingBruteForceTests {
    /// The nearest t over all triangles whose barycentric weights are all at least `-tolerance`
    /// and whose t lies in `tmin − slack … tmax + slack`, or `nil`.
    static func bruteNearest(_ mesh: TriangleMesh, _ ray: Ray, tolerance: Double) -> Double? {
        var best: Double?
        let o = ray.origin, d = ray.direction
        for tri in mesh.triangles {
            let a = mesh.positions[Int(tri.x)], b = mesh.positions[Int(tri.y)], c = mesh.positions[Int(tri.z)]
            let n = HitSupport.cross(b - a, c - a)
            let nn = (n * n).sum()
            let denom = (n * d).sum()
            guard nn > 0, denom != 0 else { continue }
            let t = (n * (a - o)).sum() / denom
            let slack = tolerance * Swift.max(1, abs(t))
            guard t >= ray.tmin - slack, t <= ray.tmax + slack else { continue }
            let p = o + t * d
            let wa = (n * HitSupport.cross(c - b, p - b)).sum() / nn
            let wb = (n * HitSupport.cross(a - c, p - c)).sum() / nn
            let wc = (n * HitSupport.cross(b - a, p - a)).sum() / nn
            guard Swift.min(wa, wb, wc) >= -tolerance else { continue }
            if best.map({ t < $0 }) ?? true { best = t }
        }
        return best
    }

    /// Random rays around `bounds`: oblique ones, ones along ±z (two zero components) and ones
    /// along x; some with a finite interval.
    static func rays(around bounds: (min: Point3D, max: Point3D), count: Int, seed: UInt64) -> [Ray] {
        var rng = HitSupport.Random(seed: seed)
        let size = bounds.max - bounds.min
        let lo = bounds.min - 0.2 * size, hi = bounds.max + 0.2 * size
        return (0..<count).map { k in
            let origin = SIMD3(rng.uniform(lo.x...hi.x), rng.uniform(lo.y...hi.y), rng.uniform(lo.z...hi.z))
            var direction: Point3D
            switch k % 4 {
            case 0: direction = SIMD3(0, 0, k % 8 == 0 ? -1 : 1)
            case 1: direction = SIMD3(k % 8 == 1 ? 1 : -1, 0, 0)
            default:
                direction = SIMD3(rng.uniform(-1...1), rng.uniform(-1...1), rng.uniform(-1...1))
            }
            var ray = Ray(origin: origin, direction: direction)
            if k % 5 == 0 {
                ray.tmin = rng.uniform(0...0.5) * size.max()
                ray.tmax = ray.tmin + rng.uniform(0...1) * size.max()
            }
            return ray
        }
    }

    /// Every ray: a hit exactly when the brute force finds a triangle clearly containing the
    /// point (a miss only when it finds none even with slack), at a t no nearer than the loosest
    /// brute-force hit and no farther than the nearest clear one, to 1e-9 relative.
    static func check(_ tester: HitTester, rays: [Ray]) -> Int {
        var hits = 0
        for ray in rays {
            let strict = bruteNearest(tester.mesh, ray, tolerance: -1e-9)
            let loose = bruteNearest(tester.mesh, ray, tolerance: 1e-9)
            let hit = tester.intersect(ray)
            if let hit {
                hits += 1
                guard let loose else {
                    Issue.record("hit at t = \(hit.t) where no triangle is near: \(ray)")
                    continue
                }
                let tolerance = 1e-9 * Swift.max(1, abs(hit.t))
                #expect(hit.t >= loose - tolerance, "\(ray): \(hit.t) nearer than any triangle (\(loose))")
                if let strict {
                    #expect(hit.t <= strict + tolerance, "\(ray): \(hit.t) farther than \(strict)")
                }
                let on = ray.at(hit.t)
                #expect(HitSupport.maxDiff(on, hit.position) <= 1e-9 * Swift.max(1, on.replacing(with: -on, where: on .< 0).max()))
            } else {
                #expect(strict == nil, "\(ray): missed a triangle at t = \(strict ?? 0)")
            }
        }
        return hits
    }

    static func document(steps: Int, depth: Double) throws -> MeshDocument {
        var (mesh, _) = try HitSupport.grid(rows: 5, columns: 6, seed: 3, depth: depth)
        mesh.subdivisionSteps = .fixed(steps)
        return MeshDocument(mesh: mesh, layer: LayerProperties(size: SIMD2(300, 200)))
    }

    @Test(arguments: [(0, 0.4), (1, 0.05), (3, 0.4)])
    func gridBuildMatchesBruteForce(steps: Int, depth: Double) throws {
        let tester = try HitTester(document: Self.document(steps: steps, depth: depth))
        let bounds = try #require(tester.mesh.bounds)
        let hits = Self.check(tester, rays: Self.rays(around: bounds, count: 600, seed: UInt64(steps)))
        #expect(hits > 60)
    }

    @Test func generalBuildMatchesBruteForce() throws {
        let document = try Self.document(steps: 2, depth: 0.4)
        let grid = try HitTester(document: document)
        // The same triangles in reverse order through the build for meshes without a grid.
        var mesh = grid.mesh
        mesh.triangles.reverse()
        mesh.sourceFaces.reverse()
        let tester = try HitTester(mesh: mesh, geometry: document.geometry)
        let bounds = try #require(tester.mesh.bounds)
        let hits = Self.check(tester, rays: Self.rays(around: bounds, count: 600, seed: 9))
        #expect(hits > 60)
    }

    /// A batch (reordered internally for coherence) answers every ray as a single query does, in
    /// the rays' order.
    @Test func largeBatchMatchesSingleQueries() throws {
        let tester = try HitTester(document: Self.document(steps: 2, depth: 0.4))
        let bounds = try #require(tester.mesh.bounds)
        let rays = Self.rays(around: bounds, count: 20_000, seed: 5)
        let batch = tester.intersect(rays)
        #expect(batch.count == rays.count)
        var same = 0
        for (k, ray) in rays.enumerated() where batch[k] == tester.intersect(ray) { same += 1 }
        #expect(same == rays.count)
        #expect(batch.contains { $0 != nil } && batch.contains { $0 == nil })
    }
}
