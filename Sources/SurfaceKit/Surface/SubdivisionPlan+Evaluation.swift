/// Surface points at the refined vertices, and optionally at the centres of the sub-quads.
public struct SurfaceEvaluation: Sendable {
    /// One sample per refined vertex (see ``SubdivisionPlan/pointCount``).
    public var points: SurfaceSamples
    /// One sample per sub-quad, at its centre on the surface, when asked for.
    public var centers: SurfaceSamples?
}

public extension SubdivisionPlan {
    /// Evaluates the rational surface for these control vertices and vertex weights (see
    /// ``SurfaceTopology/vertexWeights(faces:)``). Normals are computed in points space, which
    /// `pointScale` (W, H, D) defines. Throws `.incompatible` when the counts do not match the plan.
    func evaluate(
        vertices: [MeshVertex], weights: [Double], pointScale: SIMD3<Double>, includeCenters: Bool = false
    ) throws -> SurfaceEvaluation {
        try evaluate(
            vertices: vertices, weights: weights, pointScale: pointScale, includeCenters: includeCenters,
            tensorPatches: true)
    }
}

public extension SubdivisionPlan {
    /// Evaluates the surface points (no centres) into `samples`, reusing its arrays when they
    /// already hold ``pointCount`` samples and nothing else shares them: what an animation that
    /// re-evaluates the same plan frame after frame wants. Fresh arrays cost more than the
    /// evaluation itself on large plans (the kernel must fault in and clear every new page), so a
    /// caller that keeps last frame's samples saves that. The result equals
    /// `evaluate(vertices:weights:pointScale:).points`. Throws as that does.
    func evaluate(vertices: [MeshVertex], weights: [Double], pointScale: SIMD3<Double>, into samples: inout SurfaceSamples) throws {
        guard steps > 0, usesTensorPatchesOnly, samples.from.count == pointCount, samples.normals.count == pointCount,
            samples.to.count == pointCount
        else {
            samples = try evaluate(vertices: vertices, weights: weights, pointScale: pointScale).points
            return
        }
        let data = try homogeneousData(vertices: vertices, weights: weights)
        // Every point belongs to exactly one patch, which writes it: old values never survive.
        data.withUnsafeBufferPointer { src in
            writeRegularPatchPoints(data: src, pointScale: pointScale, into: &samples)
        }
    }
}

extension SubdivisionPlan {
    /// The control vertices as homogeneous values, after checking their counts against the plan.
    func homogeneousData(vertices: [MeshVertex], weights: [Double]) throws -> [Homogeneous] {
        guard vertices.count == controlVertexCount, weights.count == controlVertexCount else {
            throw MeshError(
                .incompatible, path: "vertices",
                "the plan was built for \(controlVertexCount) vertices, got \(vertices.count) vertices and \(weights.count) weights")
        }
        return [Homogeneous](unsafeUninitializedCapacity: vertices.count) { buffer, count in
            for i in 0..<vertices.count {
                buffer[i] = Homogeneous(vertex: vertices[i], weight: weights[i])
            }
            count = vertices.count
        }
    }

    /// ``evaluate(vertices:weights:pointScale:includeCenters:)``; `tensorPatches: false` keeps
    /// every point on the stencil tables (tests compare the two paths).
    func evaluate(
        vertices: [MeshVertex], weights: [Double], pointScale: SIMD3<Double>, includeCenters: Bool,
        tensorPatches: Bool
    ) throws -> SurfaceEvaluation {
        var data = try homogeneousData(vertices: vertices, weights: weights)
        if steps == 0 {
            return SurfaceEvaluation(
                points: controlMeshSamples(data: data, pointScale: pointScale),
                centers: includeCenters ? controlMeshCenters(data: data, pointScale: pointScale) : nil)
        }
        if tensorPatches, usesTensorPatchesOnly {
            // Every face is a bicubic B-spline patch: no refinement, no limit stencils.
            // Every point belongs to exactly one patch, which writes it: no need to clear first.
            var points = SurfaceSamples.uninitialized(count: pointCount)
            let centers = data.withUnsafeBufferPointer { src in
                writeRegularPatchPoints(data: src, pointScale: pointScale, into: &points)
                return includeCenters ? regularPatchCenters(data: src, pointScale: pointScale) : nil
            }
            return SurfaceEvaluation(points: points, centers: centers)
        }
        for table in storage.refinement {
            data = table.apply(data)
        }
        let points = limitSamples(data: data, pointScale: pointScale)
        let centers = includeCenters ? limitCenters(data: data, pointScale: pointScale) : nil
        return SurfaceEvaluation(points: points, centers: centers)
    }
}

