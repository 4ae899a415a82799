import Synchronization

/// Everything about tessellating a control mesh at a fixed number of steps that depends only on its
/// topology: the refinement stencil tables, the limit stencils and the order of the sub-quads.
///
/// Build it once, then ``evaluate(vertices:weights:pointScale:includeCenters:)`` as often as the vertices
/// move (an animation): each evaluation is one sparse product per level plus the limit masks, with
/// no topology work. The plan is an immutable value, safe to share between threads.
public struct SubdivisionPlan: Sendable {
    /// Subdivision steps: each control face becomes 2ⁿ × 2ⁿ sub-quads.
    public let steps: Int
    let storage: Storage

    final class Storage: Sendable {
        let control: TopologyLevel
        /// Vertices of the refined mesh (the points an evaluation produces).
        let pointCount: Int
        /// Sub-quads in output order: per control face, rows (v) then columns (u); 4 corners each
        /// (top-left, top-right, bottom-right, bottom-left in the face's frame), as final-level vertices.
        let quads: [Int32]
        /// Final-level faces in the same order (for centers).
        let quadFaces: [Int32]
        let isolatedVertexCount: Int
        /// Faces evaluated as bicubic B-spline patches (the tensor-product fast path).
        let patches: RegularPatchTable?
        let steps: Int
        /// The output slots of every patch's grid points (``regularPatchSlots``), made on first use.
        private let patchSlots = Mutex<[Int32]?>(nil)
        /// The refinement and limit stencil tables and the refined topology. When every face is a
        /// patch, evaluation needs none of them, so they are built on first use only (exact
        /// hit-testing and centres ask for them), which saves most of the plan's time and memory
        /// (the refined topology alone is about 85 bytes a sub-quad).
        private let tables: Mutex<Tables?>

        struct Tables: Sendable {
            var refinement: [StencilTable]
            var limit: LimitStencilTable?
            /// The refined mesh's topology.
            var final: TopologyLevel
        }

        init(
            control: TopologyLevel, tables: Tables?, pointCount: Int, steps: Int,
            quads: [Int32], quadFaces: [Int32], isolated: Int, patches: RegularPatchTable?
        ) {
            self.control = control
            self.tables = Mutex(tables)
            self.pointCount = pointCount
            self.steps = steps
            self.quads = quads
            self.quadFaces = quadFaces
            self.isolatedVertexCount = isolated
            self.patches = patches
        }

        /// Per regular patch, the output slot of each of its (2ⁿ + 1)² grid points, row-major, −1
        /// where a neighbouring patch writes the point: what ``PatchKernel/gridSlots(face:owns:n:quads:into:)``
        /// reads from the sub-quads' corners. The tensor-product evaluations read these 4 bytes a
        /// point instead of the 16 bytes a sub-quad of corners, which on a large plan is a stream
        /// of memory as long as the positions written; made on the first evaluation that asks.
        var regularPatchSlots: [Int32] {
            patchSlots.withLock { slots in
                if let slots { return slots }
                let built = Storage.buildPatchSlots(patches: patches, quads: quads, steps: steps)
                slots = built
                return built
            }
        }

        static func buildPatchSlots(patches: RegularPatchTable?, quads: [Int32], steps: Int) -> [Int32] {
            guard let table = patches, steps > 0 else { return [] }
            let n = 1 << steps, size = (n + 1) * (n + 1)
            let count = table.faces.count * size
            return [Int32](unsafeUninitializedCapacity: count) { buffer, initialized in
                initialized = 0
                quads.withUnsafeBufferPointer { q in
                    guard let corners = q.baseAddress, let out = buffer.baseAddress else { return }
                    for k in table.faces.indices {
                        PatchKernel.gridSlots(face: Int(table.faces[k]), owns: table.owns[k], n: n, quads: corners, into: out + k * size)
                    }
                    initialized = count
                }
            }
        }

        var refinement: [StencilTable] { builtTables.refinement }
        var limit: LimitStencilTable? { builtTables.limit }
        var final: TopologyLevel { builtTables.final }

        private var builtTables: Tables {
            tables.withLock { tables in
                if let tables { return tables }
                let built = Storage.buildTables(control: control, steps: steps)
                tables = built
                return built
            }
        }

        static func buildTables(control: TopologyLevel, steps: Int) -> Tables {
            var level = control
            var refinement: [StencilTable] = []
            for _ in 0..<steps {
                refinement.append(level.refinementStencils())
                level = level.refined()
            }
            return Tables(refinement: refinement, limit: steps > 0 ? LimitStencilTable(level: level) : nil, final: level)
        }
    }

    /// The largest number of steps a plan is built for; a guard against requests that would
    /// exhaust memory before any triangle budget is even consulted.
    public static let maximumSteps = 12

