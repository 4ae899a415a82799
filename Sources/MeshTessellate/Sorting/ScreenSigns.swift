import SurfaceKit

extension ScreenPairs {
    /// The sign of each triangle's screen area, the z-component of (b − a) × (c − a) in screen x
    /// and y: 1 or −1, and 0 for a triangle that covers none (edge-on, a product that is not
    /// finite, or a corner depth that is not finite), which takes part in no pair.
    static func screenSigns(screen: [Point3D], triangles: [SIMD3<Int32>]) -> [Int8] {
        screen.withUnsafeBufferPointer { s in
            triangles.withUnsafeBufferPointer { tris in screenSigns(screen: s, triangles: tris) }
        }
    }

    /// `screenSigns(screen:triangles:)` over buffers; every corner index must be below `screen.count`.
    static func screenSigns(screen s: UnsafeBufferPointer<Point3D>, triangles tris: UnsafeBufferPointer<SIMD3<Int32>>) -> [Int8] {
        let n = tris.count
        var sign = [Int8](repeating: 0, count: n)
        sign.withUnsafeMutableBufferPointer { sign in
            guard let base = sign.baseAddress else { return }
            // Each chunk writes only its own triangles' signs, so the chunks can run on all cores.
            let out = SharedMutableBuffer(base: base)
            parallelChunks(n, minimumChunk: 65_536) { range in
                for t in range {
                    let tri = tris[t]
                    let a = s[Int(tri.x)], b = s[Int(tri.y)], c = s[Int(tri.z)]
                    let area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
                    guard area != 0, area.isFinite, a.z.isFinite, b.z.isFinite, c.z.isFinite else { continue }
                    out.base[t] = area > 0 ? 1 : -1
                }
            }
        }
        return sign
    }
}
