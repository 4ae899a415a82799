import CSwiftRuntimeShims
import SurfaceKit

extension DepthRankedOrder {
    /// Marks in `turns` each corner of the triangle `tri` (corners at a, b, c, with screen-area
    /// sign `sign`, not 0) whose angle holds the direction +x: bit 0 the first time a vertex is
    /// marked, bit 1 every time after. With the corners counterclockwise, the angle at v from the
    /// next corner u to the previous one w (less than π) holds it when u.y ≤ v.y < w.y, exactly
    /// (half-open, so a side along +x counts once). `atomically` when other cores mark too.
    @inline(__always)
    static func countTurns(
        _ tri: SIMD3<Int32>, sign: Int8, _ a: Point3D, _ b: Point3D, _ c: Point3D, into turns: UnsafeMutableBufferPointer<UInt8>,
        atomically: Bool = false
    ) {
        @inline(__always) func turn(_ v: Int32, if covers: Bool) {
            guard covers else { return }
            if atomically, let base = turns.baseAddress {
                if shims_fetch_or_u8(base + Int(v), 1) & 1 != 0 { _ = shims_fetch_or_u8(base + Int(v), 2) }
            } else {
                let marks = turns[Int(v)]
                turns[Int(v)] = marks | 1 | (marks & 1) << 1
            }
        }
        if sign > 0 {
            turn(tri.x, if: b.y <= a.y && a.y < c.y)
            turn(tri.y, if: c.y <= b.y && b.y < a.y)
            turn(tri.z, if: a.y <= c.y && c.y < b.y)
        } else {
            turn(tri.x, if: c.y <= a.y && a.y < b.y)
            turn(tri.z, if: b.y <= c.y && c.y < a.y)
            turn(tri.y, if: a.y <= b.y && b.y < c.y)
        }
    }

    /// The corners of `corners` around which the triangles wind once, for `Entry.Traits`, from
    /// `turns`:
    /// whether the candidates' angles at each vertex cover the direction +x once (bit 0) or more
    /// often (bit 1, also set for the vertices of R and the corners of every triangle whose sign
    /// the rounding may have got wrong, `ScreenOrientation.signs(…, uncertain:)`).
    ///
    /// The argument needs each triangle at v to be run the way it truly turns: a sliver whose
    /// rounded area has the wrong sign would let v's runs cancel while two of its neighbours
    /// overlap along it (a review found such a fan), hence the marks of uncertain signs; every other
    /// sign is exact. Around a vertex v that is no end of R, every edge at v is run once each way, so the sides
    /// opposite v of the triangles with area at v make a closed chain, and those triangles cover
    /// every point near v the same number k ≥ 1 of times: the chain's winding number there. That is
    /// how often their angles at v hold the direction +x (each angle below π, half-open by the y
    /// comparisons, so a side along +x counts once). When all of them are candidates, that count is
    /// what `turns[v]` marks. When one of them is not, it is covered once and R does not touch it
    /// (`OverlapCandidates`), so near v nothing is covered more than once and k = 1 too. So when
    /// `turns[v]` has no bit 1, k = 1: the angles at v do not overlap, and each triangle lies in its angle,
    /// so two triangles with the corner v are apart on screen. The sweep then skips such pairs
    /// without the exact test, which says apart for them too (W3: 487,000 tests → about 65,000).
    @inline(__always)
    static func simpleCorners(_ corners: SIMD4<Int32>, turns: UnsafeBufferPointer<UInt8>) -> Entry.Traits {
        var simple: Entry.Traits = []
        if turns[Int(corners.x)] & 2 == 0 { simple.insert(.simpleCorner0) }
        if turns[Int(corners.y)] & 2 == 0 { simple.insert(.simpleCorner1) }
        if turns[Int(corners.z)] & 2 == 0 { simple.insert(.simpleCorner2) }
        return simple
    }

    /// A cell's copy of a candidate's box, depth range, first cell (column, row; a grid has at most
    /// 4,096 a side), slot, and its corners with what the sweep's filters need of them, so that
    /// most pairs are settled from the two copies alone (no scattered read of the pair data).
    struct Entry {
        var box = SIMD4<Float>.zero
        var depth = SIMD2<Float>.zero
        var first = SIMD2<Int16>.zero
        var slot: Int32 = 0
        /// The corners in x, y and z, and the entry's `Traits` in w: one vector, so that the copy
        /// stays 48 bytes (three cache-line thirds) and the sweep reads corners and traits at once.
        var corners = SIMD4<Int32>.zero

