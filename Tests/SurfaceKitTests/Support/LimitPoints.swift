import SurfaceKit

// The reference the NURBS tests compare with: the tessellated limit surface (refinement and limit
// masks), which shares no code with the NURBS surfaces' construction or their Cox–de Boor evaluation.

/// The limit surface's `to` in points space at (i/2ˢ, j/2ˢ) of every face: `[face][j·(2ˢ+1) + i]`.
func limitPoints(_ mesh: MeshTransform, steps s: Int, size: SIMD2<Double>) throws -> [[Point3D]] {
    let topology = try SurfaceTopology(faces: mesh.faces, vertexCount: mesh.vertices.count)
    let plan = try SubdivisionPlan(topology: topology, steps: s)
    let weights = topology.vertexWeights(faces: mesh.faces)
    let scale = SIMD3(size.x, size.y, mesh.depthNormalization.depthScale(for: size))
    let points = try plan.evaluate(vertices: mesh.vertices, weights: weights, pointScale: scale).points.to
    let n = 1 << s, side = n + 1
    var result = [[Point3D]](repeating: [Point3D](repeating: .zero, count: side * side), count: mesh.faces.count)
    for q in 0..<plan.quadCount {
        let f = plan.controlFace(ofQuad: q), local = q % (n * n)
        let i = local % n, j = local / n
        let c = plan.quad(q)
        let slots = [j * side + i, j * side + i + 1, (j + 1) * side + i + 1, (j + 1) * side + i]
        for k in 0..<4 { result[f][slots[k]] = points[Int(c[k])] * scale }
    }
    return result
}
