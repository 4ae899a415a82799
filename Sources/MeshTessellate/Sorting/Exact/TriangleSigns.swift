import SurfaceKit
import Synchronization

/// Where a pass over the triangles takes each one's screen-area sign (`ScreenOrientation`) from: a
/// pass made before (`GivenSigns`), or made as the pass asks for them (`MadeSigns`), so that the
/// one pass that needs every sign anyway (R's runs, `OverlapCandidates.keptRuns`) makes them
/// without a pass of their own over the triangles and their corners.
protocol TriangleSigns {
    /// The sign of triangle t: 1, −1, or 0 for a triangle that covers no area.
    func sign(_ t: Int) -> Int8
}

/// Signs made before, one a triangle.
struct GivenSigns: TriangleSigns {
    let signs: UnsafeBufferPointer<Int8>

    @inline(__always)
    func sign(_ t: Int) -> Int8 { signs[t] }
}

/// Whether some triangle named a vertex the screen positions do not have (set on any core).
final class IndexCheck: Sendable {
    let outOfRange = Atomic<Bool>(false)
}

/// Signs made as they are asked for, each written to `out` with the uncertain corners marked in
/// `uncertain`, exactly as `ScreenOrientation.checkedSigns` makes them (`ScreenOrientation.sign`,
/// the same operations): a triangle's corners are checked before any is read, and one naming a
/// vertex from `bound` on (or below 0, huge as UInt32) gets sign 0, takes part in nothing, and sets
/// `check.outOfRange`, after which the caller throws its work away.
struct MadeSigns: TriangleSigns {
    let screen: UnsafeBufferPointer<Point3D>
    let triangles: UnsafeBufferPointer<SIMD3<Int32>>
    let out: SharedMutableBuffer<Int8>
    let uncertain: UnsafeMutablePointer<UInt8>?
    let bound: UInt32
    let check: IndexCheck

    @inline(__always)
    func sign(_ t: Int) -> Int8 {
        let tri = triangles[t]
        let corners = SIMD3<UInt32>(truncatingIfNeeded: tri)
        guard Swift.max(corners.x, corners.y, corners.z) < bound else {
            check.outOfRange.store(true, ordering: .relaxed)
            out.base[t] = 0
            return 0
        }
        let sign = ScreenOrientation.sign(of: tri, screen: screen, uncertain: uncertain)
        out.base[t] = sign
        return sign
    }
}
