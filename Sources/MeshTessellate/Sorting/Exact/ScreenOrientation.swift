import CSwiftRuntimeShims
import SurfaceKit
import Synchronization

enum ScreenOrientation {
    /// The sign of each triangle's screen area, the z-component of (b − a) × (c − a) in screen x
    /// and y: 1 or −1, and 0 for a triangle that covers none (edge-on, a product that is not
    /// finite, or a corner depth that is not finite), which takes part in no pair.
    static func signs(screen: [Point3D], triangles: [SIMD3<Int32>]) -> [Int8] {
        screen.withUnsafeBufferPointer { s in
            triangles.withUnsafeBufferPointer { tris in signs(screen: s, triangles: tris) }
        }
    }

    /// `signs(screen:triangles:)` over buffers; every corner index must be below `screen.count`.
    /// With `uncertain` (a byte per vertex), the corners of every triangle whose sign the rounding
    /// may have got wrong are marked there with bits 0 and 1 (set atomically, on all cores): those
    /// whose computed area is within the error bound of the orientation filter (Shewchuk's
    /// ccwerrboundA, (3 + 16ε)ε times the sum of the two products' sizes) of zero, zero and
    /// non-finite ones included. Any other sign is the sign of the exact area of the corners.
    static func signs(
        screen s: UnsafeBufferPointer<Point3D>, triangles tris: UnsafeBufferPointer<SIMD3<Int32>>,
        uncertain: UnsafeMutableBufferPointer<UInt8>? = nil
    ) -> [Int8] {
        // Every corner is below `screen.count` (the caller's promise), so nothing is left out.
        signs(screen: s, triangles: tris, uncertain: uncertain, checkingIndices: false) ?? []
    }

    /// `signs(screen:triangles:uncertain:)` for triangles whose corners nobody has checked yet: nil
    /// when a triangle names a vertex below 0 or from `screen.count` on, found before any of its
    /// corners is read. The check is the loop's own (one comparison of the largest corner as
    /// UInt32, where a negative index is huge), so a caller that needs the signs anyway saves a
    /// pass of its own over the triangles. The marks made before a bad triangle is found stay.
    static func checkedSigns(
        screen s: UnsafeBufferPointer<Point3D>, triangles tris: UnsafeBufferPointer<SIMD3<Int32>>,
        uncertain: UnsafeMutableBufferPointer<UInt8>? = nil
    ) -> [Int8]? {
        signs(screen: s, triangles: tris, uncertain: uncertain, checkingIndices: true)
    }

    /// The loop of both: nil when `checkingIndices` and some triangle names a vertex out of range.
    @inline(__always)
    private static func signs(
        screen s: UnsafeBufferPointer<Point3D>, triangles tris: UnsafeBufferPointer<SIMD3<Int32>>,
        uncertain: UnsafeMutableBufferPointer<UInt8>?, checkingIndices: Bool
    ) -> [Int8]? {
        let n = tris.count
        let bound = UInt32(clamping: s.count)
        let bad = Atomic<Bool>(false)
        // Every sign is written below (0 included), so the array needs no zero fill first.
        let signs = [Int8](unsafeUninitializedCapacity: n) { sign, initialized in
            initialized = n
            guard let base = sign.baseAddress else { return }
            // Each chunk writes only its own triangles' signs, so the chunks can run on all cores.
            let out = SharedMutableBuffer(base: base)
            parallelChunks(n, minimumChunk: SortParallelism.minimumChunk) { range in
                for t in range {
                    let tri = tris[t]
                    if checkingIndices {
                        let corners = SIMD3<UInt32>(truncatingIfNeeded: tri)
                        guard Swift.max(corners.x, corners.y, corners.z) < bound else {
                            bad.store(true, ordering: .relaxed)
                            return
                        }
                    }
                    out.base[t] = Self.sign(of: tri, screen: s, uncertain: uncertain?.baseAddress)
                }
            }
        }
        return bad.load(ordering: .relaxed) ? nil : signs
    }

    /// The sign of triangle `tri` (corners below `s.count`), as `signs` writes it, with its corners
    /// marked in `uncertain` (atomically) when the rounding may have got it wrong.
    @inline(__always)
    static func sign(of tri: SIMD3<Int32>, screen s: UnsafeBufferPointer<Point3D>, uncertain marks: UnsafeMutablePointer<UInt8>?)
        -> Int8
    {
        let a = s[Int(tri.x)], b = s[Int(tri.y)], c = s[Int(tri.z)]
        let (area, certain) = area(a, b, c)
        if let marks, !certain {
            _ = shims_fetch_or_u8(marks + Int(tri.x), 3)
            _ = shims_fetch_or_u8(marks + Int(tri.y), 3)
            _ = shims_fetch_or_u8(marks + Int(tri.z), 3)
        }
        guard area != 0, allFinite(area, a.z, b.z, c.z) else { return 0 }
        return area > 0 ? 1 : -1
    }

    /// Whether all four values are finite, without a branch each: x − x is +0 exactly for a
    /// finite x and NaN for an infinite or NaN one, a sum of +0s is +0 and a sum with a NaN is
    /// NaN, so the sum is 0 exactly when every value is finite (what `isFinite` of each says).
    @inline(__always)
    static func allFinite(_ w: Double, _ x: Double, _ y: Double, _ z: Double) -> Bool {
        ((w - w) + (x - x)) + ((y - y) + (z - z)) == 0
    }

    /// The z-component of (b − a) × (c − a) in screen x and y, twice the signed screen area of the
    /// triangle a b c, and whether its sign is the exact area's: the rounded area lies beyond the
    /// error bound of the orientation filter (Shewchuk's ccwerrboundA, (3 + 16ε)ε times the sum of
    /// the two products' sizes). False for an area of zero or not finite.
    @inline(__always)
    static func area(_ a: Point3D, _ b: Point3D, _ c: Point3D) -> (area: Double, certain: Bool) {
        let left = (b.x - a.x) * (c.y - a.y), right = (b.y - a.y) * (c.x - a.x)
        let area = left - right
        return (area, abs(area) > 3.3306690738754716e-16 * (abs(left) + abs(right)))
    }
}
