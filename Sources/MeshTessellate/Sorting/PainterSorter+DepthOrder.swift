import CSwiftRuntimeShims
import SurfaceKit

public extension PainterSorter {
    /// The back-to-front draw order of `mesh`'s triangles on a layer with `geometry`: what a
    /// renderer needs to draw semi-transparent triangles by centroid depth, without building a
    /// reordered mesh.
    ///
    /// The result lists the indices of `mesh.triangles`, farthest first: ascending screen depth of
    /// each triangle's centroid, `(z_a + z_b + z_c) / 3` with z the screen z of each corner, equal
    /// depths in triangle order. It is exactly the order of `sorted(mesh:geometry:mode: .depth)`,
    /// whose triangles are `order.map { mesh.triangles[Int($0)] }`.
    ///
    /// Returns `nil` when some triangle has a corner at or behind the eye (w ≤
    /// `LayerGeometry.clipW`): such a triangle has to be clipped first, which makes new triangles, so
    /// no order of the input's triangles exists; `sorted(mesh:geometry:mode: .depth)` clips and
    /// sorts it. The same holds for a corner whose position is not finite (its w is NaN, so it is
    /// not in front of the eye either). Vertices that no triangle uses do not matter.
    ///
    /// Throws `.unsupported` unless `mesh` is in points space, and `.indexOutOfRange` when a
    /// triangle names a vertex the mesh does not have.
    static func depthOrder(mesh: TriangleMesh, geometry: LayerGeometry) throws -> [Int32]? {
        guard mesh.space == .points else {
            throw MeshError(.unsupported, path: "", "the painter's sort needs a points-space mesh, not \(mesh.space.rawValue) space")
        }
        guard mesh.triangleCount <= Int(Int32.max) else {
            throw MeshError(.limitExceeded, path: "", "the depth order lists at most \(Int32.max) triangles")
        }
        let count = mesh.vertexCount
        // Screen depth of every vertex, NaN at or behind the eye, so that a key using one is NaN.
        let outcome = mesh.triangles.withUnsafeBufferPointer { triangles in
            CentroidDepthSort.order(vertexCount: count, triangles: triangles) { z in
                screenDepths(of: mesh.positions, geometry: geometry, into: z)
            }
        }
        switch outcome {
        case .sorted(let order):
            return order
        case .indexOutOfRange:
            throw MeshError(.indexOutOfRange, path: "", "a triangle names a vertex the mesh does not have (\(count) vertices)")
        case .nanKey:
            return orderOfNaNDepths(mesh: mesh, geometry: geometry)
        }
    }
}

extension PainterSorter {
    /// The `.depth` order of the pool's (clipped) triangles: the centroid sort over the pool's
    /// screen depths; NaN keys (non-finite input) go through the Float-keyed radix sort as before.
    static func depthOrder(pool: SortPool) throws -> [Int32] {
        let count = pool.screen.count
        let outcome = pool.triangles.withUnsafeBufferPointer { triangles in
            CentroidDepthSort.order(vertexCount: count, triangles: triangles) { z in
                var lo = Double.infinity, hi = -Double.infinity
                for (i, p) in pool.screen.enumerated() {
                    z[i] = p.z
                    lo = p.z < lo ? p.z : lo
                    hi = p.z > hi ? p.z : hi
                }
                return (lo, hi)
            }
        }
        switch outcome {
        case .sorted(let order):
            return order
        case .nanKey:
            return RadixSort.stableOrder(pool.centroidDepths())
        case .indexOutOfRange:
            throw MeshError(.indexOutOfRange, path: "", "a triangle names a vertex the mesh does not have (\(count) vertices)")
        }
    }

    /// Writes the screen z of each points-space position (`SortPool.screen`'s z, bit for bit), or
    /// NaN where w ≤ clipW, on all cores; returns the smallest and largest z that are not NaN.
    static func screenDepths(of positions: [Point3D], geometry: LayerGeometry, into z: UnsafeMutableBufferPointer<Double>)
        -> (lo: Double, hi: Double)
    {
        let projection = DepthProjection(geometry: geometry)
        let count = positions.count
        // A part per thread: the parts' smallest and largest depths are joined by min and max,
        // which give the same result in any grouping, so the count of parts needs no fixing.
        let parts = Swift.max(1, Swift.min(ProcessInfoCores.count, count / SortParallelism.minimumPart))
        var ranges = [SIMD2<Double>](repeating: SIMD2(.infinity, -.infinity), count: parts)
        positions.withUnsafeBufferPointer { positions in
            ranges.withUnsafeMutableBufferPointer { rb in
                guard let zBase = z.baseAddress, let pBase = positions.baseAddress, let rBase = rb.baseAddress else { return }
                let out = SharedMutableBuffer(base: zBase), points = UncheckedSendable(pBase)
                let range = SharedMutableBuffer(base: rBase)
                parallelChunks(parts, minimumChunk: 1) { chunk in
                    for part in chunk {
                        var lo = SIMD2<Double>(repeating: .infinity), hi = SIMD2<Double>(repeating: -.infinity)
                        // Ahead within the positions only, so no pointer goes past them.
                        let prefetchEnd = count - CentroidDepthSort.positionPrefetch
                        let vertices = PartRanges.range(part, of: parts, count: count)
                        var i = vertices.lowerBound
                        // Two at a time (`DepthProjection.depths`), a lone last one by itself.
                        while i < vertices.upperBound {
                            // Two positions, 48 bytes: about a line a pair.
                            if i < prefetchEnd { shims_prefetch(points.value + i + CentroidDepthSort.positionPrefetch) }
                            let pair = i + 1 < vertices.upperBound
                            let p = points.value[i]
                            let depth = projection.depths(p, pair ? points.value[i + 1] : p)
                            out.base[i] = depth[0]
                            if pair { out.base[i + 1] = depth[1] }
                            // NaN compares false, so it never enters the range (and a lone last
                            // one's second lane is its own depth again).
                            lo = lo.replacing(with: depth, where: depth .< lo)
                            hi = hi.replacing(with: depth, where: depth .> hi)
                            i += 2
                        }
                        range.base[part] = SIMD2(Swift.min(lo[0], lo[1]), Swift.max(hi[0], hi[1]))
                    }
                }
            }
        }
        return (ranges.map(\.x).min() ?? .infinity, ranges.map(\.y).max() ?? -.infinity)
    }

    /// The rare case of a NaN key: `nil` if a triangle has a corner at or behind the eye, otherwise
    /// (depths NaN in themselves, from non-finite input) the order `.depth` gives such keys.
    static func orderOfNaNDepths(mesh: TriangleMesh, geometry: LayerGeometry) -> [Int32]? {
        let eps = LayerGeometry.clipW
        let anchorZ = geometry.anchorInPoints.z
        let clip = mesh.positions.map { geometry.clipCoordinates(ofPoints: $0) }
        var keys: [Double] = []
        keys.reserveCapacity(mesh.triangleCount)
        for t in mesh.triangles {
            let a = clip[Int(t.x)], b = clip[Int(t.y)], c = clip[Int(t.z)]
            guard a.w > eps, b.w > eps, c.w > eps else { return nil }
            keys.append(((a.z / a.w + anchorZ) + (b.z / b.w + anchorZ) + (c.z / c.w + anchorZ)) / 3)
        }
        return RadixSort.stableOrder(keys)
    }
}
