import SurfaceKit

/// Which triangles of a mesh share each edge: the part of the exact painter's sort that depends
/// only on the triangles' vertex indices, computed once and reused for every sort of the same
/// mesh under another layer geometry (a layer turning or its perspective changing while its mesh
/// transform stays put, as in an animation).
///
/// The exact sort starts from the edges whose runs do not cancel on screen (`OverlapCandidates`):
/// an edge shared by two triangles cancels unless a fold puts both on the same side of it. Finding
/// the triangles that share each edge is a bucket sort of the half-edges, which costs about a
/// fifth of the sort on the W3 ripple; with the pairing kept here, each sort only compares the
/// two triangles' screen signs along each edge.
///
/// Pass it to `PainterSorter.sorted(mesh:geometry:mode:space:maximumTriangles:topology:)` with
/// the mesh it was made from. A sort uses it only when the mesh has the same triangles (checked:
/// at no cost when the arrays share storage, as copies of one mesh do, otherwise by comparing
/// them) and nothing is clipped at the eye (clipping makes new triangles); otherwise it sorts
/// exactly as without it. The result is the same either way.
public struct SortTopology: Sendable {
    /// The triangles it was made from (sharing the mesh's storage).
    let triangles: [SIMD3<Int32>]
    let vertexCount: Int
    /// Edges with exactly two half-edges: each half-edge as h = 3t + k (the side from corner k to
    /// corner k + 1 of triangle t as listed), or ~h when that side runs from the larger vertex
    /// index to the smaller.
    let pairs: [SIMD2<Int32>]
    /// The half-edges (encoded as in `pairs`) of every other edge (a border, or three or more
    /// sides on one edge), edge by edge: edge e is `loose[looseStart[e]..<looseStart[e + 1]]`.
    let loose: [Int32]
    let looseStart: [Int32]

    /// The pairing of `mesh`'s triangles. Triangles naming a vertex the mesh does not have are
    /// left out (a sort rejects such a mesh before using this), and so is every triangle of a
    /// mesh with 715,827,882 triangles or more (whose half-edges do not fit in Int32): the sort
    /// then finds the edges itself.
    public init(mesh: TriangleMesh) {
        self.init(triangles: mesh.triangles, vertexCount: mesh.vertexCount)
    }

