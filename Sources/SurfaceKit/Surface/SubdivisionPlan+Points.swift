/// Points-space positions and normals alone: what a frame of an animation draws and depth-sorts,
/// without the layer coordinates.
///
/// A renderer that re-evaluates the same plan frame after frame needs the surface in points space
/// (the painter's sort and the rasteriser work there) and the normals for lighting, but not `from`.
/// Leaving it out saves two divisions a point and a third of the output, and writing the positions
/// already scaled saves the pass that would scale them afterwards.
public extension SubdivisionPlan {
    /// Writes each surface point in points space (the full evaluation's `to` times `pointScale`,
    /// the same bits as multiplying afterwards) into `positions` and its unit normal (as the full
    /// evaluation's, points space) into `normals`, one per ``pointCount``, reusing each array's
    /// storage when it already holds ``pointCount`` points and nothing else shares it. Throws
    /// `.incompatible` when the counts do not match the plan.
    func evaluatePoints(
        vertices: [MeshVertex], weights: [Double], pointScale: SIMD3<Double>, positions: inout [Point3D], normals: inout [Point3D]
    ) throws {
        guard steps > 0, usesTensorPatchesOnly else {
            // Stencil tables (or the control mesh itself at steps 0): the full samples.
            let points = try evaluate(vertices: vertices, weights: weights, pointScale: pointScale).points
            positions = points.to.map { $0 * pointScale }
            normals = points.normals
            return
        }
        let data = try homogeneousData(vertices: vertices, weights: weights)
        // Every point belongs to exactly one patch, which writes it: no need to clear first.
        if positions.count != pointCount { positions = uninitializedArray(count: pointCount) }
        if normals.count != pointCount { normals = uninitializedArray(count: pointCount) }
        data.withUnsafeBufferPointer { src in
            positions.withUnsafeMutableBufferPointer { p in
                normals.withUnsafeMutableBufferPointer { n in
                    guard let p = p.baseAddress, let n = n.baseAddress else { return }
                    let output = SampleOutput(from: nil, to: p, normals: n, positionScale: pointScale)
                    writeRegularPatchSamples(data: src, pointScale: pointScale, into: output)
                }
            }
        }
    }
}

/// `count` elements whose memory is not initialised, advised as huge-page candidates (see
/// ``adviseHugePages(_:)``): the caller writes every one before reading any.
func uninitializedArray<T>(count: Int) -> [T] {
    [T](unsafeUninitializedCapacity: count) { buffer, initialized in
        adviseHugePages(UnsafeMutableRawBufferPointer(buffer))
        initialized = count
    }
}
