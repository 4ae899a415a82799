/// Feature-adaptive isolation of one irregular vertex: the faces around it, cut into B-spline
/// pieces that grow smaller toward the vertex, and one small corner piece per face that holds the
/// vertex itself.
///
/// Refining once turns every sub-face that does not touch an irregular vertex into a regular one,
/// whose limit surface is a bicubic B-spline patch of its 4 × 4 neighbourhood. So after ℓ levels,
/// the part of a face near the vertex is the corner square of side 2⁻ˡ, and the three other
/// children of each earlier corner square are patches. Each level refines only what the next
/// needs: the children of the faces around the vertex (the first level also needs the faces
/// around those, for the vertex points of their corners).
///
/// The corner square has no patch. Every Catmull–Clark rule here (face, edge, smooth and boundary
/// vertex points, with positive weights) is a convex combination, so the limit surface over the
/// corner square lies in the convex hull of the control points of the faces that share a vertex
/// with it. A triangle whose corners are surface points of the square lies in that hull too, so
/// the largest distance between two of those control points bounds how far any such triangle is
/// from the surface point with the same parameters: ``IsolatedCell/bound``. Refining stops at the
/// first level where every corner square's bound is within the tolerance; the bound shrinks by the
/// sub-dominant eigenvalue of the subdivision matrix at the vertex per level (about 0.4 at valence
/// 3, 0.64 at valence 12, ½ on a boundary).
public struct VertexIsolation: Equatable, Sendable {
    /// The isolated control vertex.
    public var vertex: Int
    /// The level of its corner squares: side 2⁻ᵈᵉᵖᵗʰ of their face.
    public var depth: Int
    /// The pieces, for every face around the vertex: B-spline patches at levels 1 up to the level
    /// of its corner region, and that region: a corner square at `depth` drawn as a fan, or a
    /// larger square drawn as nested rings down to `depth` (``IsolatedCell/rings``). The level-1 patches at a face's regular corners come with the
    /// face's first irregular corner, so every piece of a face is listed once over all isolations.
    public var cells: [IsolatedCell]
    /// The limit point at the vertex: `from`, unit `to`, and the unit normal in points space.
    public var limitFrom: LayerPoint
    public var limitTo: Point3D
    public var limitNormal: Point3D
}

/// A square piece of a control face: side 2⁻ˡᵉᵛᵉˡ at `origin` in the face's (u, v).
public struct IsolatedCell: Equatable, Sendable {
    public var face: Int
    public var level: Int
    public var origin: SIMD2<Double>
    /// The B-spline patch over the piece, its (s, t) ∈ [0, 1]² at `origin + (s, t)·2⁻ˡᵉᵛᵉˡ`; `nil`
    /// for the corner square at the isolated vertex.
    public var patch: RationalPatch?
    /// The corner (0…3) of the face at the isolated vertex.
    public var corner: Int
    /// For the corner square: the proven bound, in points, on the distance of its fan from the
    /// surface (``CornerContinuation``), for a fan to any surface points on its far sides (0 for
    /// patches).
    public var bound: Double
    /// For the corner square: the surface below it, which the bound was proven on.
    public var continuation: CornerContinuation?
    /// For a corner region drawn as rings: the levels of the nested corner squares inside it
    /// (increasing, the last one the innermost fan's), empty for a plain fan.
    public var rings: [Int] = []
    /// For each level of `rings`, the segments on each of that square's two far sides
    /// (``RingTriangulation``).
    public var ringRates: [Int] = []
    /// For each level of `rings`, the surface samples of that square's chain (2n + 1 of them, n
    /// its rate: from its corner k + 1 round k + 2 to k + 3, k = `corner`), which the rings join.
    public var ringSamples: [RingSample] = []
    /// For a corner region drawn as rings: the segments it asks for on each far side (its bound
    /// holds for multiples of it); 1 for a plain fan.
    public var farRate = 1

    public var size: Double { Double(sign: .plus, exponent: -level, significand: 1) }
}

/// A surface sample of a corner region's ring: the point with its `from` and unit normal.
public struct RingSample: Equatable, Sendable {
    public var from: LayerPoint
    public var to: Point3D
    /// Unit normal in points space.
    public var normal: Point3D
}

extension FaceSurfaces {
    /// Refinement below the triangles goes on until the last corner squares' hulls are this share of
    /// the tolerance, so that the hull (the loosest part of a corner square's bound) costs little
    /// of it; these levels make no triangles, only patches to bound the surface with.
    static let tailShare = 0.125

