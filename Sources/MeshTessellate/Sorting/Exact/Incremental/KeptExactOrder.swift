import SurfaceKit

/// An `.exact` draw order of a tessellation, kept so that after an edit (``TessellationEdit``) only
/// the changed triangles, and the stretches of the order they must be sorted into, are sorted again.
///
/// It holds an order of whole triangles (no piece split), as ``PainterSorter/exactOrder(mesh:geometry:topology:)``
/// gives it, with each vertex's screen point and each triangle's screen box in a grid. After an
/// edit, the changed triangles C (those with a moved corner) are taken out; for each c in C the
/// triangles overlapping it on screen are found in the grid and ordered by the exact sort's own
/// pair test (`PairOcclusion.relation`). C falls into groups, the connected sets of overlapping
/// changed triangles. For a group, let `lo` be the least old place of an unchanged triangle in front
/// of a member and `hi` the greatest old place of one behind. The stretch `lo...hi` of the old order
/// (the window) is sorted again with the exact sort together with the group, and the rest of the
/// order is kept; when `hi < lo` the group goes in between as it is, sorted among itself
/// (``EditBlocks`` places the groups and joins windows that meet).
///
/// Why the result is a painter's order (every overlapping pair drawn back before front), pair by pair:
/// - Two unchanged triangles have the same screen corners as before, so the same relation, which
///   the old order kept. Outside the windows their places keep their old relative order, and each
///   window stays one block at its old place, so a pair with one member in a window (or both in
///   different blocks) keeps its side; a pair within one window is ordered by that window's sort.
/// - A changed triangle c and an unchanged x overlapping it: if x is in front, its old place is at
///   least `lo` of c's group, so x is in the group's window (sorted together) or after the block
///   the group is drawn in; if x is behind, its place is at most `hi`, so in the window or before
///   it. Every window and place is chosen to hold this (``EditBlocks/plan(_:count:)``).
/// - Two overlapping changed triangles are in one group, so in one sort.
/// The exact sort of a block is a painter's order of that block's triangles, or none at all when
/// only splitting draws them right (a cycle or a crossing pair); a crossing between a changed and
/// an unchanged triangle has no order of whole triangles either. In both cases, and when a moved
/// corner is at or behind the eye (clipping makes new triangles), the update declines.
///
/// The order need not equal the full sort's: both are painter's orders of the same triangles,
/// and where several orders are right they may choose differently.
public struct KeptExactOrder: Sendable {
    /// Sorting again more than this share of the triangles declines the update: the windows'
    /// exact sort, the grid's queries and the new order cost about as much per triangle as the
    /// full sort, which also starts the order afresh.
    public static let largestResortedShare = 0.25

    /// Triangle indices, farthest first.
    public private(set) var order: [Int32]
    /// The place of each triangle in `order`.
    var place: [Int32]
    /// The screen point of each vertex, and the screen-area sign and box of each triangle (sign
    /// 0: it covers no area and takes part in no pair, as in the exact sort).
    var screen: [Point3D]
    var signs: [Int8]
    var boxes: [SIMD4<Float>]
    var grid: ScreenBoxGrid
    let geometry: LayerGeometry

    /// Why an update declined; the order is then no longer usable, and is made anew.
    public enum Decline: Error, Sendable, Equatable {
        /// Another layer geometry, or a mesh of other counts.
        case otherMesh
        /// A moved corner is at or behind the eye, so the sort must clip.
        case clipped
        /// A changed triangle crosses another in depth where they overlap, or a block's triangles
        /// overlap in a cycle: only splitting draws them right.
        case needsSplitting
        /// The windows hold more than ``largestResortedShare`` of the triangles.
        case largeWindows
    }

    /// What an update did: the triangles it sorted again (the changed ones and the windows'), and
    /// the number of windows.
    public struct Update: Sendable, Equatable {
        public var resorted: Int
        public var windows: Int
    }

    /// The exact order of `mesh` (points space) on a layer with `geometry`; `nil` where
    /// ``PainterSorter/exactOrder(mesh:geometry:topology:)`` is `nil` (the sort must clip or split).
    public init?(mesh: TriangleMesh, geometry: LayerGeometry, topology: SortTopology? = nil) throws {
        guard let order = try PainterSorter.exactOrder(mesh: mesh, geometry: geometry, topology: topology) else { return nil }
        // No corner is at or behind the eye (the order would be nil): every screen point exists.
        var screen = [Point3D](repeating: .zero, count: mesh.vertexCount)
        for (i, p) in mesh.positions.enumerated() {
            guard let s = geometry.screenFromPoints(p) else { return nil }
            screen[i] = s
        }
        self.order = order
        self.geometry = geometry
        self.screen = screen
        place = [Int32](repeating: 0, count: order.count)
        for (k, t) in order.enumerated() { place[Int(t)] = Int32(k) }
        signs = ScreenOrientation.signs(screen: screen, triangles: mesh.triangles)
        boxes = mesh.triangles.map { Self.box(of: $0, screen) }
        grid = ScreenBoxGrid(boxes: boxes, active: signs.map { $0 != 0 })
    }

