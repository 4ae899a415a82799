import SurfaceKit

/// Where every sample and triangle of an adaptive tessellation goes, counted before anything is
/// allocated for the output (so the budget refuses first).
///
/// The corners of the cells are the nodes, and a node is one output vertex however many cells
/// share it (a control vertex, a point on a control edge, or a point inside a face). Each side of a
/// cell is the chain of nodes on it, so a big cell next to smaller ones has their corners on its
/// side; between two nodes is a segment, which both cells along it sample the same way, at the
/// larger rate they ask for. So no side has a T-junction and every interior edge of the output is
/// used by exactly two triangles.
///
/// Output vertices come in three blocks: the nodes, the inner samples of each segment (from its
/// lower node to its higher), and each cell's interior grid with the centres of its interior
/// quads when the diagonal policy needs them. Triangles go cell by cell.
struct AdaptiveLayout: Sendable {
    /// How a cell is triangulated.
    enum Kind: UInt8, Sendable {
        /// One quad, split by the diagonal policy.
        case single
        /// One row of cells: the bottom side's samples joined to the top side's.
        case rowStrip
        /// One column: the left side's samples joined to the right side's.
        case columnStrip
        /// Strips along u: lines at v = j/nv (its left and right sides carry exactly those
        /// samples), the inner lines at u = i/nu with nu the larger of its bottom's and top's
        /// rates, or the cell's own interior's (``CellRates/InteriorShape/rows``). A strip
        /// between two lines sampled alike is nu squares split by the diagonal policy; the
        /// first or last strip joins a side sampled otherwise by a zipper.
        case rows
        /// The same with u and v exchanged: lines at u = i/nu, strips along v.
        case columns
        /// An interior grid of nu × nv cells (at least 2 × 2) and a ring joining it to the sides.
        case ring
        /// A corner square at an irregular vertex: a fan from that corner to the other two sides.
        case fan
    }

    /// Dyadic coordinates: a face's (u, v) times 2⁴⁸, exact for pieces down to 2⁻⁴⁸ wide.
    static let unit: Int64 = 1 << 48

    /// What a node's surface point is taken from.
    enum NodeSource: Sendable, Equatable {
        case pending
        /// Corner k of a cell's patch.
        case patch(cell: Int32, corner: UInt8)
        /// The limit point of an isolated vertex.
        case limit(isolation: Int32)
        /// A corner of a ring inside a corner region (``AdaptiveCell/ringSamples``).
        case ring(cell: Int32, point: Int32)
    }

    struct Segment: Sendable {
        /// Its nodes, a < b.
        var a: Int32
        var b: Int32
        var rate: Int
        /// A patch cell along it and its side there, with the side fractions at a and at b.
        var cell: Int32
        var side: UInt8
        var fractionA: Double
        var fractionB: Double
        /// Output index of its first inner sample.
        var base: Int
    }

    /// One segment of a cell's side, in the side's direction (from corner k to k + 1).
    struct Piece: Sendable {
        var segment: Int32
        var start: Double
        var end: Double
    }

    var kind: [Kind]
    var nu: [Int]
    var nv: [Int]
    var nodes: [NodeSource]
    var segments: [Segment]
    /// Cell c's side k is `pieces[sideStart[4c + k]..<sideStart[4c + k + 1]]`.
    var pieces: [Piece]
    var sideStart: [Int]
    var cornerNodes: [SIMD4<Int32>]
    /// A corner region's ring chains: cell c's are `ringNodes[ringStart[c]..<ringStart[c + 1]]`,
    /// 2n + 1 per ring square of rate n (``RingTriangulation/position(_:rate:)``).
    var ringNodes: [Int32] = []
    var ringStart: [Int] = []
    /// Per ring square, its level below its region's and its rate (its chain is 2n + 1 entries
    /// of `ringNodes`): cell c's are `ringSquareStart[c]..<ringSquareStart[c + 1]`, the first of
    /// them the region itself (depth 0, its far-side rate, no entries in `ringNodes`).
    var ringDepths: [Int] = []
    var ringRates: [Int] = []
    var ringSquareStart: [Int] = []
    var gridBase: [Int]
    /// For `rows` and `columns`: ``Strips/flags``, which of the first and last strips are squares.
    var stripQuads: [UInt8]
    var centerBase: [Int]
    var triangleBase: [Int]
    var vertexCount: Int
    var triangleCount: Int
    /// The fewest and most segments along a side of a control face, over whole faces and each
    /// face's largest patch pieces (deeper pieces only close in on irregular vertices).
    var smallestRate: Int
    var largestRate: Int