    /// The deepest isolation: pieces of side 2⁻⁴⁰ are far below any tolerance a layer can ask for.
    public static let maximumIsolationDepth = 40

    /// Whether the faces at vertex `v` are not B-spline patches because of it (interior valence
    /// other than 4, a boundary vertex with other than two faces, a non-manifold vertex). A vertex
    /// no face uses is not.
    public func isIrregular(vertex v: Int) -> Bool {
        guard v >= 0, v < vertexCount else { return false }
        let level = topology.level
        guard level.vertexFaceOffsets[v + 1] > level.vertexFaceOffsets[v] else { return false }
        return !level.isRegularCorner(v)
    }

    /// Isolates vertex `a` until every corner square's bound is within `tolerance` points, for
    /// homogeneous control values `control` (``homogeneous(vertices:weights:)``). Throws
    /// `.limitExceeded` when ``maximumIsolationDepth`` levels do not reach it. A corner region's
    /// far-side rate is counted as if the pieces beyond needed one segment each.
    public func isolate(
        vertex a: Int, control: [SIMD8<Double>], pointScale: SIMD3<Double>, tolerance: Double
    ) throws -> VertexIsolation {
        try isolate(vertex: a, control: control, pointScale: pointScale, tolerance: tolerance, farNeeds: nil)
    }