extension SubdivisionPlan {
    /// The rational point and its normal from a homogeneous point and two homogeneous tangents:
    /// P = P̃/W and T = (T̃ − P·dW)/W, with the normal `Tu × Tv` taken in points space.
    @inline(__always)
    static func rational(_ frame: HomogeneousFrame, scale: SIMD3<Double>) -> (LayerPoint, Point3D, Point3D) {
        let w = frame.position.weight
        let p = frame.position / w
        let t1 = (frame.tangent1 - p * frame.tangent1.weight) / w
        let t2 = (frame.tangent2 - p * frame.tangent2.weight) / w
        let n = cross(t1.toPart * scale, t2.toPart * scale)
        return (p.fromPart, p.toPart, n.normalized())
    }

    func limitSamples(data: [Homogeneous], pointScale: SIMD3<Double>) -> SurfaceSamples {
        guard let limit = storage.limit else { return SurfaceSamples() }
        let (from, to, normals) = data.withUnsafeBufferPointer { src in
            limit.withView { view in
                parallelFill(count: data.count, (LayerPoint.zero, Point3D.zero, Point3D.zero)) { v in
                    if let frame = view.frame(at: v, data: src) {
                        return SubdivisionPlan.rational(frame, scale: pointScale)
                    }
                    return SubdivisionPlan.pinnedVertex(v, limit: limit, data: src, scale: pointScale)
                }
            }
        }
        return SurfaceSamples(from: from, to: to, normals: normals)
    }

    /// A non-manifold or isolated vertex stays where it is; its normal is the mean of the corner
    /// normals of its faces, each from the boundary tangents toward that face's next and previous
    /// corners (a non-manifold vertex has no single tangent plane).
    static func pinnedVertex(
        _ v: Int, limit: LimitStencilTable, data: UnsafeBufferPointer<Homogeneous>, scale: SIMD3<Double>
    ) -> (LayerPoint, Point3D, Point3D) {
        let center = data[v]
        let p = center / center.weight
        var sum = Point3D.zero
        var k = Int(limit.offsets[v])
        while k + 1 < Int(limit.offsets[v + 1]) {
            let next = data[Int(limit.ring[k])], prev = data[Int(limit.ring[k + 1])]
            let frame = HomogeneousFrame(position: center, tangent1: next - center, tangent2: prev - center)
            sum += rational(frame, scale: scale).2
            k += 2
        }
        return (p.fromPart, p.toPart, sum.normalized())
    }

    /// Steps 0: the control mesh. Normals are those of the bilinear faces at their corners, summed
    /// (area-weighted) over the faces of each vertex.
    func controlMeshSamples(data: [Homogeneous], pointScale: SIMD3<Double>) -> SurfaceSamples {
        let level = storage.control
        let n = data.count
        var from = [LayerPoint](repeating: .zero, count: n)
        var to = [Point3D](repeating: .zero, count: n)
        for v in 0..<n {
            let p = data[v] / data[v].weight
            from[v] = p.fromPart
            to[v] = p.toPart
        }
        var sums = [Point3D](repeating: .zero, count: n)
        for f in 0..<level.faceCount {
            for k in 0..<4 {
                let v = Int(level.faceVertices[4 * f + k])
                let next = Int(level.faceVertices[4 * f + (k + 1) % 4])
                let prev = Int(level.faceVertices[4 * f + (k + 3) % 4])
                sums[v] += cross((to[next] - to[v]) * pointScale, (to[prev] - to[v]) * pointScale)
            }
        }
        return SurfaceSamples(from: from, to: to, normals: sums.map { $0.normalized() })
    }