        /// What the sweep's filters need of the corners, stored in `corners.w`.
        struct Traits: OptionSet {
            let rawValue: Int32

            /// Corner k is one around which the triangles wind once (see `simpleCorners`).
            static let simpleCorner0 = Traits(rawValue: 1 << 0)
            static let simpleCorner1 = Traits(rawValue: 1 << 1)
            static let simpleCorner2 = Traits(rawValue: 1 << 2)
            static let simpleCorners: Traits = [.simpleCorner0, .simpleCorner1, .simpleCorner2]
            /// The screen-area sign is negative.
            static let negativeSign = Traits(rawValue: 1 << 7)
            /// The rounding may have got the sign wrong (`ScreenOrientation.area`).
            static let uncertainSign = Traits(rawValue: 1 << 8)

            /// Bits 3–4 hold the corner of least depth, bits 5–6 the corner of greatest depth (the
            /// first of equal ones).
            private static let leastShift: Int32 = 3, greatestShift: Int32 = 5

            init(rawValue: Int32) { self.rawValue = rawValue }

            init(leastCorner: Int32, greatestCorner: Int32, negative: Bool, certain: Bool) {
                var traits = Traits(rawValue: leastCorner << Self.leastShift | greatestCorner << Self.greatestShift)
                if negative { traits.insert(.negativeSign) }
                if !certain { traits.insert(.uncertainSign) }
                self = traits
            }

            /// The index (0, 1 or 2) of the corner of least depth.
            var leastCorner: Int { Int(rawValue >> Self.leastShift & 3) }
            /// The index (0, 1 or 2) of the corner of greatest depth.
            var greatestCorner: Int { Int(rawValue >> Self.greatestShift & 3) }
        }

        init(
            box: SIMD4<Float>, depth: SIMD2<Float>, first: SIMD2<Int16>, slot: Int32, triangle: SIMD3<Int32>,
            depths: SIMD3<Double>, sign: Int8, certain: Bool
        ) {
            self.box = box
            self.depth = depth
            self.first = first
            self.slot = slot
            let least: Int32 = depths.y < depths.x ? (depths.z < depths.y ? 2 : 1) : (depths.z < depths.x ? 2 : 0)
            let greatest: Int32 = depths.y > depths.x ? (depths.z > depths.y ? 2 : 1) : (depths.z > depths.x ? 2 : 0)
            let traits = Traits(leastCorner: least, greatestCorner: greatest, negative: sign < 0, certain: certain)
            corners = SIMD4(triangle, traits.rawValue)
        }

        /// The traits kept in `corners.w`.
        var traits: Traits {
            @inline(__always) get { Traits(rawValue: corners.w) }
            @inline(__always) set { corners.w = newValue.rawValue }
        }

        /// The corners alone.
        var triangle: SIMD3<Int32> { SIMD3(corners.x, corners.y, corners.z) }

        /// Whether the screen-area sign is negative.
        var negative: Bool { traits.contains(.negativeSign) }

        /// Whether this and `other` are neighbours on the two sides of an edge: their signs, both
        /// exact, the same, and the edge run opposite ways (then `PairOcclusion.relation` finds them
        /// apart too). Two triangles with one sign that run their shared edge opposite ways lie on
        /// its two sides, so they share no interior point; rounded signs could put a sliver on the
        /// wrong side, hence both signs must be certain.
        @inline(__always)
        func acrossAnEdge(from other: Entry) -> Bool {
            !traits.union(other.traits).contains(.uncertainSign) && negative == other.negative
                && PairOcclusion.runOppositeAlongAnEdge(triangle, other.triangle)
        }

        /// Whether this one's corner of greatest depth is `later`'s corner of least depth: then no
        /// corner of this one is above any of `later` (its greatest depth is the other's least,
        /// exactly), as the sweep's depth filter finds without reading the exact depths.
        @inline(__always)
        func topIsBottom(of later: Entry) -> Bool {
            corners[traits.greatestCorner] == later.corners[later.traits.leastCorner]
        }

        /// Whether this and `other` share a corner around which the triangles wind once: then
        /// they are apart on screen (see `simpleCorners`).
        @inline(__always)
        func sharesSimpleCorner(with other: Entry) -> Bool {
            let w = traits.rawValue
            let simple =
                SIMD3(w & Traits.simpleCorner0.rawValue, w & Traits.simpleCorner1.rawValue, w & Traits.simpleCorner2.rawValue) .!= 0
            let shared = triangle .== other.corners.x .| triangle .== other.corners.y .| triangle .== other.corners.z
            return any(shared .& simple)
        }
    }
}
