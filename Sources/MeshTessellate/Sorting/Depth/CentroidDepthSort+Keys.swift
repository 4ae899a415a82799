import SurfaceKit

/// The key pass: each triangle's centroid depth and the count of its code's top digit.
extension CentroidDepthSort {
    /// The code of `key`: its place on the scale, clamped (a key can round a little outside the
    /// vertices' range, and an infinite one goes to an end; NaN goes to 0, and the caller refuses
    /// NaN keys anyway), rounded to an integer by adding 2^52 (round to nearest, which never
    /// decreases either, and needs no checked conversion).
    @inline(__always)
    static func code(_ key: Double, lo: Double, scale: Double) -> UInt64 {
        let x = (key - lo) * scale
        let clamped = x > 0 ? (x < maxCode ? x : maxCode) : 0
        return (clamped + 0x1p52).bitPattern & ((1 << 52) - 1)
    }

    /// The keys of all `triangles` into `keys` and their top digits counted, in `parts` parts on all
    /// cores (each part its own histograms, `histogramCopies` interleaved copies each, in part
    /// order); with the NaN keys and the triangles with an index out of range (whose keys are not
    /// written).
    static func countedKeys(
        triangles: UnsafeBufferPointer<SIMD3<Int32>>, z: UnsafeBufferPointer<Double>, vertexCount: Int,
        into keys: UnsafeMutableBufferPointer<Double>, lo: Double, scale: Double, parts: Int
    ) -> (histograms: [UInt32], nan: Int, bad: Int) {
        let n = triangles.count
        let radix = 1 << topBits
        let copies = histogramCopies
        var histograms = [UInt32](repeating: 0, count: parts * copies * radix)
        // Per part: NaN keys and triangles with a bad index.
        var flags = [Int](repeating: 0, count: parts * 2)
        // Indices are Int32, so clamping keeps every bounds check right.
        let vertices = UInt32(clamping: vertexCount)
        histograms.withUnsafeMutableBufferPointer { hb in
            flags.withUnsafeMutableBufferPointer { fb in
                guard let hBase = hb.baseAddress, let fBase = fb.baseAddress, let zBase = z.baseAddress,
                    let tBase = triangles.baseAddress, let kBase = keys.baseAddress
                else { return }
                let h = SharedMutableBuffer(base: hBase), f = SharedMutableBuffer(base: fBase)
                let k = SharedMutableBuffer(base: kBase)
                let zs = UncheckedSendable(zBase), ts = UncheckedSendable(tBase)
                parallelChunks(parts, minimumChunk: 1) { chunk in
                    for p in chunk {
                        let (nan, bad) = makeKeys(
                            triangles: ts.value, z: zs.value, vertexCount: vertices, range: partRange(p, of: n, parts: parts),
                            keys: k.base, histogram: h.base + p * copies * radix, lo: lo, scale: scale)
                        f.base[2 * p] = nan
                        f.base[2 * p + 1] = bad
                    }
                }
            }
        }
        var nanCount = 0, badCount = 0
        for p in 0..<parts {
            nanCount += flags[2 * p]
            badCount += flags[2 * p + 1]
        }
        return (histograms, nanCount, badCount)
    }

    /// Keys of `triangles[range]` into `keys`, their top digits counted into `histogram`
    /// (`histogramCopies` interleaved copies); returns the NaN keys and the triangles with an index
    /// out of range (whose keys are not written).
    static func makeKeys(
        triangles: UnsafePointer<SIMD3<Int32>>, z: UnsafePointer<Double>, vertexCount: UInt32, range: Range<Int>,
        keys: UnsafeMutablePointer<Double>, histogram: UnsafeMutablePointer<UInt32>, lo: Double, scale: Double
    ) -> (nan: Int, bad: Int) {
        let radix = 1 << topBits
        let lowShift = UInt64(2 * lowBits)
        var nan = 0, bad = 0
        for i in range {
            let t = triangles[i]
            let a = UInt32(bitPattern: t.x), b = UInt32(bitPattern: t.y), c = UInt32(bitPattern: t.z)
            // Checked before any read (negative indices are huge here); the caller refuses the
            // mesh, so the missing key is never used.
            guard Swift.max(a, b, c) < vertexCount else {
                bad += 1
                continue
            }
            let key = (z[Int(a)] + z[Int(b)] + z[Int(c)]) / 3
            keys[i] = key
            nan &+= key.isNaN ? 1 : 0
            histogram[(i & (histogramCopies - 1)) &* radix &+ Int(code(key, lo: lo, scale: scale) >> lowShift)] &+= 1
        }
        return (nan, bad)
    }
}