    init(
        surfaces: FaceSurfaces, cells: [AdaptiveCell], isolationOfVertex: [Int: Int32], rates: CellRates,
        policy: DiagonalPolicy, maximumTriangles: Int
    ) throws {
        let n = AdaptiveLayout.unit
        let cellCount = cells.count
        // Nodes: every cell corner, keyed where it lies.
        var nodeIndex = NodeTable(vertexCount: surfaces.vertexCount)
        var nodes: [NodeSource] = []
        nodes.reserveCapacity(cellCount + 16)
        var cornerNodes = [SIMD4<Int32>](repeating: .zero, count: cellCount)
        // Per control edge and per face, the nodes on it and inside it (pieces only); and which
        // edges and faces have any.
        var edgeBreaks = [[Int64]](repeating: [], count: surfaces.edgeCount)
        var faceInner = [[SIMD2<Int64>]](repeating: [], count: surfaces.faceCount)
        var brokenEdges: [Int] = [], facesWithInner: [Int] = []
        for c in 0..<cellCount {
            let cell = CellPlace(cells[c])
            for k in 0..<4 {
                let p = AdaptiveLayout.corner(k, of: cell)
                let key = AdaptiveLayout.key(face: cell.face, p, surfaces: surfaces)
                switch key.kind {
                case .edge:
                    if edgeBreaks[Int(key.a)].isEmpty { brokenEdges.append(Int(key.a)) }
                    edgeBreaks[Int(key.a)].append(key.b)
                case .face:
                    if faceInner[cell.face].isEmpty { facesWithInner.append(cell.face) }
                    faceInner[cell.face].append(p)
                case .vertex: break
                }
                let source: NodeSource
                if cell.isPatch {
                    source = .patch(cell: Int32(c), corner: UInt8(k))
                } else if k == cell.fanCorner, key.kind == .vertex, let i = isolationOfVertex[Int(key.a)] {
                    source = .limit(isolation: i)
                } else {
                    source = .pending
                }
                if let i = nodeIndex[key] {
                    cornerNodes[c][k] = i
                    if nodes[Int(i)] == .pending { nodes[Int(i)] = source }
                } else {
                    let i = Int32(truncatingIfNeeded: nodes.count)
                    nodeIndex[key] = i
                    nodes.append(source)
                    cornerNodes[c][k] = i
                }
            }
        }
        // The rings' chains: their ends lie on the face's sides and are keyed there, so two
        // regions along a control edge share them; the other samples are the cell's own.
        var ringNodes: [Int32] = []
        var ringDepths: [Int] = []
        var ringRates: [Int] = []
        var ringStart = [Int](repeating: 0, count: cellCount + 1)
        var ringSquareStart = [Int](repeating: 0, count: cellCount + 1)
        for c in 0..<cellCount {
            ringStart[c] = ringNodes.count
            ringSquareStart[c] = ringDepths.count
            guard !cells[c].rings.isEmpty else { continue }
            let cell = cells[c]
            ringDepths.append(0)
            ringRates.append(cell.farRate)
            guard cell.ringRates.count == cell.rings.count else {
                throw MeshError(.unsupported, path: "faces[\(cell.face)]", "a corner region's rings have no rates")
            }
            let k = cell.fanCorner
            let p0 = AdaptiveLayout.corner(k, of: cell)
            var sample = 0
            for (level, n) in zip(cell.rings, cell.ringRates) {
                let shift = Int64(level - cell.level)
                ringDepths.append(level - cell.level)
                ringRates.append(n)
                for p in 0...(2 * n) {
                    defer { sample += 1 }
                    guard p == 0 || p == 2 * n else {
                        ringNodes.append(Int32(truncatingIfNeeded: nodes.count))
                        nodes.append(.ring(cell: Int32(c), point: Int32(sample)))
                        continue
                    }
                    let j = p == 0 ? 1 : 3
                    let q = p0 &+ ((AdaptiveLayout.corner((k + j) % 4, of: cell) &- p0) / SIMD2(repeating: 1 << shift))
                    let key = AdaptiveLayout.key(face: cell.face, q, surfaces: surfaces)
                    if let i = nodeIndex[key] {
                        ringNodes.append(i)
                    } else {
                        let i = Int32(truncatingIfNeeded: nodes.count)
                        nodeIndex[key] = i
                        nodes.append(.ring(cell: Int32(c), point: Int32(sample)))
                        ringNodes.append(i)
                    }
                }
            }
        }
        ringStart[cellCount] = ringNodes.count
        ringSquareStart[cellCount] = ringDepths.count
        self.ringSquareStart = ringSquareStart
        self.ringNodes = ringNodes
        self.ringStart = ringStart
        self.ringDepths = ringDepths
        self.ringRates = ringRates
        guard !nodes.contains(.pending) else {
            throw MeshError(.unsupported, path: "faces", "a corner of a piece next to an irregular vertex has no surface to sample")
        }
        for e in brokenEdges { edgeBreaks[e] = Array(Set(edgeBreaks[e])).sorted() }
        for f in facesWithInner { faceInner[f] = Array(Set(faceInner[f])).sorted { ($0.y, $0.x) < ($1.y, $1.x) } }
        // Sides: the chain of nodes along each, split into segments that take the larger rate.
        var segmentIndex = SegmentTable(nodeCount: nodes.count, segmentCapacity: 2 * cellCount + 16)
        var segments: [Segment] = []
        segments.reserveCapacity(2 * cellCount + 16)
        // Kept across sides, so a side allocates nothing.
        var inner: [(Int64, SIMD2<Int64>)] = []
        var chain: [(Int32, Double)] = []
        var pieces: [Piece] = []
        pieces.reserveCapacity(4 * cellCount)
        var sideStart = [Int](repeating: 0, count: 4 * cellCount + 1)
        for c in 0..<cellCount {
            let cell = CellPlace(cells[c])
            let f = cell.face
            let corners = surfaces.corners(ofFace: f), edges = surfaces.edges(ofFace: f)
            for k in 0..<4 {
                sideStart[4 * c + k] = pieces.count
                let p0 = AdaptiveLayout.corner(k, of: cell), p1 = AdaptiveLayout.corner((k + 1) % 4, of: cell)
                let length = Double(max(abs(p1.x - p0.x), abs(p1.y - p0.y)))
                // Nodes strictly inside the side, by their distance from p0.
                inner.removeAll(keepingCapacity: true)
                func consider(_ q: SIMD2<Int64>) {
                    let lo = pointwiseMin(p0, p1), hi = pointwiseMax(p0, p1)
                    guard q.x >= lo.x, q.x <= hi.x, q.y >= lo.y, q.y <= hi.y, q != p0, q != p1 else { return }
                    inner.append((max(abs(q.x - p0.x), abs(q.y - p0.y)), q))
                }
                if let j = AdaptiveLayout.faceSide(p0, p1) {
                    let e = Int(edges[j])
                    if !edgeBreaks[e].isEmpty {
                        let forward = corners[j] == surfaces.vertices(ofEdge: e).x
                        for t in edgeBreaks[e] { consider(AdaptiveLayout.point(onSide: j, at: forward ? t : n - t)) }
                    }
                } else {
                    for q in faceInner[f] { consider(q) }
                }
                if inner.count > 1 { inner.sort { $0.0 < $1.0 } }
                chain.removeAll(keepingCapacity: true)
                chain.append((cornerNodes[c][k], 0))
                for (distance, q) in inner {
                    guard let i = nodeIndex[AdaptiveLayout.key(face: f, q, surfaces: surfaces)] else { continue }
                    chain.append((i, Double(distance) / length))
                }
                chain.append((cornerNodes[c][(k + 1) % 4], 1))
                let rate = k % 2 == 0 ? rates.u[c] : rates.v[c]
                for i in 0..<(chain.count - 1) {
                    let (a, fa) = chain[i], (b, fb) = chain[i + 1]
                    let key = SIMD2(min(a, b), max(a, b))
                    // The share of the cell's rate this segment covers (a whole side: the rate itself).
                    let share = Double(rate) * (fb - fa)
                    let need = max(1, Int((share - 1e-9).rounded(.up)))
                    let s: Int32
                    if let existing = segmentIndex.find(key.x, key.y, in: segments) {
                        s = existing
                    } else {
                        s = Int32(truncatingIfNeeded: segments.count)
                        segmentIndex.add(s, lower: key.x)
                        segments.append(Segment(a: key.x, b: key.y, rate: 1, cell: -1, side: 0, fractionA: 0, fractionB: 0, base: 0))
                    }
                    // A corner square asks for its own segments on its far sides (k + 1, k + 2).
                    let far = !cell.isPatch && (k == (cell.fanCorner + 1) % 4 || k == (cell.fanCorner + 2) % 4)
                    let asked = cell.isPatch ? need : far ? max(1, Int((Double(cell.farRate) * (fb - fa) - 1e-9).rounded(.up))) : 1
                    segments[Int(s)].rate = max(segments[Int(s)].rate, asked)
                    if cell.isPatch, segments[Int(s)].cell < 0 {
                        segments[Int(s)].cell = Int32(c)
                        segments[Int(s)].side = UInt8(k)
                        segments[Int(s)].fractionA = a < b ? fa : fb
                        segments[Int(s)].fractionB = a < b ? fb : fa
                    }
                    pieces.append(Piece(segment: s, start: fa, end: fb))
                }
            }
        }
        sideStart[4 * cellCount] = pieces.count
        // A segment no patch borders (between corner squares) keeps rate 1: no inner samples.
        for s in segments.indices where segments[s].cell < 0 { segments[s].rate = 1 }
        // A corner region's far sides carry a multiple of its rate, so each of its segments is
        // a fan from one inner sample over finer samples (the bound's allowance covers those).
        for c in 0..<cellCount where !cells[c].rings.isEmpty && cells[c].farRate > 1 {
            let n = cells[c].farRate
            for k in [(cells[c].fanCorner + 1) % 4, (cells[c].fanCorner + 2) % 4] {
                let side = pieces[sideStart[4 * c + k]..<sideStart[4 * c + k + 1]]
                guard side.count == 1, let piece = side.first else {
                    throw MeshError(.unsupported, path: "faces[\(cells[c].face)]", "a corner region's far side is split")
                }
                let rate = segments[Int(piece.segment)].rate
                segments[Int(piece.segment)].rate = (rate + n - 1) / n * n
            }
        }
        self.nodes = nodes
        self.cornerNodes = cornerNodes
        self.pieces = pieces
        self.sideStart = sideStart
        // Counts, then the budget, before any output exists.
        var next = nodes.count
        for s in segments.indices {
            segments[s].base = next
            next += segments[s].rate - 1
        }
        self.segments = segments
        func total(_ c: Int, _ k: Int) -> Int {
            var sum = 0
            for p in pieces[sideStart[4 * c + k]..<sideStart[4 * c + k + 1]] { sum += segments[Int(p.segment)].rate }
            return sum
        }
        func evenlySampled(_ c: Int, _ side: Int, _ n: Int) -> Bool {
            AdaptiveLayout.evenlySampled(pieces[sideStart[4 * c + side]..<sideStart[4 * c + side + 1]], n, segments: segments)
        }
        let perQuad = policy.trianglesPerQuad
        nu = rates.u
        nv = rates.v
        kind = [Kind](repeating: .single, count: cellCount)
        gridBase = [Int](repeating: 0, count: cellCount)
        stripQuads = [UInt8](repeating: 0, count: cellCount)
        centerBase = [Int](repeating: 0, count: cellCount)
        triangleBase = [Int](repeating: 0, count: cellCount + 1)
        var smallest = Int.max, largest = 0
        // Rates are reported per face side from each face's largest pieces (a whole face, or the
        // first level of pieces that are patches); deeper pieces only close in on a vertex.
        var shallowest = [Int](repeating: Int.max, count: surfaces.faceCount)
        for c in 0..<cellCount where cells[c].patch != nil { shallowest[cells[c].face] = min(shallowest[cells[c].face], cells[c].level) }
        var triangles = 0
        for c in 0..<cellCount {
            triangleBase[c] = triangles
            let r = SIMD4(total(c, 0), total(c, 1), total(c, 2), total(c, 3))
            if cells[c].patch == nil {
                kind[c] = .fan
                let k = cells[c].fanCorner
                triangles += r[(k + 1) % 4] + r[(k + 2) % 4]
                // Rings: the far sides' samples each take one, as for a fan; the rest as
                // ``RingTriangulation`` counts them.
                if !cells[c].rings.isEmpty {
                    triangles +=
                        RingTriangulation.triangleCount(farRate: cells[c].farRate, rates: cells[c].ringRates) - 2 * cells[c].farRate
                }
                guard r[k] == 1, r[(k + 3) % 4] == 1 else {
                    throw MeshError(.unsupported, path: "faces[\(cells[c].face)]", "a corner square's sides at its vertex are split")
                }
                continue
            }
            if cells[c].level == shallowest[cells[c].face] {
                let scale = 1 << cells[c].level
                smallest = min(smallest, rates.u[c] * scale, rates.v[c] * scale)
                largest = max(largest, r.max() * scale, rates.u[c] * scale, rates.v[c] * scale)
            }
            // A cell with an interior grid of its own is drawn as that grid in a ring.
            let interior = rates.interiorGrid(c)
            if let interior {
                nu[c] = interior.x
                nv[c] = interior.y
            }
            // An interior of its own in strips, while its sides still carry the lines' ends
            // (a neighbour's growth can change them: then a ring, which any sides allow).
            var stripped: Kind?
            if interior != nil {
                switch rates.shape(c) {
                case .rows where r[1] == nv[c] && r[3] == nv[c] && evenlySampled(c, 1, r[1]) && evenlySampled(c, 3, r[3]):
                    stripped = .rows
                case .columns where r[0] == nu[c] && r[2] == nu[c] && evenlySampled(c, 0, r[0]) && evenlySampled(c, 2, r[2]):
                    stripped = .columns
                default: stripped = nil
                }
            }
            if let stripped {
                kind[c] = stripped
            } else if interior == nil, nu[c] == 1, nv[c] == 1, r == SIMD4(repeating: 1) {
                kind[c] = .single
                if policy.needsCenters { centerBase[c] = next; next += 1 }
                triangles += perQuad
            } else if interior == nil, nu[c] == max(r[0], r[2]), nv[c] == r[1], r[1] == r[3], evenlySampled(c, 1, r[1]),
                evenlySampled(c, 3, r[3])
            {
                // Left and right carry the same evenly spaced samples: strips along u, squares
                // split by the policy wherever two lines agree (no joining ring).
                kind[c] = .rows
                nu[c] = max(r[0], r[2])
                nv[c] = r[1]
            } else if interior == nil, nv[c] == max(r[1], r[3]), nu[c] == r[0], r[0] == r[2], evenlySampled(c, 0, r[0]),
                evenlySampled(c, 2, r[2])
            {
                kind[c] = .columns
                nu[c] = r[0]
                nv[c] = max(r[1], r[3])
            } else if interior == nil, nv[c] == 1, r[1] == 1, r[3] == 1 {
                kind[c] = .rowStrip
                triangles += r[0] + r[2]
            } else if interior == nil, nu[c] == 1, r[0] == 1, r[2] == 1 {
                kind[c] = .columnStrip
                triangles += r[1] + r[3]
            } else {
                kind[c] = .ring
                nu[c] = max(nu[c], 2)
                nv[c] = max(nv[c], 2)
                gridBase[c] = next
                next += (nu[c] - 1) * (nv[c] - 1)
                let interiorQuads = (nu[c] - 2) * (nv[c] - 2)
                if policy.needsCenters { centerBase[c] = next; next += interiorQuads }
                triangles += interiorQuads * perQuad
                for k in 0..<4 { triangles += r[k] + (k % 2 == 0 ? nu[c] : nv[c]) - 2 }
            }
            if kind[c] == .rows || kind[c] == .columns {
                // Strips: the grid's inner lines' samples, a centre per square where the policy
                // needs them, and the strips' triangles.
                let strips = Strips(kind[c], grid: SIMD2(nu[c], nv[c]), sides: r) { evenlySampled(c, $0, r[$0]) }
                stripQuads[c] = strips.flags
                gridBase[c] = next
                next += (nu[c] - 1) * (nv[c] - 1)
                if policy.needsCenters { centerBase[c] = next; next += strips.quadCount }
                triangles += strips.triangles(perQuad: perQuad)
            }
        }
        triangleBase[cellCount] = triangles
        smallestRate = smallest == Int.max ? 0 : smallest
        largestRate = largest
        vertexCount = next
        triangleCount = triangles
        guard triangles <= maximumTriangles else {
            throw MeshError(
                .limitExceeded, path: "subdivisionSteps",
                "automatic steps would make \(triangles) triangles, over the budget of \(maximumTriangles)")
        }
        guard next <= Int(Int32.max) else {
            throw MeshError(
                .limitExceeded, path: "subdivisionSteps", "automatic steps would make \(next) vertices, more than a mesh can index")
        }
    }