    /// Refines `topology` `steps` times. Throws `.limitExceeded` above ``maximumSteps`` or when the
    /// refined mesh would have more than `maximumQuads` sub-quads; nothing is allocated first.
    public init(topology: SurfaceTopology, steps: Int, maximumQuads: Int = 10_000_000) throws {
        guard steps >= 0, steps <= SubdivisionPlan.maximumSteps else {
            throw MeshError(
                .limitExceeded, path: "subdivisionSteps",
                "\(steps) steps is outside 0…\(SubdivisionPlan.maximumSteps)")
        }
        let (quadCount, overflow) = topology.faceCount.multipliedReportingOverflow(by: 1 << (2 * steps))
        guard !overflow, quadCount <= maximumQuads else {
            throw MeshError(
                .limitExceeded, path: "subdivisionSteps",
                "\(steps) steps on \(topology.faceCount) faces would make \(overflow ? "over \(Int.max)" : "\(quadCount)") sub-quads (the limit is \(maximumQuads))"
            )
        }
        self.steps = steps
        let patches = steps > 0 ? RegularPatchTable(level: topology.level) : nil
        let lazyTables = patches?.coversEverything ?? false
        var level = topology.level
        var tables: [StencilTable] = []
        for _ in 0..<steps {
            if !lazyTables { tables.append(level.refinementStencils()) }
            level = level.refined()
        }
        let limit = steps > 0 && !lazyTables ? LimitStencilTable(level: level) : nil
        let (quads, quadFaces) = SubdivisionPlan.quadOrder(level: level, controlFaces: topology.faceCount, steps: steps)
        let isolated = (0..<topology.vertexCount).reduce(0) {
            $0 + (topology.level.vertexFaceOffsets[$1 + 1] == topology.level.vertexFaceOffsets[$1] ? 1 : 0)
        }
        storage = Storage(
            control: topology.level, tables: lazyTables ? nil : Storage.Tables(refinement: tables, limit: limit, final: level),
            pointCount: level.vertexCount, steps: steps, quads: quads, quadFaces: quadFaces, isolated: isolated, patches: patches)
    }

    /// Control vertices the plan expects.
    public var controlVertexCount: Int { storage.control.vertexCount }
    /// Control faces.
    public var controlFaceCount: Int { storage.control.faceCount }
    /// Sub-quads along each side of a control face: 2ⁿ.
    public var resolution: Int { 1 << steps }
    /// Surface points an evaluation produces (all vertices of the refined mesh).
    public var pointCount: Int { storage.pointCount }
    /// Sub-quads in all.
    public var quadCount: Int { storage.quads.count / 4 }
    /// Control vertices that no face uses; their refined copies are surface points no quad uses.
    public var isolatedVertexCount: Int { storage.isolatedVertexCount }

    /// The corners of sub-quad `q` (top-left, top-right, bottom-right, bottom-left), as indices
    /// into the evaluated points. Sub-quads are ordered by control face, then row, then column.
    public func quad(_ q: Int) -> SIMD4<Int32> {
        let b = 4 * q
        return SIMD4(storage.quads[b], storage.quads[b + 1], storage.quads[b + 2], storage.quads[b + 3])
    }

    /// All sub-quad corners, four per quad.
    public var quadCorners: [Int32] { storage.quads }

    /// The control face sub-quad `q` lies in.
    public func controlFace(ofQuad q: Int) -> Int { q >> (2 * steps) }
}

extension SubdivisionPlan {
    /// Final-level faces reordered by (control face, row, column), with their corners.
    static func quadOrder(level: TopologyLevel, controlFaces: Int, steps: Int) -> ([Int32], [Int32]) {
        let n = 1 << steps
        let perFace = n * n
        // Offset within a control face's block of leaves for sub-quad (i, j): digits per level, most
        // significant first; quadrant 0 = (0,0), 1 = (1,0), 2 = (1,1), 3 = (0,1).
        var local = [Int32](repeating: 0, count: perFace)
        for j in 0..<n {
            for i in 0..<n {
                var index = 0
                for bit in stride(from: steps - 1, through: 0, by: -1) {
                    let bi = (i >> bit) & 1, bj = (j >> bit) & 1
                    let q = bj == 0 ? bi : (bi == 1 ? 2 : 3)
                    index = index * 4 + q
                }
                local[j * n + i] = Int32(index)
            }
        }
        var quads = [Int32](repeating: 0, count: 4 * controlFaces * perFace)
        var faces = [Int32](repeating: 0, count: controlFaces * perFace)
        level.faceVertices.withUnsafeBufferPointer { fv in
            for f in 0..<controlFaces {
                for s in 0..<perFace {
                    let leaf = f * perFace + Int(local[s])
                    let out = f * perFace + s
                    faces[out] = Int32(leaf)
                    for k in 0..<4 { quads[4 * out + k] = fv[4 * leaf + k] }
                }
            }
        }
        return (quads, faces)
    }
}
