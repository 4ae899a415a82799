import SurfaceKit

/// The working set of a painter's sort: vertices in points space with their screen images, and the
/// triangles (pieces) that use them. New vertices (clip cuts, BSP splits) are always interpolated in
/// points space, so every vertex's screen position is the projection of its points position.
struct SortPool: Sendable {
    let geometry: LayerGeometry
    /// Vertices of the input mesh; they come first and keep their order.
    let originalVertexCount: Int
    var points: [Point3D]
    var from: [LayerPoint]
    /// Normals in points space (unit for input vertices; interpolated ones are normalized on output).
    var normals: [Point3D]
    /// Screen positions; `.zero` for input vertices at or behind the eye (no triangle uses them).
    var screen: [Point3D]
    /// Homogeneous w of the vertices made by clip cuts and splits (vertex `originalVertexCount + k`
    /// is `addedW[k]`); an input vertex's is computed when asked for (`homogeneousW(ofVertex:)`), as only splits
    /// need it and a stored copy would be 8 bytes of fresh memory per vertex on every sort.
    var addedW: [Double]
    var triangles: [SIMD3<Int32>]
    var sourceFaces: [Int32]
}

extension SortPool {
    /// The points-space `mesh` clipped at w ≤ clipW exactly as `TriangleMesh.projectedToScreen`
    /// does (same cut vertices in the same order), so `.none` and `.depth` agree with it vertex for
    /// vertex.
    init(clipping mesh: TriangleMesh, geometry: LayerGeometry) throws {
        try Self.checkIndices(of: mesh)
        self.geometry = geometry
        originalVertexCount = mesh.vertexCount
        points = mesh.positions
        from = mesh.from
        normals = mesh.normals
        let (screen, anyBehind) = Self.projected(mesh.positions, geometry: geometry)
        self.screen = screen
        addedW = []
        triangles = []
        sourceFaces = []
        // The common case, every vertex in front of the eye: the triangles are kept as they are.
        guard anyBehind else {
            triangles = mesh.triangles
            sourceFaces = mesh.sourceFaces
            return
        }
        try clipTriangles(of: mesh)
    }

    /// A new vertex at points-space parameter `t` on the segment a → b.
    mutating func interpolatedVertex(_ a: Int32, _ b: Int32, t: Double) throws -> Int32 {
        guard points.count < Int(Int32.max) else {
            throw MeshError(.limitExceeded, path: "", "the painter's sort needs more than \(Int32.max) vertices")
        }
        let (i, j) = (Int(a), Int(b))
        let p = points[i] + t * (points[j] - points[i])
        let f = from[i] + t * (from[j] - from[i])
        // Kept unnormalized, as TriangleMesh+Screen keeps its cut normals (the spaces normalize on
        // output), so `.none` reproduces `--space screen` bit for bit.
        let n = normals[i] + t * (normals[j] - normals[i])
        let h = geometry.clipCoordinates(ofPoints: p)
        // At a clip cut h.w is clipW up to rounding; divide by the bound so the point stays finite.
        let eps = LayerGeometry.clipW
        points.append(p)
        from.append(f)
        normals.append(n)
        screen.append(SIMD3(h.x, h.y, h.z) / max(h.w, eps) + geometry.anchorInPoints)
        addedW.append(max(h.w, eps))
        return Int32(points.count - 1)
    }

    /// Homogeneous w of vertex `i`, which turns screen-space parameters into points-space ones
    /// (above `LayerGeometry.clipW` for every vertex a triangle of the pool uses).
    func homogeneousW(ofVertex i: Int) -> Double {
        i < originalVertexCount ? geometry.clipCoordinates(ofPoints: points[i]).w : addedW[i - originalVertexCount]
    }

    /// Screen depth of each triangle's centroid.
    func centroidDepths() -> [Double] {
        let count = triangles.count
        var depths = [Double](repeating: 0, count: count)
        triangles.withUnsafeBufferPointer { tris in
            screen.withUnsafeBufferPointer { screen in
                depths.withUnsafeMutableBufferPointer { d in
                    guard let base = d.baseAddress else { return }
                    let out = SharedMutableBuffer(base: base)
                    parallelChunks(count, minimumChunk: SortParallelism.minimumChunk) { range in
                        for i in range {
                            let t = tris[i]
                            out.base[i] = (screen[Int(t.x)].z + screen[Int(t.y)].z + screen[Int(t.z)].z) / 3
                        }
                    }
                }
            }
        }
        return depths
    }