    /// The strips of a `rows` or `columns` cell: `count` strips of `along` squares; the first
    /// strip's outer line (a side) has `first` segments and the last's `last`. A strip is squares
    /// when both its lines have `along` evenly spaced samples, else a zipper.
    struct Strips {
        var count: Int
        var along: Int
        var first: Int
        var last: Int
        var firstEven: Bool
        var lastEven: Bool

        init(count: Int, along: Int, first: Int, last: Int, firstEven: Bool, lastEven: Bool) {
            (self.count, self.along, self.first, self.last) = (count, along, first, last)
            self.firstEven = firstEven && first == along
            self.lastEven = lastEven && last == along
        }

        /// The strips of an nu × nv `grid` drawn as `kind` (`rows` or `columns`) in a cell whose
        /// sides carry `sides` segments, `evenlySampled(k)` telling whether side k's are evenly
        /// spaced: strips along u between the bottom (first) and top sides, or along v between
        /// the left (first) and right sides.
        init(_ kind: Kind, grid: SIMD2<Int>, sides: SIMD4<Int>, evenlySampled: (Int) -> Bool) {
            if kind == .rows {
                self.init(
                    count: grid.y, along: grid.x, first: sides[0], last: sides[2], firstEven: evenlySampled(0),
                    lastEven: evenlySampled(2))
            } else {
                self.init(
                    count: grid.x, along: grid.y, first: sides[3], last: sides[1], firstEven: evenlySampled(3),
                    lastEven: evenlySampled(1))
            }
        }