    /// Isolates vertex `a` as ``isolate(vertex:control:pointScale:tolerance:)`` does, with
    /// `farNeeds`: for corner regions of level `top`, the segments the pieces beyond each face's
    /// two far sides need (by face), so that the region's far-side rate is counted at what it
    /// adds to them (``farCost(_:needs:)``); nil counts them as needing one each.
    package func isolate(
        vertex a: Int, control: [SIMD8<Double>], pointScale: SIMD3<Double>, tolerance: Double,
        farNeeds: (top: Int, needs: [Int: SIMD2<Int>])?
    ) throws -> VertexIsolation {
        let level = topology.level
        guard a >= 0, a < vertexCount, control.count == vertexCount else {
            throw MeshError(.incompatible, path: "vertices", "vertex \(a) is not one of the \(vertexCount) the surface has")
        }
        let star = (Int(level.vertexFaceOffsets[a])..<Int(level.vertexFaceOffsets[a + 1])).map { Int(level.vertexFaces[$0]) }
        // The first local mesh: the faces around `a`, then every face sharing a vertex with them.
        var faces = star
        var seen = Set(star)
        for g in star {
            for k in 0..<4 {
                let v = Int(level.faceVertices[4 * g + k])
                for slot in Int(level.vertexFaceOffsets[v])..<Int(level.vertexFaceOffsets[v + 1]) {
                    let h = Int(level.vertexFaces[slot])
                    if seen.insert(h).inserted { faces.append(h) }
                }
            }
        }
        var mesh = try IsolationNeighbourhood(
            faces: faces.map { g in (0..<4).map { Int(level.faceVertices[4 * g + $0]) } }, values: control)
        guard var localA = mesh.localIndex[a] else {
            throw MeshError(.incompatible, path: "vertices", "vertex \(a) has no face")
        }
        // Each face around `a`: its corner at `a`, whether its regular corners' level-1 children
        // come with this vertex (it is the face's first irregular corner), and its local face (at
        // level ℓ, its corner square of level ℓ; the faces of `star` come first in `faces`).
        struct Tracked {
            var face: Int
            var corner: Int
            var local: Int
            var firstLevelChildren: [Bool]
        }
        var tracked: [Tracked] = star.enumerated().map { i, g in
            let corner = level.corner(of: Int32(a), inFace: g)
            let regular = (0..<4).map { level.isRegularCorner(Int(level.faceVertices[4 * g + $0])) }
            let first = regular.firstIndex(of: false) ?? corner
            return Tracked(face: g, corner: corner, local: i, firstLevelChildren: regular.map { $0 && first == corner })
        }
        // Refine until every corner square's hull is within the tolerance (level `hullDepth`),
        // keeping each level's patches around the corner squares.
        var levels: [[[RationalPatch?]]] = []
        var hullPoints: [[Point3D]] = []
        var limitPoint: (LayerPoint, Point3D, Point3D)?
        for depth in 1...FaceSurfaces.maximumIsolationDepth {
            let values = mesh.level.refinementStencils().apply(mesh.values)
            let refined = mesh.level.refined()
            var patches: [[RationalPatch?]] = []
            var worst = 0.0
            hullPoints = []
            for t in tracked {
                patches.append(
                    (0..<4).map { q in q == t.corner ? nil : FaceSurfaces.patch(ofFace: 4 * t.local + q, in: refined, values: values) })
                let points = FaceSurfaces.hullPoints(ofFace: 4 * t.local + t.corner, in: refined, values: values, scale: pointScale)
                worst = max(worst, FaceSurfaces.diameter(points))
                hullPoints.append(points)
            }
            levels.append(patches)
            if worst <= tolerance * FaceSurfaces.tailShare {
                let limit = LimitStencilTable(level: refined)
                let vertex = localA
                limitPoint = values.withUnsafeBufferPointer { data in
                    limit.withView { view in
                        if let frame = view.frame(at: vertex, data: data) {
                            return SubdivisionPlan.rational(frame, scale: pointScale)
                        }
                        return SubdivisionPlan.pinnedVertex(vertex, limit: limit, data: data, scale: pointScale)
                    }
                }
                break
            }
            guard worst.isFinite, depth < FaceSurfaces.maximumIsolationDepth else { break }
            // The next local mesh: the children of the corner squares. They hold every vertex the
            // next level's patches and corner squares use with all its faces (refinement keeps a
            // parent vertex's index, so `a` is found again by its index here).
            var childFaces: [[Int]] = []
            childFaces.reserveCapacity(4 * tracked.count)
            for (i, t) in tracked.enumerated() {
                for q in 0..<4 {
                    let child = 4 * t.local + q
                    childFaces.append((0..<4).map { Int(refined.faceVertices[4 * child + $0]) })
                }
                tracked[i].local = 4 * i + t.corner
            }
            mesh = try IsolationNeighbourhood(faces: childFaces, values: values)
            guard let next = mesh.localIndex[localA] else { break }
            localA = next
        }
        guard let limitPoint else { throw FaceSurfaces.depthError(vertex: a, tolerance: tolerance) }
        let hullDepth = levels.count
        let limit = limitPoint.1 * pointScale
        // The shallowest level whose corner squares' fans are proven within the tolerance, with
        // the levels below it as their continuation (at `hullDepth` that is the hull alone).
        func continuation(face i: Int, depth: Int) -> CornerContinuation {
            let q = tracked[i].corner
            var regions: [CornerContinuation.Region] = []
            for level in (depth + 1)...max(depth + 1, hullDepth) where level <= hullDepth {
                let relative = level - depth
                let size = Double(sign: .plus, exponent: -relative, significand: 1)
                let parentOrigin = FaceSurfaces.cornerOrigin(q, level: relative - 1)
                for j in 0..<4 where j != q {
                    guard let patch = levels[level - 1][i][j] else { continue }
                    regions.append(.init(origin: parentOrigin + UnitSquare.corner(j) * size, size: size, patch: patch))
                }
            }
            let siblings = levels[depth - 1][i]
            let farSides: [(patch: RationalPatch, side: Int)?] = [
                siblings[(q + 1) % 4].map { ($0, (q + 3) % 4) }, siblings[(q + 3) % 4].map { ($0, q) },
            ]
            return CornerContinuation(
                regions: regions, tail: hullPoints[i], tailSize: Double(sign: .plus, exponent: -(hullDepth - depth), significand: 1),
                farSides: farSides)
        }
        /// The surface points of the corner square's other corners (k + 1, k + 2, k + 3): corner k
        /// of each sibling.
        func fanCorners(face i: Int, depth: Int) -> [Point3D]? {
            let q = tracked[i].corner
            var corners: [Point3D] = []
            for j in 1...3 {
                guard let patch = levels[depth - 1][i][(q + j) % 4] else { return nil }
                let uv = UnitSquare.corner(q)
                corners.append(patch.evaluate(u: uv.x, v: uv.y).to * pointScale)
            }
            return corners
        }
        var chosen = hullDepth
        var bounds = [Double](repeating: 0, count: tracked.count)
        var continuations: [CornerContinuation] = []
        search: for depth in 1...hullDepth {
            var found: [Double] = [], kept: [CornerContinuation] = []
            for i in tracked.indices {
                guard let corners = fanCorners(face: i, depth: depth) else { continue search }
                let c = continuation(face: i, depth: depth)
                let bound = c.bound(
                    corner: tracked[i].corner, limit: limit, corners: corners, scale: pointScale, target: tolerance / 2, giveUp: tolerance)
                guard bound <= tolerance else { continue search }
                found.append(bound)
                kept.append(c)
            }
            chosen = depth
            bounds = found
            continuations = kept
            break
        }
        guard continuations.count == tracked.count else { throw FaceSurfaces.depthError(vertex: a, tolerance: tolerance) }
        // Corner regions drawn as rings, where they are proven within the tolerance and cost
        // fewer triangles than the pieces they replace (``FaceSurfaces/ringCost(_:)``).
        /// Sample p of the chain of face i's corner square of level ℓ with n segments on each far
        /// side: its far sides are sides of the siblings k + 1 and k + 3, which run them the other
        /// way (fraction f from corner k + 1 is 1 − f along the sibling's side).
        func chainSample(face i: Int, level: Int, _ p: Int, rate n: Int) -> PatchPoint? {
            let q = tracked[i].corner
            let first = p < n
            guard level >= 1, level <= levels.count, let patch = levels[level - 1][i][(q + (first ? 1 : 3)) % 4] else { return nil }
            let f = Double(first ? p : p - n) / Double(n)
            let uv = UnitSquare.side(first ? (q + 3) % 4 : q, 1 - f)
            return patch.evaluate(u: uv.x, v: uv.y)
        }
        var chains: [SIMD3<Int>: [Point3D]?] = [:]
        func chain(_ i: Int, _ level: Int, _ n: Int) -> [Point3D]? {
            let key = SIMD3(i, level, n)
            if let known = chains[key] { return known }
            var points: [Point3D]? = []
            for p in 0...(2 * n) {
                guard let s = chainSample(face: i, level: level, p, rate: n) else {
                    points = nil
                    break
                }
                points?.append(s.to * pointScale)
            }
            chains[key] = points
            return points
        }
        var region: RingSchedule?
        if chosen > 1 {
            var cheapest = FaceSurfaces.pieceCost(levels: chosen)
            for top in 1..<chosen where FaceSurfaces.pieceCost(levels: top) + FaceSurfaces.leastRingCost < cheapest {
                let continuations = tracked.indices.map { continuation(face: $0, depth: top) }
                // What the pieces beyond each face's far sides need, where the caller measured it
                // for regions of this level.
                let needs = top == farNeeds?.top ? tracked.compactMap { farNeeds?.needs[$0.face] } : []
                if let found = FaceSurfaces.ringSchedule(
                    top: top, fanDepth: chosen, corners: tracked.map(\.corner), chain: chain, continuations: continuations,
                    limit: limit, scale: pointScale, tolerance: tolerance, budget: cheapest - FaceSurfaces.pieceCost(levels: top) + 2,
                    farNeeds: needs.count == tracked.count ? needs : [])
                {
                    region = found
                    cheapest = FaceSurfaces.ringCost(found)
                }
            }
        }
        let regionLevel = region?.top ?? chosen
        var cells: [IsolatedCell] = []
        for depth in 1...regionLevel {
            let size = Double(sign: .plus, exponent: -depth, significand: 1)
            for (i, t) in tracked.enumerated() {
                let parentOrigin = FaceSurfaces.cornerOrigin(t.corner, level: depth - 1)
                for q in 0..<4 where q != t.corner {
                    // Level 1: a face's children at its regular corners come once, with its first
                    // irregular corner; children at other irregular corners come with theirs.
                    if depth == 1, !t.firstLevelChildren[q] { continue }
                    guard let patch = levels[depth - 1][i][q] else {
                        throw MeshError(
                            .unsupported, path: "faces[\(t.face)]",
                            "a piece of this face at refinement level \(depth) next to vertex \(a) is not a B-spline patch")
                    }
                    cells.append(
                        IsolatedCell(
                            face: t.face, level: depth, origin: parentOrigin + UnitSquare.corner(q) * size, patch: patch,
                            corner: t.corner, bound: 0, continuation: nil))
                }
            }
        }
        for (i, t) in tracked.enumerated() {
            guard let region else {
                cells.append(
                    IsolatedCell(
                        face: t.face, level: chosen, origin: FaceSurfaces.cornerOrigin(t.corner, level: chosen), patch: nil,
                        corner: t.corner, bound: bounds[i], continuation: continuations[i]))
                continue
            }
            var samples: [RingSample] = []
            for (depth, n) in zip(region.rings, region.rates) {
                for p in 0...(2 * n) {
                    guard let s = chainSample(face: i, level: depth, p, rate: n) else {
                        throw FaceSurfaces.depthError(vertex: a, tolerance: tolerance)
                    }
                    samples.append(RingSample(from: s.from, to: s.to, normal: (s.toU * pointScale).cross(s.toV * pointScale).normalized()))
                }
            }
            cells.append(
                IsolatedCell(
                    face: t.face, level: region.top, origin: FaceSurfaces.cornerOrigin(t.corner, level: region.top), patch: nil,
                    corner: t.corner, bound: region.bounds[i], continuation: continuation(face: i, depth: region.top), rings: region.rings,
                    ringRates: region.rates, ringSamples: samples, farRate: region.farRate))
        }
        return VertexIsolation(
            vertex: a, depth: chosen, cells: cells, limitFrom: limitPoint.0, limitTo: limitPoint.1,
            limitNormal: limitPoint.2)
    }

