import SurfaceKit
import Testing

@testable import MeshTessellate

// The screen signs that the exact sort's passes make for every triangle: 1 or −1 by the sign of
// the screen area, 0 for a triangle without area or with a corner depth or an area that is not
// finite. The finiteness test adds x − x over the values instead of testing each; it is checked
// here against `isFinite` itself on every tuple of the special values, and the signs against
// areas worked out by hand.

@Suite struct ScreenSignSortTests {
    static let specials: [Double] = [
        0, -0.0, 1, -2.5, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude,
        -.leastNormalMagnitude, .infinity, -.infinity, .nan, -.nan,
    ]

    @Test func allFiniteIsEveryValueFinite() {
        let values = Self.specials
        for w in values {
            for x in values {
                for y in values {
                    for z in values {
                        let expected = w.isFinite && x.isFinite && y.isFinite && z.isFinite
                        #expect(ScreenOrientation.allFinite(w, x, y, z) == expected, "\(w) \(x) \(y) \(z)")
                    }
                }
            }
        }
    }

    @Test func signsFollowTheAreaAndLeaveOutWhatIsNotFinite() {
        // Twice the signed area of (0,0), (2,0), (0,1) is 2: counterclockwise, sign 1; the
        // reverse, −1; collinear corners, 0.
        let a = Point3D(0, 0, 1), b = Point3D(2, 0, 1), c = Point3D(0, 1, 1)
        let line = Point3D(4, 0, 1)
        var screen = [a, b, c, line]
        let triangles: [SIMD3<Int32>] = [SIMD3(0, 1, 2), SIMD3(0, 2, 1), SIMD3(0, 1, 3)]
        #expect(ScreenOrientation.signs(screen: screen, triangles: triangles) == [1, -1, 0])
        // A depth that is not finite at any corner, or an area that overflows, gives 0.
        for depth in [Double.infinity, -.infinity, .nan] {
            for corner in 0..<3 {
                screen = [a, b, c, line]
                screen[corner].z = depth
                #expect(ScreenOrientation.signs(screen: screen, triangles: [SIMD3(0, 1, 2)]) == [0], "depth \(depth) at \(corner)")
            }
        }
        let huge = Double.greatestFiniteMagnitude / 2
        let overflowing = [Point3D(-huge, -huge, 1), Point3D(huge, -huge, 1), Point3D(-huge, huge, 1)]
        #expect(ScreenOrientation.signs(screen: overflowing, triangles: [SIMD3(0, 1, 2)]) == [0])
        // Large but finite: the sign of the area.
        let large = [Point3D(-1e150, -1e150, 1), Point3D(1e150, -1e150, 1), Point3D(-1e150, 1e150, 1)]
        #expect(ScreenOrientation.signs(screen: large, triangles: [SIMD3(0, 1, 2), SIMD3(0, 2, 1)]) == [1, -1])
    }
}