    /// The triangles in `order`, as a mesh in `space` (vertices in pool order whatever the space).
    func mesh(order: [Int32], triangles tris: [SIMD3<Int32>], faces: [Int32], space: CoordinateSpace) -> TriangleMesh {
        let positions: [Point3D]
        let outNormals: [Point3D]
        switch space {
        case .points:
            positions = points
            outNormals =
                normals.count == originalVertexCount
                ? normals : normals.indices.map { $0 < originalVertexCount ? normals[$0] : normals[$0].normalized() }
        case .unit:
            let scale = geometry.pointScale
            positions = points.map { $0 / scale }
            outNormals = normals.map { geometry.unitNormal(fromPoints: $0) }
        case .screen:
            positions = screen
            outNormals = normals.map { geometry.screenNormal(fromPoints: $0) }
        }
        // Gathered into fresh arrays advised as huge pages (faulting in 4 KiB pages costs more than
        // the gather).
        func gather<T>(_ source: [T]) -> [T] {
            [T](unsafeUninitializedCapacity: order.count) { buffer, initialized in
                adviseHugePages(UnsafeMutableRawBufferPointer(buffer))
                source.withUnsafeBufferPointer { source in
                    // The orders are the sorts' own, every index one of the pool's triangles (a
                    // check per element here cost 3 ms on W3's 2.56 million reads).
                    order.withUnsafeBufferPointer { order in
                        for k in 0..<order.count { buffer.initializeElement(at: k, to: source[Int(order[k])]) }
                    }
                }
                initialized = order.count
            }
        }
        return TriangleMesh(
            space: space, positions: positions, from: from, normals: outNormals, triangles: gather(tris),
            sourceFaces: gather(faces))
    }
}

private extension SortPool {
    /// Throws unless `mesh`'s per-vertex and per-triangle arrays agree and every triangle names a
    /// vertex the mesh has: a mesh built by hand may not, and every later read trusts them.
    static func checkIndices(of mesh: TriangleMesh) throws {
        guard mesh.from.count == mesh.vertexCount, mesh.normals.count == mesh.vertexCount else {
            throw MeshError(
                .incompatible, path: "from",
                "the mesh has \(mesh.vertexCount) positions, \(mesh.from.count) from points and \(mesh.normals.count) normals")
        }
        guard mesh.sourceFaces.count == mesh.triangleCount else {
            throw MeshError(
                .incompatible, path: "sourceFaces",
                "the mesh has \(mesh.triangleCount) triangles but \(mesh.sourceFaces.count) source faces")
        }
        if let bad = firstBadTriangle(mesh.triangles, vertexCount: mesh.vertexCount) {
            throw MeshError(
                .indexOutOfRange, path: "triangles[\(bad)]", "names a vertex the mesh does not have (it has \(mesh.vertexCount))")
        }
    }

    /// The first triangle naming a vertex below 0 or from `vertexCount` on, on all cores: each
    /// block of triangles finds its own first, and the least of those is the first of all. A block
    /// first takes the largest corner of all its triangles, without a branch (the loop vectorizes);
    /// only a block whose largest corner is out of range is searched for its first bad triangle,
    /// which is then the same triangle a search of every block finds.
    static func firstBadTriangle(_ triangles: [SIMD3<Int32>], vertexCount: Int) -> Int? {
        // Negative indices are huge as UInt32, so one comparison a corner checks both ends.
        let bound = UInt32(clamping: vertexCount)
        let block = SortParallelism.minimumChunk
        let blocks = (triangles.count + block - 1) / block
        let firsts = triangles.withUnsafeBufferPointer { tris in
            parallelParts(blocks) { b -> Int? in
                let range = b * block..<Swift.min(tris.count, (b + 1) * block)
                var largest = SIMD3<UInt32>.zero
                for i in range { largest = pointwiseMax(largest, SIMD3<UInt32>(truncatingIfNeeded: tris[i])) }
                guard largest.max() >= bound else { return nil }
                return range.first { i in
                    let t = SIMD3<UInt32>(truncatingIfNeeded: tris[i])
                    return Swift.max(t.x, t.y, t.z) >= bound
                }
            }
        }
        return firsts.lazy.compactMap { $0 }.first
    }