        init(count: Int, along: Int, first: Int, last: Int, flags: UInt8) {
            (self.count, self.along, self.first, self.last) = (count, along, first, last)
            firstEven = flags & 1 != 0
            lastEven = flags & 2 != 0
        }

        var flags: UInt8 { (firstEven ? 1 : 0) | (lastEven ? 2 : 0) }

        func isSquares(_ s: Int) -> Bool { (s != 0 || firstEven) && (s != count - 1 || lastEven) }

        /// Squares in the strips before strip s (the index of its first centre).
        func squaresBefore(_ s: Int) -> Int { (s > 0 && !isSquares(0) ? s - 1 : s) * along }

        var quadCount: Int { (0..<count).reduce(0) { $0 + (isSquares($1) ? along : 0) } }

        func triangles(perQuad: Int) -> Int {
            (0..<count).reduce(0) { sum, s in
                sum + (isSquares(s) ? along * perQuad : (s == 0 ? first : along) + (s == count - 1 ? last : along))
            }
        }
    }

    /// Whether every segment of `side` (a cell's side's pieces) takes the share of n that its
    /// length is, so the side's samples lie at multiples of 1/n.
    static func evenlySampled(_ side: ArraySlice<Piece>, _ n: Int, segments: [Segment]) -> Bool {
        side.allSatisfy { p in abs(Double(segments[Int(p.segment)].rate) - (p.end - p.start) * Double(n)) < 1e-9 }
    }