    static func depthError(vertex a: Int, tolerance: Double) -> MeshError {
        MeshError(
            .limitExceeded, path: "vertices[\(a)]",
            "a tolerance of \(tolerance) points is not met within \(maximumIsolationDepth) levels of refinement around this vertex")
    }

    /// Where the corner square of level ℓ at corner k starts: corner k of the face, pulled in by 2⁻ˡ.
    static func cornerOrigin(_ k: Int, level: Int) -> SIMD2<Double> {
        let far = 1 - Double(sign: .plus, exponent: -level, significand: 1)
        return UnitSquare.corner(k) * far
    }

    /// The B-spline patch of face `g` of a local level, or `nil` when it is not regular there.
    static func patch(ofFace g: Int, in level: TopologyLevel, values: [SIMD8<Double>]) -> RationalPatch? {
        guard let indices = level.regularNeighbourhood(ofFace: g) else { return nil }
        var c = indices.map { $0 >= 0 ? values[Int($0)] : SIMD8<Double>() }
        TopologyLevel.fillPhantoms(&c, indices: indices)
        return RationalPatch(control: c)
    }

    /// The points-space control points of the faces sharing a vertex with face `g`: their convex
    /// hull holds the limit surface over `g`.
    static func hullPoints(ofFace g: Int, in level: TopologyLevel, values: [SIMD8<Double>], scale: SIMD3<Double>) -> [Point3D] {
        var indices = Set<Int32>()
        for k in 0..<4 {
            let v = Int(level.faceVertices[4 * g + k])
            for slot in Int(level.vertexFaceOffsets[v])..<Int(level.vertexFaceOffsets[v + 1]) {
                let h = Int(level.vertexFaces[slot])
                for j in 0..<4 { indices.insert(level.faceVertices[4 * h + j]) }
            }
        }
        return indices.sorted().map { i -> Point3D in
            let p = values[Int(i)]
            return SIMD3(p[2], p[3], p[4]) / p[5] * scale
        }
    }

