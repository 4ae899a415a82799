/// Re-evaluating only the patches that a few moved control vertices reach: what an editor that
/// drags one vertex of a large mesh needs, instead of evaluating every patch again.
///
/// Locality, and why the result is the full evaluation's bit for bit: on a plan whose every face
/// is a bicubic patch (``SubdivisionPlan/PatchSupport``), each refined point is written by exactly
/// one patch, its owner, from that patch's 16 control values alone, and each control value reads
/// only the control vertices listed in the patch's terms. A patch none of whose terms names a
/// changed vertex therefore computes the same bits as before, and the points it owns need no
/// work. The patches that do read a changed vertex run the same kernel on the same inputs as a
/// full evaluation would, so their points are those of a full evaluation too. Plans with faces
/// off the patch path (extraordinary, non-manifold or isolated vertices) are not handled here:
/// their stencil tables mix vertices over whole rings of levels, so callers evaluate in full.
public extension SubdivisionPlan {
    /// Which patches read each control vertex, for ``reevaluate(vertices:weights:changed:support:pointScale:into:)``.
    struct PatchSupport: Sendable {
        /// Per control vertex, the range of `patches` holding the patches (control faces) whose
        /// terms name it.
        let offsets: [Int32]
        let patches: [Int32]

        /// The support of `plan`'s patches; `nil` unless the plan has steps and evaluates every
        /// face as a patch (then partial evaluation does not apply).
        public init?(plan: SubdivisionPlan) {
            guard plan.steps > 0, plan.usesTensorPatchesOnly, let table = plan.storage.patches else { return nil }
            let vertexCount = plan.controlVertexCount
            // The vertices each patch reads: the first term of every point (always read, even
            // at weight 0) and every other term of non-zero weight, as `controlValue` reads them.
            var reads: [[Int32]] = []
            reads.reserveCapacity(table.faces.count)
            let terms = RegularPatchTable.termsPerPoint
            for k in 0..<table.faces.count {
                var list: [Int32] = []
                for point in 0..<16 {
                    let first = terms * (16 * k + point)
                    list.append(table.indices[first])
                    for slot in (first + 1)..<(first + terms) where table.weights[slot] != 0 { list.append(table.indices[slot]) }
                }
                reads.append(Array(Set(list)).sorted())
            }
            var counts = [Int32](repeating: 0, count: vertexCount + 1)
            for list in reads { for v in list { counts[Int(v) + 1] += 1 } }
            for v in 0..<vertexCount { counts[v + 1] += counts[v] }
            var fill = counts
            var patches = [Int32](repeating: 0, count: Int(counts[vertexCount]))
            for (k, list) in reads.enumerated() {
                for v in list {
                    patches[Int(fill[Int(v)])] = table.faces[k]
                    fill[Int(v)] += 1
                }
            }
            offsets = counts
            self.patches = patches
        }

        /// The control faces whose patch reads any of `vertices`, ascending, each once.
        public func faces(reading vertices: some Sequence<Int>) -> [Int] {
            var faces = Set<Int>()
            for v in vertices where v >= 0 && v + 1 < offsets.count {
                for slot in Int(offsets[v])..<Int(offsets[v + 1]) { faces.insert(Int(patches[slot])) }
            }
            return faces.sorted()
        }
    }

    /// Re-evaluates into `samples`, which holds this plan's evaluation of other control values
    /// (``evaluate(vertices:weights:pointScale:into:)`` or the points of
    /// ``evaluate(vertices:weights:pointScale:includeCenters:)`` for the same `pointScale`), the
    /// points of every patch that reads one of the control vertices `changed`, now at
    /// `vertices` and `weights`. Afterwards `samples` equals a full evaluation of `vertices`,
    /// bit for bit, provided `changed` lists every vertex whose value or weight differs from the
    /// ones `samples` was evaluated for.
    ///
    /// Returns the indices of the points written, ascending; `nil`, leaving `samples` untouched,
    /// when `support` is not this plan's or `samples` does not hold ``pointCount`` points (then
    /// evaluate in full). Throws `.incompatible` when the counts do not match the plan.
    func reevaluate(
        vertices: [MeshVertex], weights: [Double], changed: some Sequence<Int>, support: PatchSupport,
        pointScale: SIMD3<Double>, into samples: inout SurfaceSamples
    ) throws -> [Int]? {
        guard support.offsets.count == controlVertexCount + 1, let table = storage.patches, usesTensorPatchesOnly,
            samples.to.count == pointCount, samples.normals.count == pointCount, samples.from.count == pointCount
        else { return nil }
        let data = try homogeneousData(vertices: vertices, weights: weights)
        let faces = support.faces(reading: changed)
        guard !faces.isEmpty else { return [] }
        let n = resolution
        let basis = PatchBasis(parameters: (0...n).map { Double($0) / Double(n) })
        var written: [Int] = []
        written.reserveCapacity(faces.count * (n + 1) * (n + 1))
        data.withUnsafeBufferPointer { src in
            storage.quads.withUnsafeBufferPointer { quadBuffer in
                guard let quadCorners = quadBuffer.baseAddress else { return }
                table.withTerms { indices, weights in
                    samples.withOutput { output in
                        PatchKernel.withScratch(columns: n + 1) { kernel in
                            for face in faces {
                                // Every face is a patch, listed in face order: patch k is face k.
                                let k = face
                                table.gather(k, data: src, indices: indices, weights: weights, into: kernel.control)
                                PatchKernel.gridSlots(face: face, owns: table.owns[k], n: n, quads: quadCorners, into: kernel.slots)
                                kernel.evaluate(uBasis: basis, vBasis: basis, scale: pointScale, output: output)
                                for s in 0..<((n + 1) * (n + 1)) where kernel.slots[s] >= 0 { written.append(Int(kernel.slots[s])) }
                            }
                        }
                    }
                }
            }
        }
        written.sort()
        return written
    }
}
