import SurfaceKit

/// A brute-force reference for the screen relations of the painter's sort, written here and sharing
/// nothing with the library: which pairs of triangles overlap on screen (their screen interiors
/// share positive area, found by clipping one triangle by the other), the overlap regions, the
/// clusters of overlapping triangles, and the screen depth of a triangle at a point.
enum ScreenBruteForce {
    typealias Polygon = [SIMD2<Double>]

    /// A pair of triangles (first < second) and the overlap of their screen images.
    struct Overlap {
        var first: Int
        var second: Int
        /// The overlap region (convex, counterclockwise).
        var region: Polygon
        var area: Double
    }

    /// The sign of each triangle's screen area (b − a) × (c − a) in x and y: 0 when the area is
    /// zero or a corner is not finite (such triangles cover no area and take part in no pair).
    static func signs(screen: [Point3D], triangles: [SIMD3<Int32>]) -> [Double] {
        triangles.map { v in
            let a = screen[Int(v.x)], b = screen[Int(v.y)], c = screen[Int(v.z)]
            let area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
            guard area != 0, area.isFinite, a.z.isFinite, b.z.isFinite, c.z.isFinite else { return 0 }
            return area > 0 ? 1 : -1
        }
    }

    /// The corners of triangle `v` in counterclockwise order on screen (for a nonzero `sign`).
    static func corners(_ screen: [Point3D], _ v: SIMD3<Int32>, sign: Double) -> [Point3D] {
        sign > 0 ? [screen[Int(v.x)], screen[Int(v.y)], screen[Int(v.z)]] : [screen[Int(v.x)], screen[Int(v.z)], screen[Int(v.y)]]
    }

    static func cross(_ o: SIMD2<Double>, _ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
        (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
    }

    /// The polygon's signed area (shoelace; positive when counterclockwise).
    static func area(_ polygon: Polygon) -> Double {
        guard polygon.count >= 3 else { return 0 }
        var sum = 0.0
        for k in polygon.indices {
            let p = polygon[k], q = polygon[(k + 1) % polygon.count]
            sum += p.x * q.y - p.y * q.x
        }
        return sum / 2
    }

    /// Sutherland–Hodgman: the convex polygon `subject` cut to the left of each edge of the
    /// counterclockwise `clipper` (points on an edge line are kept).
    static func clip(_ subject: Polygon, by clipper: Polygon) -> Polygon {
        var output = subject
        for k in clipper.indices {
            guard !output.isEmpty else { break }
            let e0 = clipper[k], e1 = clipper[(k + 1) % clipper.count]
            let input = output
            output = []
            for m in input.indices {
                let p = input[m], q = input[(m + 1) % input.count]
                let dp = cross(e0, e1, p), dq = cross(e0, e1, q)
                if dp >= 0 { output.append(p) }
                if (dp > 0 && dq < 0) || (dp < 0 && dq > 0) {
                    let t = dp / (dp - dq)
                    output.append(p + t * (q - p))
                }
            }
        }
        return output
    }

    /// Every pair of triangles with screen area whose images overlap by more than
    /// `tolerance` × (the pair's extent) × (the smaller triangle's extent) — the clipping's rounding
    /// is far below that — and the pairs with some overlap below it (undecided here).
    /// Pairs are found by a sweep over the boxes sorted by least x, then clipped: two triangles
    /// whose boxes do not overlap with positive area cannot overlap either.
    static func overlaps(screen: [Point3D], triangles: [SIMD3<Int32>], tolerance: Double = 1e-9) -> (
        pairs: [Overlap], undecided: [(Int, Int)]
    ) {
        let signs = signs(screen: screen, triangles: triangles)
        let active = triangles.indices.filter { signs[$0] != 0 }
        var flat: [Int: Polygon] = [:]
        var boxes: [Int: SIMD4<Double>] = [:]
        for t in active {
            let c = corners(screen, triangles[t], sign: signs[t])
            flat[t] = c.map { SIMD2($0.x, $0.y) }
            boxes[t] = SIMD4(
                min(c[0].x, c[1].x, c[2].x), min(c[0].y, c[1].y, c[2].y), max(c[0].x, c[1].x, c[2].x), max(c[0].y, c[1].y, c[2].y))
        }
        let byLeft = active.sorted { (boxes[$0]?.x ?? 0) < (boxes[$1]?.x ?? 0) }
        var pairs: [Overlap] = []
        var undecided: [(Int, Int)] = []
        for (k, i) in byLeft.enumerated() {
            guard let bi = boxes[i], let pi = flat[i] else { continue }
            for j in byLeft[(k + 1)...] {
                guard let bj = boxes[j], let pj = flat[j] else { continue }
                if bj.x >= bi.z { break }
                guard bj.y < bi.w, bi.y < bj.w else { continue }
                // Clipped in coordinates relative to a corner of the pair, to keep the rounding small.
                let origin = pi[0]
                let region = clip(pi.map { $0 - origin }, by: pj.map { $0 - origin })
                let a = area(region)
                let extent = max(bi.z, bj.z) - min(bi.x, bj.x) + max(bi.w, bj.w) - min(bi.y, bj.y)
                let smaller = min(bi.z - bi.x + bi.w - bi.y, bj.z - bj.x + bj.w - bj.y)
                if a > tolerance * extent * smaller {
                    pairs.append(Overlap(first: min(i, j), second: max(i, j), region: region.map { $0 + origin }, area: a))
                } else if a > 0 {
                    undecided.append((min(i, j), max(i, j)))
                }
            }
        }
        return (pairs, undecided)
    }

    /// The connected components of the pairs over `count` items, as the least item of each one's
    /// component (union-find).
    static func components(count: Int, pairs: [(Int, Int)]) -> [Int] {
        var parent = Array(0..<count)
        func root(_ x: Int) -> Int {
            var r = x
            while parent[r] != r { r = parent[r] }
            return r
        }
        for (a, b) in pairs {
            let ra = root(a), rb = root(b)
            if ra != rb { parent[max(ra, rb)] = min(ra, rb) }
        }
        return (0..<count).map(root)
    }

    /// The size of the largest component of two or more items (0 when there is none), and its
    /// members ascending.
    static func largestComponent(count: Int, pairs: [(Int, Int)]) -> (size: Int, members: [Int]) {
        let roots = components(count: count, pairs: pairs)
        var sizes: [Int: Int] = [:]
        for r in roots { sizes[r, default: 0] += 1 }
        guard let largest = sizes.filter({ $0.value > 1 }).max(by: { ($0.value, -$0.key) < ($1.value, -$1.key) }) else {
            return (0, [])
        }
        return (largest.value, roots.indices.filter { roots[$0] == largest.key })
    }

    /// The screen depth of the plane through the triangle's corners at `q` (barycentric weights;
    /// screen depth is affine over a triangle's screen image).
    static func depth(at q: SIMD2<Double>, _ corners: [Point3D]) -> Double {
        let a = SIMD2(corners[0].x, corners[0].y), b = SIMD2(corners[1].x, corners[1].y), c = SIMD2(corners[2].x, corners[2].y)
        let total = cross(a, b, c)
        let wa = cross(q, b, c) / total, wb = cross(a, q, c) / total, wc = cross(a, b, q) / total
        return wa * corners[0].z + wb * corners[1].z + wc * corners[2].z
    }
}