    /// The screen box of triangle `t` (minX, minY, maxX, maxY), rounded outward to Float: the box
    /// test only filters, so it may pass more pairs but never fewer.
    static func box(of t: SIMD3<Int32>, _ screen: [Point3D]) -> SIMD4<Float> {
        let a = screen[Int(t.x)], b = screen[Int(t.y)], c = screen[Int(t.z)]
        return SIMD4(
            Float.roundedDown(min(a.x, b.x, c.x)), Float.roundedDown(min(a.y, b.y, c.y)), Float.roundedUp(max(a.x, b.x, c.x)),
            Float.roundedUp(max(a.y, b.y, c.y)))
    }

    /// Follows `edit` of the tessellation, now `mesh`, on a layer with `geometry`: the order is
    /// then a painter's order of `mesh` (see the type's argument). On a decline the order is no
    /// longer usable; make it anew (or sort in full).
    public mutating func update(mesh: TriangleMesh, edit: TessellationEdit, geometry: LayerGeometry) throws -> Result<
        Update, Decline
    > {
        let n = order.count
        guard geometry == self.geometry, mesh.triangleCount == n, mesh.vertexCount == screen.count, mesh.space == .points else {
            return .failure(.otherMesh)
        }
        for v in edit.vertices {
            guard let s = geometry.screenFromPoints(mesh.positions[v]) else { return .failure(.clipped) }
            screen[v] = s
        }
        let changed = edit.triangles.map { Int32($0) }
        guard !changed.isEmpty else { return .success(Update(resorted: 0, windows: 0)) }
        // The changed triangles' slots in `changed`, by triangle (−1 for the others).
        var slot = [Int32](repeating: -1, count: n)
        for (k, t) in changed.enumerated() { slot[Int(t)] = Int32(k) }
        let newSigns = ScreenOrientation.signs(screen: screen, triangles: changed.map { mesh.triangles[Int($0)] })
        for (k, t) in changed.enumerated() {
            let i = Int(t)
            if signs[i] != 0 { grid.remove(t, box: boxes[i]) }
            signs[i] = newSigns[k]
            boxes[i] = Self.box(of: mesh.triangles[i], screen)
            if signs[i] != 0 { grid.insert(t, box: boxes[i]) }
        }
        guard let groups = overlapGroups(changed, slot: slot, triangles: mesh.triangles) else { return .failure(.needsSplitting) }
        let blocks = EditBlocks.plan(groups, count: n)
        let resorted = blocks.reduce(0) { $0 + $1.members.count + max(0, $1.end - $1.start + 1) }
        guard Double(resorted) <= Self.largestResortedShare * Double(n) else { return .failure(.largeWindows) }
        // The new order: the old one without the changed triangles, each block in its place.
        var next = [Int32]()
        next.reserveCapacity(n)
        var k = 0
        var windows = 0
        var local = [Int32](repeating: -1, count: mesh.vertexCount)
        for block in blocks {
            for t in order[k..<block.start] where slot[Int(t)] < 0 { next.append(t) }
            var members = block.members
            if block.isWindow {
                windows += 1
                var stretch: [Int32] = []
                for t in order[block.start...block.end] where slot[Int(t)] < 0 { stretch.append(t) }
                members = stretch + members
                k = block.end + 1
            } else {
                k = block.start
            }
            let small = members.count <= Self.largestPairwiseGroup ? pairwiseOrder(of: members, triangles: mesh.triangles) : nil
            guard let sorted = try small ?? Self.order(of: members, mesh: mesh, geometry: geometry, local: &local) else {
                return .failure(.needsSplitting)
            }
            next += sorted
        }
        for t in order[k...] where slot[Int(t)] < 0 { next.append(t) }
        order = next
        for (k, t) in order.enumerated() { place[Int(t)] = Int32(k) }
        return .success(Update(resorted: resorted, windows: windows))
    }

