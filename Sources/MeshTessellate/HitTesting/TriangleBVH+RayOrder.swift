import SurfaceKit

extension TriangleBVH {
    /// Blocks smaller than this are answered in their own order: sorting so few rays saves less
    /// than it costs.
    static let coherentBatchMinimum = 8192

    /// Bits of a ray's sort key above its index: the octant of its direction and a 27-bit Morton
    /// code (9 bits an axis) of where it enters the root box.
    static let codeBits = 30
    /// Bits a radix pass of ``coherentOrder(_:parts:scratch:alongside:)`` sorts: 1,024 counters,
    /// 4 KB, stay in the L1 cache; three passes cover ``codeBits``.
    static let digitBits = 10
    static let digitPasses = 3

    /// The counters a part of ``coherentOrder(_:parts:scratch:alongside:)`` needs: every pass's.
    static let orderCounts = digitPasses << digitBits

    /// Rays a part of the coherent order takes at least (128 KB of keys): enough to pay for a
    /// thread hand-off and for the part's 3,072 counters, which every pass sums on one thread.
    static let orderPartMinimum = 16_384
    /// Parts the coherent order is cut into at most: the sums of the counters, on one thread, grow
    /// with the parts (two reads of 1,024 counters a part and pass, ``firstSlots(_:parts:)``),
    /// and 64 keep them to tens of microseconds.
    static let orderPartsMaximum = 64

    /// How many parts the coherent order of `count` rays is cut into on `threads` threads: one a
    /// thread while each keeps ``orderPartMinimum`` rays. The keys are unique (each holds its
    /// ray's index), so the order is the same whatever the parts.
    static func orderParts(_ count: Int, threads: Int) -> Int {
        Swift.max(1, Swift.min(threads, orderPartsMaximum, count / orderPartMinimum))
    }

    /// An order of the block `rays` in which neighbours take nearly the same path through the
    /// hierarchy, or `nil` for a block smaller than ``coherentBatchMinimum``: sorted by the octant
    /// of the direction, then by the Morton code of the point where the ray enters the root box
    /// (rays that miss it last). Answering a block in this order reads nodes and triangles from
    /// cache instead of from memory; it changes no answer, which never depends on the order.
    ///
    /// Returns the sorted keys, in `scratch.keys` or in `scratch.spare`: a key is the ray's code
    /// above 32 bits and its index in the block below, so keys are unique and equal codes keep the
    /// block's order. The pass that reads the rays for their codes also copies ray i to
    /// `scratch.records[i]`, for the walks to gather from. The block is cut into `parts` contiguous
    /// parts (at most `scratch.parts`) that make their keys and run every radix pass on all cores
    /// (``radixSort(_:spare:count:counts:parts:)``); as the keys are unique, the order is the one
    /// a single part gives. `alongside` runs on each part's range of the block, on the part's
    /// thread, after its keys are made: the caller's own work over the same rays (the answers'
    /// pages) rides on the pass instead of taking one of its own.
    func coherentOrder(
        _ rays: UnsafeBufferPointer<Ray>, parts requested: Int, scratch: RayBlockScratch, alongside: (Range<Int>) -> Void
    ) -> UnsafeMutablePointer<UInt64>? {
        let count = rays.count
        guard count >= TriangleBVH.coherentBatchMinimum, count < Int(Int32.max), let root else { return nil }
        let parts = Swift.max(1, Swift.min(requested, scratch.parts, count))
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
        let keys = scratch.keys, records = scratch.records, counts = scratch.counts
        // Each part writes only its own keys, records and counters.
        parallelChunks(parts, minimumChunk: 1) { chunk in
            for part in chunk {
                let range = PartRanges.range(part, of: parts, count: count)
                for i in range {
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
                TriangleBVH.countDigits(keys, range, into: counts + part * TriangleBVH.orderCounts, passes: 0..<TriangleBVH.digitPasses)
                alongside(range)
            }
        }
        return TriangleBVH.radixSort(keys, spare: scratch.spare, count: count, counts: counts, parts: parts)
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