    /// Whether cell c's side k carries n evenly spaced segments.
    func evenlySampled(_ c: Int, _ k: Int, _ n: Int) -> Bool {
        sideRate(c, k) == n && AdaptiveLayout.evenlySampled(pieces[sideStart[4 * c + k]..<sideStart[4 * c + k + 1]], n, segments: segments)
    }

    /// Cell c's ring squares inside its corner region (entries of `ringDepths` and `ringRates`).
    func ringRange(_ c: Int) -> Range<Int> {
        let start = ringSquareStart[c], end = ringSquareStart[c + 1]
        return start < end ? (start + 1)..<end : start..<end
    }

    /// The segments corner region c asks of each far side (1 for a cell without rings).
    func ringFarRate(_ c: Int) -> Int {
        ringSquareStart[c] < ringSquareStart[c + 1] ? ringRates[ringSquareStart[c]] : 1
    }

    /// Cell c's strips (for `rows` and `columns`).
    func strips(_ c: Int) -> Strips {
        kind[c] == .rows
            ? Strips(count: nv[c], along: nu[c], first: sideRate(c, 0), last: sideRate(c, 2), flags: stripQuads[c])
            : Strips(count: nu[c], along: nv[c], first: sideRate(c, 3), last: sideRate(c, 1), flags: stripQuads[c])
    }

