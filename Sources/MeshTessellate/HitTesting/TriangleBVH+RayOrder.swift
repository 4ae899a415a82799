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
        guard count >= TriangleBVH.coherentBatchMinimum, count < Int(Int32.max), let root = nodes.first else {
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
        func inverse(_ x: Double) -> Double {
            x != 0 ? 1 / x : (x.sign == .minus ? -Double.greatestFiniteMagnitude : .greatestFiniteMagnitude)
        }
        let missCode: UInt64 = (1 << 30) - 1
        var keys = [UInt64](repeating: 0, count: count)
        var scratch = [UInt64](repeating: 0, count: count)
        keys.withUnsafeMutableBufferPointer { keys in
            for i in 0..<count {
                let ray = rays[i]
                let o = ray.origin, d = ray.direction
                let inv = SIMD3(inverse(d.x), inverse(d.y), inverse(d.z))
                let t = root.entry(origin: o, inverse: inv, tmin: ray.tmin, tmax: ray.tmax)
                var code = missCode
                if t < .infinity {
                    let p = (o + t * d - lo) * scale
                    let octant = (d.x < 0 ? 1 : 0) | (d.y < 0 ? 2 : 0) | (d.z < 0 ? 4 : 0) as UInt64
                    code = octant << 27 | spread(cell(p.x)) | spread(cell(p.y)) << 1 | spread(cell(p.z)) << 2
                }
                keys[i] = code << 32 | UInt64(i)
            }
        }
        // Least significant digit first, three 10-bit digits of the 30-bit code.
        keys.withUnsafeMutableBufferPointer { keys in
            scratch.withUnsafeMutableBufferPointer { scratch in
                var source = keys, target = scratch
                withUnsafeTemporaryAllocation(of: Int.self, capacity: 1024) { counts in
                    for pass in 0..<3 {
                        let shift = UInt64(32 + 10 * pass)
                        counts.initialize(repeating: 0)
                        for key in source { counts[Int((key >> shift) & 1023)] += 1 }
                        var total = 0
                        for b in 0..<1024 {
                            let c = counts[b]
                            counts[b] = total
                            total += c
                        }
                        for key in source {
                            let b = Int((key >> shift) & 1023)
                            target[counts[b]] = key
                            counts[b] += 1
                        }
                        swap(&source, &target)
                    }
                }
                // After three passes the sorted keys are in `scratch`; copy them back.
                if source.baseAddress != keys.baseAddress {
                    for i in 0..<count { keys[i] = source[i] }
                }
            }
        }
        return keys.map { Int32(truncatingIfNeeded: $0 & 0xFFFF_FFFF) }
    }
}
