import SurfaceKit

extension PairOcclusion {
    /// Sorts each cell's members by the left side of their boxes, so a sweep stops at the first box
    /// that starts right of the current one's end (insertion sort: cells are small).
    static func sortByLeftSide(_ members: inout [Int32], boxes cellBoxes: inout [SIMD4<Float>], start: [Int32]) {
        let cellCount = start.count - 1
        members.withUnsafeMutableBufferPointer { members in
            cellBoxes.withUnsafeMutableBufferPointer { boxes in
                for cell in 0..<cellCount {
                    let lower = Int(start[cell]), upper = Int(start[cell + 1])
                    guard upper - lower > 1 else { continue }
                    for i in (lower + 1)..<upper {
                        let (m, b) = (members[i], boxes[i])
                        var j = i
                        while j > lower, boxes[j - 1].x > b.x {
                            members[j] = members[j - 1]
                            boxes[j] = boxes[j - 1]
                            j -= 1
                        }
                        members[j] = m
                        boxes[j] = b
                    }
                }
            }
        }
    }

    /// The search for overlapping pairs over the grid of the candidates' boxes: each pair whose
    /// boxes (and boxes along the diagonals) meet is taken once, in the cell holding the corner
    /// where the boxes start to meet, and ordered by `PairOcclusion.relation`.
    struct PairSearch {
        let screen: UnsafeBufferPointer<Point3D>
        let triangles: UnsafeBufferPointer<SIMD3<Int32>>
        /// Screen-area signs by triangle (0: in no pair).
        let signs: [Int8]
        /// The candidates in index order (slots), with their boxes in cell order, their boxes
        /// along the diagonals and their cells by slot.
        let list: [Int32]
        let boxes: [SIMD4<Float>]
        let diagonals: [SIMD4<Float>]
        let ranges: [SIMD4<Int32>]
        /// Cell c's entries are `members[start[c]..<start[c + 1]]` (slots).
        let members: [Int32]
        let start: [Int32]
        let columns: Int
        let rows: Int

        /// The pairs that overlap, ordered, with clusters; nil past `limit` overlapping pairs.
        func pairs(limit: Int) -> OcclusionPairs? {
            let s = screen, tris = triangles, sign = signs, nx = columns, ny = rows
            var found = OcclusionPairs()
            // Overlap clusters, for the statistics (roots are cluster minima).
            var clusters = UnionFind(count: list.count)
            for cy in 0..<ny {
                for cx in 0..<nx {
                    let cell = cy * nx + cx
                    let range = Int(start[cell])..<Int(start[cell + 1])
                    for p in range {
                        let si = Int(members[p])
                        let i = Int(list[si])
                        let bi = boxes[p]
                        let ri = ranges[si]
                        for q in (p + 1)..<range.upperBound {
                            let sj = Int(members[q])
                            let bj = boxes[q]
                            // Sorted by left side: bj.x ≥ bi.x, and no later box can reach bi.
                            if bj.x >= bi.z { break }
                            guard bi.w > bj.y, bj.w > bi.y else { continue }
                            // Each pair once: in the cell holding the corner where the boxes start to meet.
                            // Cells grow with the coordinates, so that corner's cell is the larger of
                            // the two boxes' first cells, computed once per box for the binning.
                            let rj = ranges[sj]
                            guard max(ri.x, rj.x) == Int32(cx), max(ri.y, rj.y) == Int32(cy) else { continue }
                            let di = diagonals[si], dj = diagonals[sj]
                            guard di.z >= dj.x, dj.z >= di.x, di.w >= dj.y, dj.w >= di.y else { continue }
                            let j = Int(list[sj])
                            let relation = PairOcclusion.relation(
                                tris[i], tris[j], s, signs: (Double(sign[i]), Double(sign[j])))
                            if relation == .apart { continue }
                            found.overlappingPairs += 1
                            let (a, b) = (Int32(i), Int32(j))
                            if let (back, front) = relation.backAndFront(a, b) {
                                found.back.append(back)
                                found.front.append(front)
                            } else if relation == .crossing {
                                // Tied both ways: no order of the whole triangles draws them right.
                                found.crossingPairs += 1
                                found.back += [a, b]
                                found.front += [b, a]
                            }
                            clusters.union(Int32(si), Int32(sj))
                            if found.overlappingPairs > limit { return nil }
                        }
                    }
                }
            }
            (found.clusters, found.largestCluster) = clusters.groups()
            return found
        }
    }
}
