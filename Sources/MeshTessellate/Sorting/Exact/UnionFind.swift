/// A union-find over `count` items whose roots are the smallest members (path halving).
struct UnionFind {
    private var parent: [Int32]

    init(count: Int) { parent = [Int32](repeating: -1, count: count) }

    @inline(__always)
    mutating func find(_ x: Int32) -> Int32 {
        var x = x
        while true {
            let p = parent[Int(x)]
            if p < 0 { return x }
            let grand = parent[Int(p)]
            if grand < 0 { return p }
            parent[Int(x)] = grand
            x = grand
        }
    }

    @inline(__always)
    mutating func union(_ a: Int32, _ b: Int32) {
        let ra = find(a), rb = find(b)
        if ra < rb { parent[Int(rb)] = ra } else if rb < ra { parent[Int(ra)] = rb }
    }

    /// The groups of two or more items, and the size of the largest.
    mutating func groups() -> (count: Int, largest: Int) {
        var size = [Int32](repeating: 0, count: parent.count)
        for t in parent.indices where parent[t] >= 0 { size[Int(find(Int32(t)))] += 1 }
        var count = 0, largest = 0
        for t in parent.indices where size[t] > 0 {
            count += 1
            largest = max(largest, Int(size[t]) + 1)
        }
        return (count, largest)
    }
}
