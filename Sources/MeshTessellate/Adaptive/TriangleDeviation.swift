import SurfaceKit

extension CellStitcher {
    /// The largest distance, in points, between the flat triangle (a, b, c) and `patch` at the
    /// ``measuredPoints``.
    ///
    /// The largest of the squared distances is found first and its square root taken once: a
    /// correctly rounded square root never decreases as its argument grows, so the root of the
    /// largest square is the largest of the roots, bit for bit. A NaN square is passed over by
    /// `max` as a NaN distance would be, and when every square is NaN the result is 0, which
    /// leaves a running largest distance as it was.
    func measured(_ a: Local, _ b: Local, _ c: Local, on patch: RationalPatch) -> Double {
        let pa = points[Int(a.id)], pb = points[Int(b.id)], pc = points[Int(c.id)]
        var largest = 0.0
        for w in CellStitcher.measuredPoints {
            let uv = w.x * a.uv + w.y * b.uv + w.z * c.uv
            let d = patch.position(u: uv.x, v: uv.y) * scale - (w.x * pa + w.y * pb + w.z * pc)
            largest = max(largest, (d * d).sum())
        }
        return largest.squareRoot()
    }
}