    /// The screen image of every position (`.zero` at or behind the eye), and whether any is at
    /// or behind it (see `project(_:geometry:into:)`).
    static func projected(_ positions: [Point3D], geometry: LayerGeometry) -> (screen: [Point3D], anyBehind: Bool) {
        let count = positions.count
        var anyBehind = false
        // Written in full below; huge pages, since a fresh 4 KiB page costs about 2 µs to fault in.
        let screen = [Point3D](unsafeUninitializedCapacity: count) { buffer, initialized in
            adviseHugePages(UnsafeMutableRawBufferPointer(buffer))
            anyBehind = positions.withUnsafeBufferPointer { project($0, geometry: geometry, into: buffer) }
            initialized = count
        }
        return (screen, anyBehind)
    }
}

extension SortPool {
    /// Writes the screen image of every position into `screen` (as many; `.zero` at or behind the
    /// eye) and says whether any is at or behind it: the pool's screen positions, bit for bit. On
    /// all cores: each part writes only its own slots and says whether any of its vertices is at
    /// or behind the eye.
    static func project(
        _ positions: UnsafeBufferPointer<Point3D>, geometry: LayerGeometry, into screen: UnsafeMutableBufferPointer<Point3D>
    ) -> Bool {
        let eps = LayerGeometry.clipW
        let anchor = geometry.anchorInPoints
        let count = Swift.min(positions.count, screen.count)
        // A part per thread: the parts only say whether any vertex is behind the eye.
        let parts = Swift.max(1, Swift.min(ProcessInfoCores.count, count / SortParallelism.minimumPart))
        guard let sb = screen.baseAddress else { return false }
        let so = SharedMutableBuffer(base: sb)
        let behind = parallelParts(parts) { part -> Bool in
            var clipped = false
            for i in PartRanges.range(part, of: parts, count: count) {
                let h = geometry.clipCoordinates(ofPoints: positions[i])
                let inFront = h.w > eps
                so.base[i] = inFront ? SIMD3(h.x, h.y, h.z) / h.w + anchor : .zero
                clipped = clipped || !inFront
            }
            return clipped
        }
        return behind.contains(true)
    }
}

private extension SortPool {
    /// Appends `mesh`'s triangles clipped at w ≤ clipW: those wholly in front as they are, those
    /// wholly behind dropped, the others cut into a fan of the polygon in front, with one new vertex
    /// per cut edge shared by both triangles of that edge.
    mutating func clipTriangles(of mesh: TriangleMesh) throws {
        let eps = LayerGeometry.clipW
        // The same w the projection saw (the same function of the same point).
        let w = mesh.positions.map { geometry.clipCoordinates(ofPoints: $0).w }
        triangles.reserveCapacity(mesh.triangleCount)
        sourceFaces.reserveCapacity(mesh.triangleCount)

        var cutVertex: [UInt64: Int32] = [:]
        for (t, tri) in mesh.triangles.enumerated() {
            let inside = (w[Int(tri.x)] > eps, w[Int(tri.y)] > eps, w[Int(tri.z)] > eps)
            // The common case, wholly in front of the eye, allocates nothing.
            if inside.0, inside.1, inside.2 {
                triangles.append(tri)
                sourceFaces.append(mesh.sourceFaces[t])
                continue
            }
            if !inside.0, !inside.1, !inside.2 { continue }
            let flags = [inside.0, inside.1, inside.2]
            var polygon: [Int32] = []
            for k in 0..<3 {
                let a = tri[k], b = tri[(k + 1) % 3]
                if flags[k] { polygon.append(a) }
                if flags[k] != flags[(k + 1) % 3] {
                    // Keyed by the ordered pair so both triangles of an edge share the cut.
                    let (lo, hi) = (min(a, b), max(a, b))
                    let key = UInt64(UInt32(lo)) << 32 | UInt64(UInt32(hi))
                    if let v = cutVertex[key] {
                        polygon.append(v)
                    } else {
                        // w is affine in points space, so this t lands on w = clipW exactly.
                        let t = (eps - w[Int(lo)]) / (w[Int(hi)] - w[Int(lo)])
                        let v = try interpolatedVertex(lo, hi, t: t)
                        cutVertex[key] = v
                        polygon.append(v)
                    }
                }
            }
            for k in 1..<(polygon.count - 1) {
                triangles.append(SIMD3(polygon[0], polygon[k], polygon[k + 1]))
                sourceFaces.append(mesh.sourceFaces[t])
            }
        }
    }
}
