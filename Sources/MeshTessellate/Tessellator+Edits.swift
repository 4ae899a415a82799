import SurfaceKit

/// A tessellation kept between edits of one mesh, so that the next call of
/// ``Tessellator/tessellate(_:geometry:space:keeping:)`` re-evaluates only what the moved vertices
/// reach.
public struct KeptTessellation: Sendable {
    /// The current tessellation: what ``Tessellator/tessellate(_:geometry:space:)`` returns for the
    /// last mesh, bit for bit.
    public internal(set) var mesh: TriangleMesh
    /// What `mesh` was made from: compared with the next mesh to find the moved vertices (the
    /// faces' corners must match; their weights are compared through the vertex weights).
    let faces: [SIMD4<Int>]
    var vertices: [MeshVertex]
    var weights: [Double]
    let geometry: LayerGeometry
    let steps: Int
    let diagonal: DiagonalPolicy
    /// The plan's evaluation in unit coordinates (points-space normals), which partial
    /// evaluation rewrites in place.
    var samples: SurfaceSamples
    /// Points-space positions, kept only for unit output with a diagonal that reads positions.
    var points: [Point3D]
    let support: SubdivisionPlan.PatchSupport
    /// Per control vertex, the control faces around it (offsets into `vertexFaces`).
    let vertexFaceOffsets: [Int32]
    let vertexFaces: [Int32]
}

/// What a kept tessellation's update changed.
public struct TessellationEdit: Sendable, Equatable {
    /// Output vertices whose position, normal or layer point may differ from before, ascending.
    public var vertices: [Int]
    /// Triangles with a corner among `vertices`, or whose corners changed (a flipped diagonal),
    /// ascending. Every other triangle is the same as before, at the same place.
    public var triangles: [Int]
}

extension Tessellator {
    /// Tessellates `mesh` as ``tessellate(_:geometry:space:)`` does (the same result, bit for bit,
    /// which becomes `kept.mesh`), reusing `kept`, the tessellation of an earlier mesh of the same
    /// faces: only the patches that the moved vertices reach are evaluated again, and only their
    /// sub-quads triangulated again.
    ///
    /// Returns what changed, or `nil` when everything was made afresh: on the first call, when
    /// `kept` was made for other faces, steps, diagonal, space or layer size and depth scale, and wherever
    /// the shortcut is not proven (automatic steps, vertices no face uses, screen space, the
    /// `surface` and `center` diagonals, and plans with faces off the patch path, see
    /// ``SubdivisionPlan/reevaluate(vertices:weights:changed:support:pointScale:into:)``).
    /// There `kept` is replaced, or set to `nil` where no update can follow.
    public func tessellate(
        _ mesh: MeshTransform, geometry: LayerGeometry, space: CoordinateSpace, keeping kept: inout KeptTessellation?
    ) throws -> TessellationEdit? {
        guard automatic == nil, vertexRemap == nil, space != .screen, diagonal != .surface, diagonal != .center, plan.steps > 0 else {
            kept = nil
            return nil
        }
        if let difference = topology.difference(faces: mesh.faces, vertexCount: mesh.vertices.count) { throw difference }
        let weights = topology.vertexWeights(faces: mesh.faces)
        // The support depends on the topology and steps alone, and is built once for them (it is
        // also what decides whether the plan allows updates at all).
        var support: SubdivisionPlan.PatchSupport?
        if var state = kept, state.steps == plan.steps, Tessellator.sameCorners(state.faces, mesh.faces) {
            support = state.support
            // Of the layer, the evaluation and triangulation read only the point scale (the
            // transform matters to sorting and projection only), so turning the layer keeps it.
            if state.mesh.space == space, state.geometry.pointScale == geometry.pointScale, state.diagonal == diagonal {
                // Released while it is updated, so that its arrays are changed in place, not copied.
                kept = nil
                let changed = Tessellator.movedVertices(mesh.vertices, weights, from: state.vertices, state.weights)
                if let edit = try update(&state, vertices: mesh.vertices, weights: weights, changed: changed, support: state.support) {
                    state.vertices = mesh.vertices
                    state.weights = weights
                    kept = state
                    return edit
                }
            }
        }
        kept = nil
        guard let support = support ?? SubdivisionPlan.PatchSupport(plan: plan) else { return nil }
        kept = try fresh(mesh, weights: weights, geometry: geometry, space: space, support: support)
        return nil
    }

    static func sameCorners(_ kept: [SIMD4<Int>], _ faces: [MeshFace]) -> Bool {
        kept.count == faces.count && zip(kept, faces).allSatisfy { $0 == $1.indices }
    }

    /// The control vertices whose value or weight differs, compared bit for bit (so that −0 and 0,
    /// which evaluate to different bits, count as a change).
    static func movedVertices(_ vertices: [MeshVertex], _ weights: [Double], from old: [MeshVertex], _ oldWeights: [Double]) -> [Int] {
        var moved: [Int] = []
        for i in vertices.indices {
            let a = vertices[i], b = old[i]
            if a.from.x.bitPattern != b.from.x.bitPattern || a.from.y.bitPattern != b.from.y.bitPattern
                || a.to.x.bitPattern != b.to.x.bitPattern || a.to.y.bitPattern != b.to.y.bitPattern
                || a.to.z.bitPattern != b.to.z.bitPattern || weights[i].bitPattern != oldWeights[i].bitPattern
            {
                moved.append(i)
            }
        }
        return moved
    }

