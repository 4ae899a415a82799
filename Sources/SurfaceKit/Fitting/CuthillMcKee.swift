/// Reverse Cuthill–McKee ordering: a renumbering of a sparse matrix's unknowns that keeps
/// neighbours close, so that the matrix has a narrow band and banded LU stays cheap.
///
/// Each connected piece is numbered by breadth-first search from a pseudo-peripheral vertex
/// (George and Liu's method: a vertex at the end of a longest shortest path, approximately),
/// visiting neighbours in order of increasing degree; the whole order is then reversed, which
/// never widens the band and usually reduces fill.
enum CuthillMcKee {
    /// The symmetric adjacency (without the diagonal) of a square sparse pattern, in compressed
    /// rows; entry (i, j) links i and j both ways.
    static func symmetricAdjacency(order n: Int, offsets: [Int], columns: [Int32]) -> (offsets: [Int], neighbours: [Int32]) {
        var degree = [Int](repeating: 0, count: n + 1)
        for i in 0..<n {
            for k in offsets[i]..<offsets[i + 1] where Int(columns[k]) != i {
                degree[i + 1] += 1
                degree[Int(columns[k]) + 1] += 1
            }
        }
        for i in 0..<n { degree[i + 1] += degree[i] }
        var cursor = degree
        var raw = [Int32](repeating: 0, count: degree[n])
        for i in 0..<n {
            for k in offsets[i]..<offsets[i + 1] where Int(columns[k]) != i {
                let j = Int(columns[k])
                raw[cursor[i]] = Int32(j)
                cursor[i] += 1
                raw[cursor[j]] = Int32(i)
                cursor[j] += 1
            }
        }
        // Both directions of a symmetric entry were added twice; keep each neighbour once.
        var resultOffsets = [Int](repeating: 0, count: n + 1)
        var result = [Int32]()
        result.reserveCapacity(raw.count / 2 + n)
        for i in 0..<n {
            var row = Array(raw[degree[i]..<degree[i + 1]])
            row.sort()
            var last: Int32 = -1
            for j in row where j != last {
                result.append(j)
                last = j
            }
            resultOffsets[i + 1] = result.count
        }
        return (resultOffsets, result)
    }

    /// The reverse Cuthill–McKee order: `order[k]` is the original index of the unknown numbered
    /// k. Covers every vertex, one connected piece after another.
    static func reverseOrder(order n: Int, offsets: [Int], neighbours: [Int32]) -> [Int32] {
        func degree(_ v: Int) -> Int { offsets[v + 1] - offsets[v] }
        var numbered = [Bool](repeating: false, count: n)
        var result = [Int32]()
        result.reserveCapacity(n)
        // Breadth-first levels for the peripheral search, marked with a per-search stamp so the
        // marks never need clearing.
        var stamp = [Int32](repeating: -1, count: n)
        var searches: Int32 = 0
        var queue = [Int32]()
        queue.reserveCapacity(n)

        /// Breadth-first search from `root`; returns (eccentricity, the lowest-degree vertex of the
        /// last level).
        func levels(from root: Int) -> (Int, Int) {
            searches += 1
            queue.removeAll(keepingCapacity: true)
            queue.append(Int32(root))
            stamp[root] = searches
            var head = 0, depth = 0, levelStart = 0
            while head < queue.count {
                let levelEnd = queue.count
                while head < levelEnd {
                    let v = Int(queue[head])
                    head += 1
                    for k in offsets[v]..<offsets[v + 1] {
                        let w = Int(neighbours[k])
                        if stamp[w] != searches {
                            stamp[w] = searches
                            queue.append(Int32(w))
                        }
                    }
                }
                if queue.count > levelEnd {
                    depth += 1
                    levelStart = levelEnd
                }
            }
            var best = Int(queue[levelStart])
            for k in levelStart..<queue.count where degree(Int(queue[k])) < degree(best) {
                best = Int(queue[k])
            }
            return (depth, best)
        }

        var scratch = [Int32]()
        for seed in 0..<n where !numbered[seed] {
            // The piece's lowest-degree vertex, found through one search, starts George–Liu.
            _ = levels(from: seed)
            var root = seed
            for v in queue where degree(Int(v)) < degree(root) { root = Int(v) }
            var (eccentricity, candidate) = levels(from: root)
            // Each round strictly lengthens the eccentricity, so it ends within the piece's diameter.
            while true {
                let (e, next) = levels(from: candidate)
                guard e > eccentricity else { break }
                root = candidate
                eccentricity = e
                candidate = next
            }
            // Cuthill–McKee from the root.
            var head = result.count
            result.append(Int32(root))
            numbered[root] = true
            while head < result.count {
                let v = Int(result[head])
                head += 1
                scratch.removeAll(keepingCapacity: true)
                for k in offsets[v]..<offsets[v + 1] where !numbered[Int(neighbours[k])] {
                    let w = neighbours[k]
                    numbered[Int(w)] = true
                    scratch.append(w)
                }
                scratch.sort { (degree(Int($0)), $0) < (degree(Int($1)), $1) }
                result.append(contentsOf: scratch)
            }
        }
        result.reverse()
        return result
    }
}