    /// The segments along side k of cell c: the sum of the rates of the segments on it.
    func sideRate(_ c: Int, _ k: Int) -> Int {
        var sum = 0
        for p in pieces[sideStart[4 * c + k]..<sideStart[4 * c + k + 1]] { sum += segments[Int(p.segment)].rate }
        return sum
    }

    /// Corner k of a cell in dyadic coordinates of its face.
    static func corner(_ k: Int, of cell: AdaptiveCell) -> SIMD2<Int64> {
        corner(k, of: CellPlace(cell))
    }

    /// Corner k of a cell in dyadic coordinates of its face.
    static func corner(_ k: Int, of cell: CellPlace) -> SIMD2<Int64> {
        let size = unit >> Int64(cell.level)
        let origin = SIMD2(Int64(cell.origin.x * Double(unit)), Int64(cell.origin.y * Double(unit)))
        return origin &+ SIMD2(k == 1 || k == 2 ? size : 0, k >= 2 ? size : 0)
    }

    /// The side of the face that the segment p0–p1 lies on, if any.
    static func faceSide(_ p0: SIMD2<Int64>, _ p1: SIMD2<Int64>) -> Int? {
        if p0.y == 0, p1.y == 0 { return 0 }
        if p0.x == unit, p1.x == unit { return 1 }
        if p0.y == unit, p1.y == unit { return 2 }
        if p0.x == 0, p1.x == 0 { return 3 }
        return nil
    }