    /// The groups of the changed triangles (the connected sets of their overlapping pairs), each
    /// with the old places of the unchanged triangles in front of and behind its members; `nil`
    /// when a changed triangle crosses another in depth where they overlap.
    private func overlapGroups(_ changed: [Int32], slot: [Int32], triangles: [SIMD3<Int32>]) -> [EditBlocks.Group]? {
        let n = order.count
        var groups = UnionFind(count: changed.count)
        var lo = [Int](repeating: n, count: changed.count), hi = [Int](repeating: -1, count: changed.count)
        // The triangle last seen for each changed one: a triangle listed in several cells is tested once.
        var seen = [Int32](repeating: -1, count: n)
        let crossing = screen.withUnsafeBufferPointer { s -> Bool in
            for (k, c) in changed.enumerated() {
                let ci = Int(c)
                guard signs[ci] != 0 else { continue }
                let box = boxes[ci], tc = triangles[ci]
                let r = grid.cellRange(box)
                for y in r.y0...r.y1 {
                    for x in r.x0...r.x1 {
                        for t in grid.cells[y * grid.columns + x] where t != c && seen[Int(t)] != c {
                            let ti = Int(t)
                            seen[ti] = c
                            let other = slot[ti]
                            // A pair of changed triangles once, from the smaller index.
                            if other >= 0 && t < c { continue }
                            let b = boxes[ti]
                            guard b.x < box.z, box.x < b.z, b.y < box.w, box.y < b.w else { continue }
                            let relation = PairOcclusion.relation(tc, triangles[ti], s, signs: (Double(signs[ci]), Double(signs[ti])))
                            switch relation {
                            case .apart, .level:
                                continue
                            case .crossing:
                                return true
                            case .firstInFront, .secondInFront:
                                if other >= 0 {
                                    groups.union(Int32(k), other)
                                } else if relation == .firstInFront {
                                    hi[k] = max(hi[k], Int(place[ti]))
                                } else {
                                    lo[k] = min(lo[k], Int(place[ti]))
                                }
                            }
                        }
                    }
                }
            }
            return false
        }
        guard !crossing else { return nil }
        var byRoot: [Int32: Int] = [:]
        var result: [EditBlocks.Group] = []
        for (k, c) in changed.enumerated() {
            let root = groups.find(Int32(k))
            let home = Int(place[Int(c)])
            if let g = byRoot[root] {
                result[g].lo = min(result[g].lo, lo[k])
                result[g].hi = max(result[g].hi, hi[k])
                result[g].home = min(result[g].home, home)
                result[g].members.append(c)
            } else {
                byRoot[root] = result.count
                result.append(EditBlocks.Group(lo: lo[k], hi: hi[k], home: home, members: [c]))
            }
        }
        return result
    }

    /// Blocks of at most this many triangles are ordered by testing every pair: a few hundred
    /// pair tests cost less than setting up the full sort's passes for them.
    static let largestPairwiseGroup = 24

    /// An order of `members` (themselves alone) that draws every pair the exact sort's pair test
    /// orders back before front, the smallest place in `members` first among those free to go;
    /// `nil` when a pair crosses or the pairs make a cycle (the full sort's path then decides).
    /// It is a painter's order by definition: every overlapping pair is tested.
    func pairwiseOrder(of members: [Int32], triangles: [SIMD3<Int32>]) -> [Int32]? {
        let count = members.count
        guard count > 1 else { return members }
        // behind[j] holds the bits of the members that must be drawn before member j.
        var behind = [UInt32](repeating: 0, count: count)
        let crossing = screen.withUnsafeBufferPointer { s -> Bool in
            for i in 0..<count {
                let a = Int(members[i])
                guard signs[a] != 0 else { continue }
                for j in (i + 1)..<count {
                    let b = Int(members[j])
                    guard signs[b] != 0 else { continue }
                    let p = boxes[a], q = boxes[b]
                    guard p.x < q.z, q.x < p.z, p.y < q.w, q.y < p.w else { continue }
                    switch PairOcclusion.relation(triangles[a], triangles[b], s, signs: (Double(signs[a]), Double(signs[b]))) {
                    case .apart, .level: continue
                    case .crossing: return true
                    case .firstInFront: behind[i] |= 1 << UInt32(j)
                    case .secondInFront: behind[j] |= 1 << UInt32(i)
                    }
                }
            }
            return false
        }
        guard !crossing else { return nil }
        var drawn: UInt32 = 0
        var result: [Int32] = []
        result.reserveCapacity(count)
        while result.count < count {
            guard let next = (0..<count).first(where: { drawn & (1 << UInt32($0)) == 0 && behind[$0] & ~drawn == 0 }) else {
                return nil // a cycle
            }
            drawn |= 1 << UInt32(next)
            result.append(members[next])
        }
        return result
    }

    /// An exact order of the triangles `members` of `mesh` (themselves alone), or `nil` when only
    /// splitting draws them right: the library's sort of the mesh made of them. `local` (−1 for
    /// every vertex of `mesh`, and so again on return) numbers their vertices.
    static func order(of members: [Int32], mesh: TriangleMesh, geometry: LayerGeometry, local: inout [Int32]) throws -> [Int32]? {
        guard members.count > 1 else { return members }
        var used: [Int32] = []
        var triangles: [SIMD3<Int32>] = []
        triangles.reserveCapacity(members.count)
        func vertex(_ v: Int32) -> Int32 {
            if local[Int(v)] < 0 {
                local[Int(v)] = Int32(used.count)
                used.append(v)
            }
            return local[Int(v)]
        }
        for t in members {
            let c = mesh.triangles[Int(t)]
            triangles.append(SIMD3(vertex(c.x), vertex(c.y), vertex(c.z)))
        }
        for v in used { local[Int(v)] = -1 }
        let part = TriangleMesh(
            space: .points, positions: used.map { mesh.positions[Int($0)] }, from: used.map { mesh.from[Int($0)] },
            normals: used.map { mesh.normals[Int($0)] }, triangles: triangles, sourceFaces: members.map { mesh.sourceFaces[Int($0)] })
        return try PainterSorter.exactOrder(mesh: part, geometry: geometry)?.map { members[Int($0)] }
    }
}