    init(triangles: [SIMD3<Int32>], vertexCount: Int) {
        self.triangles = triangles
        self.vertexCount = vertexCount
        let n = triangles.count
        guard 3 * n < Int(Int32.max), vertexCount < Int(Int32.max) / 2, vertexCount > 0 else {
            (pairs, loose, looseStart) = ([], [], [0])
            return
        }
        @inline(__always) func valid(_ v: SIMD3<Int32>) -> Bool {
            let top = Int32(vertexCount)
            return v.x >= 0 && v.y >= 0 && v.z >= 0 && v.x < top && v.y < top && v.z < top
        }
        // Half-edges bucketed by one end (see `OverlapCandidates.bucket`), each as the other end
        // (high 32 bits) and its encoded half-edge (low 32), then each bucket sorted: one edge's
        // half-edges come together.
        var offsets = [Int32](repeating: 0, count: vertexCount + 1)
        // A side from a vertex to itself bounds nothing (its triangle has no area) and is left out.
        for v in triangles where valid(v) {
            if v.x != v.y { offsets[OverlapCandidates.bucket(v.x, v.y)] += 1 }
            if v.y != v.z { offsets[OverlapCandidates.bucket(v.y, v.z)] += 1 }
            if v.z != v.x { offsets[OverlapCandidates.bucket(v.z, v.x)] += 1 }
        }
        var sum: Int32 = 0
        for v in 0..<vertexCount {
            sum += offsets[v]
            offsets[v] = sum
        }
        offsets[vertexCount] = sum
        var codes = [UInt64](repeating: 0, count: Int(sum))
        for (t, v) in triangles.enumerated() where valid(v) {
            for k in 0..<3 {
                let a = v[k], b = v[(k + 1) % 3]
                guard a != b else { continue }
                let home = OverlapCandidates.bucket(a, b)
                let other = a ^ b ^ Int32(truncatingIfNeeded: home)
                let h = Int32(3 * t + k)
                offsets[home] -= 1
                codes[Int(offsets[home])] = UInt64(UInt32(other)) << 32 | UInt64(UInt32(bitPattern: a < b ? h : ~h))
            }
        }
        var pairs: [SIMD2<Int32>] = []
        pairs.reserveCapacity(Int(sum) / 2)
        var loose: [Int32] = []
        var looseStart: [Int32] = [0]
        for v in 0..<vertexCount {
            let lower = Int(offsets[v]), upper = Int(offsets[v + 1])
            guard upper > lower else { continue }
            if upper - lower <= 16 {
                codes[lower..<upper].insertionSort(by: <)
            } else {
                codes[lower..<upper].sort()
            }
            var i = lower
            while i < upper {
                let other = codes[i] >> 32
                var j = i + 1
                while j < upper, codes[j] >> 32 == other { j += 1 }
                if j - i == 2 {
                    pairs.append(
                        SIMD2(
                            Int32(bitPattern: UInt32(truncatingIfNeeded: codes[i])),
                            Int32(bitPattern: UInt32(truncatingIfNeeded: codes[i + 1]))))
                } else {
                    for c in codes[i..<j] { loose.append(Int32(bitPattern: UInt32(truncatingIfNeeded: c))) }
                    looseStart.append(Int32(loose.count))
                }
                i = j
            }
        }
        self.pairs = pairs
        self.loose = loose
        self.looseStart = looseStart
    }

    /// Whether a sort of `triangles` over `vertexCount` vertices can use this pairing.
    func matches(triangles other: [SIMD3<Int32>], vertexCount count: Int) -> Bool {
        count == vertexCount && looseStart.count + pairs.count > 1 && other == triangles
    }

    /// R for the screen-area `signs` of the triangles (1, −1, or 0 for no area): every edge whose
    /// runs do not cancel, from its smaller vertex a to b with its net count (runs a → b minus runs
    /// b → a, each triangle run counterclockwise on screen), the same edges and counts as
    /// `OverlapCandidates.residualChain` finds by itself (in another order).
    func residual(signs: UnsafeBufferPointer<Int8>) -> [(a: Int32, b: Int32, weight: Int32)] {
        var residual: [(a: Int32, b: Int32, weight: Int32)] = []
        triangles.withUnsafeBufferPointer { tris in
            // A side run counterclockwise goes as listed when the sign is 1, reversed when −1: so it
            // adds sign × (+1 from the smaller end, −1 from the larger) to the net count.
            @inline(__always) func run(_ code: Int32) -> Int32 {
                let h = code >= 0 ? code : ~code
                let s = Int32(signs[Int(h) / 3])
                return code >= 0 ? s : -s
            }
            @inline(__always) func ends(_ code: Int32) -> (Int32, Int32) {
                let h = Int(code >= 0 ? code : ~code)
                let v = tris[h / 3]
                let a = v[h % 3], b = v[(h % 3 + 1) % 3]
                return (min(a, b), max(a, b))
            }
            pairs.withUnsafeBufferPointer { pairs in
                for pair in pairs {
                    let net = run(pair.x) + run(pair.y)
                    if net != 0 {
                        let (a, b) = ends(pair.x)
                        residual.append((a, b, net))
                    }
                }
            }
            for e in 0..<(looseStart.count - 1) {
                let lower = Int(looseStart[e]), upper = Int(looseStart[e + 1])
                var net: Int32 = 0
                for k in lower..<upper { net += run(loose[k]) }
                if net != 0 {
                    let (a, b) = ends(loose[lower])
                    residual.append((a, b, net))
                }
            }
        }
        return residual
    }
}
