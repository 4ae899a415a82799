import SurfaceKit

extension CellStitcher {
    /// The largest distance, in points, between the flat triangle (a, b, c) and `patch` at the
    /// ``measuredPoints``; where that is above ``denseShare`` of the pass ``mark``, at the
    /// ``denseLattice`` too, and where that comes within ``finestMargin`` of the mark, at the
    /// ``finestLattice``.
    ///
    /// The largest of the squared distances is found first and its square root taken once: a
    /// correctly rounded square root never decreases as its argument grows, so the root of the
    /// largest square is the largest of the roots, bit for bit. A NaN square is passed over by
    /// `max` as a NaN distance would be, and when every square is NaN the result is 0, which
    /// leaves a running largest distance as it was.
    ///
    /// The largest of the squares does not depend on the order they come in, and a point
    /// measured twice adds nothing, so each lattice measures only the points the coarser ones
    /// left out (``denseAdded``, ``finestAdded``): the points they share have the same weights
    /// to the bit, so the same distances. The surface points are evaluated
    /// ``RationalPatch/positionBatch`` at a time (``RationalPatch/positions(at:into:)``), the
    /// same bits as one by one.
    func measured(_ a: Local, _ b: Local, _ c: Local, on patch: RationalPatch) -> Double {
        CellStitcher.measured(
            uv: (a.uv, b.uv, c.uv), points: (points[Int(a.id)], points[Int(b.id)], points[Int(c.id)]), on: patch, scale: scale,
            mark: mark)
    }

    /// ``measured(_:_:_:on:)`` for the triangle with corners at parameters `uv` and points-space
    /// positions `points`, on `patch` scaled by `scale`, for the pass mark `mark`.
    static func measured(
        uv: (SIMD2<Double>, SIMD2<Double>, SIMD2<Double>), points: (Point3D, Point3D, Point3D), on patch: RationalPatch,
        scale: SIMD3<Double>, mark: Double
    ) -> Double {
        let (pa, pb, pc) = points
        let batch = RationalPatch.positionBatch
        return withUnsafeTemporaryAllocation(of: SIMD2<Double>.self, capacity: batch) { parameters in
            withUnsafeTemporaryAllocation(of: Point3D.self, capacity: batch) { surface in
                func largestSquare(_ weights: [SIMD3<Double>], from start: Double) -> Double {
                    var largest = start
                    weights.withUnsafeBufferPointer { all in
                        var first = 0
                        while first < all.count {
                            let count = min(batch, all.count - first)
                            for k in 0..<count {
                                let w = all[first + k]
                                parameters[k] = w.x * uv.0 + w.y * uv.1 + w.z * uv.2
                            }
                            patch.positions(at: UnsafeBufferPointer(rebasing: parameters[0..<count]), into: surface)
                            for k in 0..<count {
                                let w = all[first + k]
                                let d = surface[k] * scale - (w.x * pa + w.y * pb + w.z * pc)
                                largest = max(largest, (d * d).sum())
                            }
                            first += count
                        }
                    }
                    return largest
                }
                let ten = largestSquare(CellStitcher.measuredPoints, from: 0)
                // `!(… <= …)`: a NaN goes on to the lattices, where it is passed over the same way.
                guard !(ten.squareRoot() <= mark * CellStitcher.denseShare) else { return ten.squareRoot() }
                let lattice = largestSquare(CellStitcher.denseAdded, from: ten)
                guard !(lattice.squareRoot() <= mark / CellStitcher.finestMargin) else { return lattice.squareRoot() }
                return largestSquare(CellStitcher.finestAdded, from: lattice).squareRoot()
            }
        }
    }

    /// Barycentric (i, j, k)/n with i + j + k = n, corners left out (they are surface samples).
    static func lattice(_ n: Int) -> [SIMD3<Double>] {
        (0...n).flatMap { i in
            (0...(n - i)).compactMap { j -> SIMD3<Double>? in
                let k = n - i - j
                return i == n || j == n || k == n ? nil : SIMD3(Double(i), Double(j), Double(k)) / Double(n)
            }
        }
    }

    /// Barycentric twelfths: 88 points, among them all ten ``measuredPoints`` (thirds, halves
    /// and quarters are twelfths), so a triangle's lattice distance is never below its ten-point
    /// distance. The ten points can miss a triangle's largest distance badly: a joining ring's
    /// long, thin triangles, and those along a border, measured up to 1/0.64 times their ten-point
    /// distance at a lattice of thirtieths on the held-out ripples. On the same triangles the
    /// twelfths were at most 0.9% below the thirtieths.
    static let denseLattice = lattice(12)

    /// Barycentric twenty-fourths (322 points, the twelfths among them), for the few triangles
    /// whose twelfths come within ``finestMargin`` of the mark: half the spacing, so about a quarter
    /// of the twelfths' 0.9% is left between the points, inside the mark's 1%.
    static let finestLattice = lattice(24)

    /// The points of the ``denseLattice`` that are not ``measuredPoints`` (78 of its 88): thirds,
    /// halves and quarters are twelfths, and a twelfth computed as (i, j, k)/12 is the same
    /// double as the same fraction in lowest terms (both are the correctly rounded quotient of
    /// the same number), so the ten points drop out exactly.
    static let denseAdded = denseLattice.filter { !measuredPoints.contains($0) }

    /// The points of the ``finestLattice`` that are not in the ``denseLattice`` (234 of its 322),
    /// by the same argument.
    static let finestAdded = finestLattice.filter { !denseLattice.contains($0) }

    /// Triangles whose ten-point distance is above this share of the pass mark are measured at
    /// the ``denseLattice``. Below it the lattice cannot change whether the cell passes: no
    /// triangle of the held-out ripples over half the mark measured less than 0.64 of its
    /// largest distance at its ten points.
    static let denseShare = 0.5

    /// Twelfths above the pass mark divided by this go on to the ``finestLattice``: twice the
    /// most the twelfths were seen to miss.
    static let finestMargin = 1.02
}
