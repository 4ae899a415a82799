public extension Tessellator {
    /// Refuses `options.maximumTriangles` when this tessellator makes more triangles than that,
    /// with the `.limitExceeded` error (and message) ``init(mesh:options:)`` gives for the same
    /// request: for a caller that keeps a tessellator and serves later requests, which may carry
    /// a smaller budget, from it. Automatic steps check their budget when they tessellate, so
    /// this passes them.
    func checkBudget(_ options: TessellationOptions) throws {
        guard !isAutomatic else { return }
        var same = options
        same.diagonal = diagonal
        try Tessellator.checkBudget(faces: plan.controlFaceCount, steps: plan.steps, options: same)
    }
}