    /// The largest distance between two of the points.
    static func diameter(_ points: [Point3D]) -> Double {
        var worst = 0.0
        for i in points.indices {
            for j in points.indices where j > i {
                let d = points[i] - points[j]
                worst = max(worst, (d * d).sum())
            }
        }
        return worst.squareRoot()
    }
}

/// A few faces cut out of a level with their homogeneous values, renumbered from 0.
struct IsolationNeighbourhood {
    var level: TopologyLevel
    var values: [SIMD8<Double>]
    /// The local index of each vertex of the source it came from.
    var localIndex: [Int: Int]

    init(faces: [[Int]], values source: [SIMD8<Double>]) throws {
        var localIndex: [Int: Int] = [:]
        var values: [SIMD8<Double>] = []
        var meshFaces: [MeshFace] = []
        meshFaces.reserveCapacity(faces.count)
        for corners in faces {
            var indices = SIMD4<Int>()
            for k in 0..<4 {
                let v = corners[k]
                if let i = localIndex[v] {
                    indices[k] = i
                } else {
                    indices[k] = values.count
                    localIndex[v] = values.count
                    values.append(source[v])
                }
            }
            meshFaces.append(MeshFace(indices: indices))
        }
        level = try SurfaceTopology(faces: meshFaces, vertexCount: values.count).level
        self.values = values
        self.localIndex = localIndex
    }
}

extension TopologyLevel {
    /// Whether the faces at vertex v can be B-spline patches as far as v goes: interior of
    /// valence 4, a boundary vertex with two faces, or the corner of a single face.
    func isRegularCorner(_ v: Int) -> Bool {
        let faces = Int(vertexFaceOffsets[v + 1] - vertexFaceOffsets[v])
        var scratch: [Int32] = []
        switch vertexRule(v, scratch: &scratch) {
        case .smooth(let n) where n == 4: return true
        case .crease where faces == 2: return true
        case .corner where faces == 1 && vertexEdgeOffsets[v + 1] - vertexEdgeOffsets[v] == 2: return true
        default: return false
        }
    }
}