    /// The point at dyadic distance s along side k (from corner k toward corner k + 1).
    static func point(onSide k: Int, at s: Int64) -> SIMD2<Int64> {
        switch k {
        case 0: SIMD2(s, 0)
        case 1: SIMD2(unit, s)
        case 2: SIMD2(unit - s, unit)
        default: SIMD2(0, unit - s)
        }
    }

    /// Where a point of face f lies: a control vertex, a point of a control edge (its dyadic
    /// distance from the edge's first vertex), or a point inside the face.
    struct NodeKey: Hashable {
        enum Kind: UInt8 { case vertex, edge, face }
        var kind: Kind
        var a: Int32
        var b: Int64
        var c: Int64
    }

    static func key(face f: Int, _ p: SIMD2<Int64>, surfaces: FaceSurfaces) -> NodeKey {
        let onU = p.x == 0 || p.x == unit, onV = p.y == 0 || p.y == unit
        let corners = surfaces.corners(ofFace: f)
        if onU, onV {
            let k = p.y == 0 ? (p.x == 0 ? 0 : 1) : (p.x == 0 ? 3 : 2)
            return NodeKey(kind: .vertex, a: corners[k], b: 0, c: 0)
        }
        let side: Int, s: Int64
        if p.y == 0 {
            (side, s) = (0, p.x)
        } else if p.x == unit {
            (side, s) = (1, p.y)
        } else if p.y == unit {
            (side, s) = (2, unit - p.x)
        } else if p.x == 0 {
            (side, s) = (3, unit - p.y)
        } else {
            return NodeKey(kind: .face, a: Int32(truncatingIfNeeded: f), b: p.x, c: p.y)
        }
        let e = Int(surfaces.edges(ofFace: f)[side])
        let forward = corners[side] == surfaces.vertices(ofEdge: e).x
        return NodeKey(kind: .edge, a: Int32(truncatingIfNeeded: e), b: forward ? s : unit - s, c: 0)
    }
}