    /// The whole tessellation, made as ``tessellate(_:geometry:space:)`` makes it on its lean path
    /// (no isolated vertices, unit or points space), with the evaluation kept for later updates.
    func fresh(
        _ mesh: MeshTransform, weights: [Double], geometry: LayerGeometry, space: CoordinateSpace,
        support: SubdivisionPlan.PatchSupport
    ) throws -> KeptTessellation {
        let samples = try plan.evaluate(vertices: mesh.vertices, weights: weights, pointScale: geometry.pointScale).points
        let scale = geometry.pointScale
        let needsPoints = fixedTriangles == nil
        let points = needsPoints ? samples.to.map { $0 * scale } : []
        let triangles = fixedTriangles ?? Tessellator.triangulate(plan: plan, policy: diagonal, points: points, centers: nil)
        var positions = samples.to, normals = samples.normals
        if space == .points {
            Tessellator.transform(&positions) { $0 * scale }
        } else {
            Tessellator.transform(&normals) { geometry.unitNormal(fromPoints: $0) }
        }
        let result = TriangleMesh(
            space: space, positions: positions, from: samples.from, normals: normals, triangles: triangles, sourceFaces: sourceFaces)
        var offsets = [Int32](repeating: 0, count: mesh.vertices.count + 1)
        for face in mesh.faces { for k in 0..<4 { offsets[face.indices[k] + 1] += 1 } }
        for v in 0..<mesh.vertices.count { offsets[v + 1] += offsets[v] }
        var fill = offsets
        var vertexFaces = [Int32](repeating: 0, count: Int(offsets[mesh.vertices.count]))
        for (f, face) in mesh.faces.enumerated() {
            for k in 0..<4 {
                vertexFaces[Int(fill[face.indices[k]])] = Int32(f)
                fill[face.indices[k]] += 1
            }
        }
        return KeptTessellation(
            mesh: result, faces: mesh.faces.map(\.indices), vertices: mesh.vertices, weights: weights, geometry: geometry,
            steps: plan.steps,
            diagonal: diagonal, samples: samples, points: space == .unit && needsPoints ? points : [], support: support,
            vertexFaceOffsets: offsets, vertexFaces: vertexFaces)
    }

    /// Re-evaluates the patches the `changed` vertices reach and writes their points and the
    /// triangles of the sub-quads that touch them into `state.mesh`; `nil` when the plan cannot.
    func update(
        _ state: inout KeptTessellation, vertices: [MeshVertex], weights: [Double], changed: [Int],
        support: SubdivisionPlan.PatchSupport
    ) throws -> TessellationEdit? {
        guard !changed.isEmpty else { return TessellationEdit(vertices: [], triangles: []) }
        let scale = state.geometry.pointScale
        guard
            let written = try plan.reevaluate(
                vertices: vertices, weights: weights, changed: changed, support: support, pointScale: scale,
                into: &state.samples)
        else { return nil }
        let geometry = state.geometry, space = state.mesh.space
        let keepsPoints = !state.points.isEmpty
        for i in written {
            // The same operations as the full path's: unit positions scaled, normals converted.
            let p = state.samples.to[i], n = state.samples.normals[i]
            if space == .points {
                state.mesh.positions[i] = p * scale
                state.mesh.normals[i] = n
            } else {
                state.mesh.positions[i] = p
                state.mesh.normals[i] = geometry.unitNormal(fromPoints: n)
                if keepsPoints { state.points[i] = p * scale }
            }
            state.mesh.from[i] = state.samples.from[i]
        }
        // A written point is a grid point of a re-evaluated face, so every sub-quad with it as a
        // corner lies in that face or in a face sharing one of its control vertices.
        var touched = Set<Int>()
        for f in support.faces(reading: changed) {
            for v in mesh(faceCorners: f, state) {
                for slot in Int(state.vertexFaceOffsets[v])..<Int(state.vertexFaceOffsets[v + 1]) {
                    touched.insert(Int(state.vertexFaces[slot]))
                }
            }
        }
        var isWritten = [Bool](repeating: false, count: plan.pointCount)
        for i in written { isWritten[i] = true }
        let perFace = plan.resolution * plan.resolution
        let perQuad = diagonal.trianglesPerQuad
        var triangles: [Int] = []
        let points = space == .points ? state.mesh.positions : state.points
        for f in touched.sorted() {
            for q in (f * perFace)..<((f + 1) * perFace) {
                let c = plan.quad(q)
                let moved = isWritten[Int(c[0])] || isWritten[Int(c[1])] || isWritten[Int(c[2])] || isWritten[Int(c[3])]
                guard moved else { continue }
                if fixedTriangles == nil {
                    let first = Tessellator.useFirstDiagonal(policy: diagonal, corners: c, points: points, center: nil)
                    state.mesh.triangles[2 * q] = first ? SIMD3(c[0], c[1], c[2]) : SIMD3(c[0], c[1], c[3])
                    state.mesh.triangles[2 * q + 1] = first ? SIMD3(c[0], c[2], c[3]) : SIMD3(c[1], c[2], c[3])
                }
                for t in (perQuad * q)..<(perQuad * (q + 1)) { triangles.append(t) }
            }
        }
        return TessellationEdit(vertices: written, triangles: triangles)
    }

    /// The control vertices of face f, from the kept faces.
    private func mesh(faceCorners f: Int, _ state: KeptTessellation) -> [Int] {
        let indices = state.faces[f]
        return [indices[0], indices[1], indices[2], indices[3]]
    }
}