    /// Steps 0 centres: the mean of the corners, with the bilinear face's normal there.
    func controlMeshCenters(data: [Homogeneous], pointScale: SIMD3<Double>) -> SurfaceSamples {
        let level = storage.control
        var result = SurfaceSamples()
        result.from.reserveCapacity(level.faceCount)
        result.to.reserveCapacity(level.faceCount)
        result.normals.reserveCapacity(level.faceCount)
        for f in 0..<level.faceCount {
            var c = [Homogeneous]()
            for k in 0..<4 {
                let d = data[Int(level.faceVertices[4 * f + k])]
                c.append(d / d.weight)
            }
            let mean = (c[0] + c[1] + c[2] + c[3]) / 4
            let tu = ((c[1] + c[2]) - (c[0] + c[3])).toPart * pointScale
            let tv = ((c[2] + c[3]) - (c[0] + c[1])).toPart * pointScale
            result.from.append(mean.fromPart)
            result.to.append(mean.toPart)
            result.normals.append(cross(tu, tv).normalized())
        }
        return result
    }

    /// Steps ≥ 1 centres: the limit point of the next level's face point, which is a regular vertex:
    /// position `(16 F + 4 Σ Eₖ + Σ Vₖ) / 36` over the face point F, the points Eₖ of the sub-quad's
    /// edges and the points Vₖ of its corners, and the B-spline derivative pair for the normal.
    func limitCenters(data: [Homogeneous], pointScale: SIMD3<Double>) -> SurfaceSamples {
        let level = storage.final
        guard let limit = storage.limit else { return SurfaceSamples() }
        let count = storage.quadFaces.count
        let quadFaces = storage.quadFaces
        let (from, to, normals) = data.withUnsafeBufferPointer { src in
            parallelFill(count: count, (LayerPoint.zero, Point3D.zero, Point3D.zero), minimumChunk: 2048) { q in
                var row = SparseRow()
                func point(_ build: (inout SparseRow) -> Void) -> Homogeneous {
                    row.removeAll()
                    build(&row)
                    return row.apply(to: src)
                }
                let g = Int(quadFaces[q])
                let faceP = point { level.addFacePoint(g, scale: 1, into: &$0) }
                var e = (Homogeneous.zero, Homogeneous.zero, Homogeneous.zero, Homogeneous.zero)
                var c = e
                func edgeAndCorner(_ k: Int) -> (Homogeneous, Homogeneous) {
                    let edge = Int(level.faceEdges[4 * g + k])
                    let v = Int(level.faceVertices[4 * g + k])
                    let rule = limit.vertexRule(v)
                    return (
                        point { level.addEdgePoint(edge, scale: 1, into: &$0) },
                        point { level.addVertexPoint(v, rule: rule, scale: 1, into: &$0) }
                    )
                }
                (e.0, c.0) = edgeAndCorner(0)
                (e.1, c.1) = edgeAndCorner(1)
                (e.2, c.2) = edgeAndCorner(2)
                (e.3, c.3) = edgeAndCorner(3)
                let position = (16 * faceP + 4 * (e.0 + e.1 + e.2 + e.3) + (c.0 + c.1 + c.2 + c.3)) / 36
                // u runs from edge 3 (left) to edge 1 (right), v from edge 0 (top) to edge 2 (bottom).
                let du = (c.1 + 4 * e.1 + c.2) - (c.0 + 4 * e.3 + c.3)
                let dv = (c.3 + 4 * e.2 + c.2) - (c.0 + 4 * e.0 + c.1)
                return SubdivisionPlan.rational(
                    HomogeneousFrame(position: position, tangent1: du, tangent2: dv), scale: pointScale)
            }
        }
        return SurfaceSamples(from: from, to: to, normals: normals)
    }
}
