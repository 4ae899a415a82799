import SurfaceKit

extension TriangleBVH {
    /// Blocks smaller than this are answered in their own order: sorting so few rays saves less
    /// than it costs.
    static let coherentBatchMinimum = 8192

    /// Bits of a ray's sort key above its index: the octant of its direction and a 27-bit Morton
    /// code (9 bits an axis) of where it enters the root box.
    static let codeBits = 30
    /// Bits a radix pass of ``coherentOrder(_:keys:spare:counts:records:)`` sorts: 1,024 counters, 4 KB,
    /// stay in the L1 cache; three passes cover ``codeBits``.
    static let digitBits = 10
    static let digitPasses = 3

    /// The counters ``coherentOrder(_:keys:spare:counts:records:)`` needs: every pass's.
    static let orderCounts = digitPasses << digitBits

    /// An order of the block `rays` in which neighbours take nearly the same path through the
    /// hierarchy, or `nil` for a block smaller than ``coherentBatchMinimum``: sorted by the octant
    /// of the direction, then by the Morton code of the point where the ray enters the root box
    /// (rays that miss it last). Answering a block in this order reads nodes and triangles from
    /// cache instead of from memory; it changes no answer, which never depends on the order.
    ///
    /// Returns the sorted keys, in `keys` or in `spare` (each room for `rays.count`): a key is
    /// the ray's code above 32 bits and its index in the block below, so equal codes keep the
    /// block's order. `counts` has room for ``orderCounts``. The pass that reads the rays for
    /// their codes also copies ray i to `records[i]` (room for `rays.count`), for the walks to
    /// gather from. Everything is the caller's memory and the block's own rays, so blocks are
    /// sorted independently.
    func coherentOrder(
        _ rays: UnsafeBufferPointer<Ray>, keys: UnsafeMutablePointer<UInt64>, spare: UnsafeMutablePointer<UInt64>,
        counts: UnsafeMutablePointer<Int32>, records: UnsafeMutablePointer<RayRecord>
    ) -> UnsafeMutablePointer<UInt64>? {
        let count = rays.count
        guard count >= TriangleBVH.coherentBatchMinimum, count < Int(Int32.max), let root else { return nil }
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
        let missCode: UInt64 = (1 << TriangleBVH.codeBits) - 1
        for i in 0..<count {
            let ray = rays[i]
            (records + i).initialize(to: RayRecord(ray))
            let o = ray.origin, d = ray.direction
            let t = root.entry(origin: o, inverse: TriangleBVH.inverse(d), tmin: ray.tmin, tmax: ray.tmax)
            var code = missCode
            if t < .infinity {
                let p = (o + t * d - lo) * scale
                let octant = (d.x < 0 ? 1 : 0) | (d.y < 0 ? 2 : 0) | (d.z < 0 ? 4 : 0) as UInt64
                code = octant << 27 | spread(cell(p.x)) | spread(cell(p.y)) << 1 | spread(cell(p.z)) << 2
            }
            keys[i] = code << 32 | UInt64(i)
        }
        return TriangleBVH.radixSort(keys, spare: spare, count: count, counts: counts)
    }

    /// Sorts `keys[0..<count]` by their bits 32 and up, least significant digit first (stable, so
    /// equal codes keep their order), returning where the result lies: `keys` or `spare`. A pass
    /// whose digit every key shares moves nothing and is skipped.
    static func radixSort(
        _ keys: UnsafeMutablePointer<UInt64>, spare: UnsafeMutablePointer<UInt64>, count: Int,
        counts: UnsafeMutablePointer<Int32>
    ) -> UnsafeMutablePointer<UInt64> {
        let radix = 1 << digitBits
        let mask = UInt64(radix - 1)
        counts.initialize(repeating: 0, count: digitPasses * radix)
        // Every pass's counts in one read.
        for i in 0..<count {
            let code = keys[i] >> 32
            for pass in 0..<digitPasses {
                counts[pass * radix + Int((code >> UInt64(pass * digitBits)) & mask)] += 1
            }
        }
        var source = keys, target = spare
        for pass in 0..<digitPasses {
            let digits = counts + pass * radix
            let shift = UInt64(32 + pass * digitBits)
            if digits[Int((source[0] >> shift) & mask)] == Int32(truncatingIfNeeded: count) { continue }
            // Counts become each digit's first slot.
            var sum: Int32 = 0
            for d in 0..<radix {
                let n = digits[d]
                digits[d] = sum
                sum &+= n
            }
            for i in 0..<count {
                let key = source[i]
                let d = Int((key >> shift) & mask)
                let slot = Int(digits[d])
                digits[d] = Int32(truncatingIfNeeded: slot + 1)
                target[slot] = key
            }
            swap(&source, &target)
        }
        return source
    }
}

extension TriangleBVH {
    /// A ray in one cache line: its eight numbers without the padding of its vectors (a ``Ray``
    /// takes 80 bytes, so most rays straddle two lines). The same bits come back out.
    struct RayRecord {
        var ox, oy, oz, dx, dy, dz, tmin, tmax: Double

        @inline(__always)
        init(_ ray: Ray) {
            (ox, oy, oz) = (ray.origin.x, ray.origin.y, ray.origin.z)
            (dx, dy, dz) = (ray.direction.x, ray.direction.y, ray.direction.z)
            (tmin, tmax) = (ray.tmin, ray.tmax)
        }

        @inline(__always)
        var ray: Ray { Ray(origin: SIMD3(ox, oy, oz), direction: SIMD3(dx, dy, dz), tmin: tmin, tmax: tmax) }
    }
}
