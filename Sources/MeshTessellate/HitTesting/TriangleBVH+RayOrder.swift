import SurfaceKit

extension TriangleBVH {
    /// Batches smaller than this are answered in their own order.
    static let coherentBatchMinimum = 8192

    /// An order of `rays` in which neighbours take nearly the same path through the hierarchy, or
    /// `nil` for a small batch: sorted by the octant of the direction, then by the Morton code
    /// (9 bits an axis) of the point where the ray enters the root box (rays that miss it last).
    /// Answering a large batch in this order reads nodes and triangles from cache instead of from
    /// memory; it changes no answer. Ties keep the rays' order (the sort is stable).
    func coherentOrder(_ rays: UnsafeBufferPointer<Ray>) -> [Int32]? {
        let count = rays.count
        guard count >= TriangleBVH.coherentBatchMinimum, count < Int(Int32.max), let root else {
            return nil
        }
        let lo = root.lower, size = root.upper - lo
        let cells = 511.0
        let scale = SIMD3(
            size.x > 0 ? cells / size.x : 0, size.y > 0 ? cells / size.y : 0, size.z > 0 ? cells / size.z : 0)
        @inline(__always) func cell(_ f: Double) -> UInt64 {
            // NaN compares false and lands in cell 0.
            f >= 0 ? (f < cells ? UInt64(f) : UInt64(cells)) : 0
        }
        @inline(__always) func spread(_ x: UInt64) -> UInt64 {
            var x = x & 0x1FF
            x = (x | (x << 16)) & 0x0300_00FF
            x = (x | (x << 8)) & 0x0300_F00F
            x = (x | (x << 4)) & 0x030C_30C3
            x = (x | (x << 2)) & 0x0924_9249
            return x
        }
        let missCode: UInt32 = (1 << 30) - 1
        var codes = [UInt32](repeating: missCode, count: count)
        codes.withUnsafeMutableBufferPointer { codes in
            for i in 0..<count {
                let ray = rays[i]
                let o = ray.origin, d = ray.direction
                let t = root.entry(origin: o, inverse: TriangleBVH.inverse(d), tmin: ray.tmin, tmax: ray.tmax)
                guard t < .infinity else { continue }
                let p = (o + t * d - lo) * scale
                let octant = (d.x < 0 ? 1 : 0) | (d.y < 0 ? 2 : 0) | (d.z < 0 ? 4 : 0) as UInt64
                codes[i] = UInt32(octant << 27 | spread(cell(p.x)) | spread(cell(p.y)) << 1 | spread(cell(p.z)) << 2)
            }
        }
        // The depth sort's stable radix sort: equal codes keep the rays' order.
        return RadixSort.stableOrder(bits: codes)
    }
}
