/// The occlusion graph of the exact sort: one node per triangle, an edge b → f when b must be drawn
/// before f (they overlap on screen and f is nearer over the whole overlap). Adjacency is stored as
/// compressed rows; every walk uses explicit stacks, so no input can make the call stack deep.
struct OcclusionGraph: Sendable {
    let count: Int
    /// The successors of t are `targets[offsets[t]..<offsets[t + 1]]`.
    private(set) var offsets: [Int32]
    private(set) var targets: [Int32]

    /// The graph of `count` nodes with edges `back[k]` → `front[k]` (fewer than Int32.max edges).
    init(count: Int, back: [Int32], front: [Int32]) {
        self.count = count
        var offsets = [Int32](repeating: 0, count: count + 1)
        for b in back { offsets[Int(b) + 1] += 1 }
        for t in 0..<count { offsets[t + 1] += offsets[t] }
        var fill = offsets
        var targets = [Int32](repeating: 0, count: back.count)
        for k in back.indices {
            let b = Int(back[k])
            targets[Int(fill[b])] = front[k]
            fill[b] += 1
        }
        self.offsets = offsets
        self.targets = targets
    }

    /// The strongly connected components of two or more nodes (cycles of "must be drawn before"),
    /// by Tarjan's algorithm with an explicit stack: `component[t]` is the index of t's component in
    /// `members`, or −1 when t is alone; each member list is ascending.
    func cyclicComponents() -> (component: [Int32], members: [[Int32]]) {
        var component = [Int32](repeating: -1, count: count)
        var members: [[Int32]] = []
        guard !targets.isEmpty else { return (component, members) }
        var index = [Int32](repeating: -1, count: count)
        var low = [Int32](repeating: 0, count: count)
        var onStack = [Bool](repeating: false, count: count)
        var stack: [Int32] = []
        // The walk: a node and the position of its next edge to follow.
        var walk: [(node: Int32, edge: Int32)] = []
        var counter: Int32 = 0
        for root in 0..<count where index[root] < 0 && offsets[root] < offsets[root + 1] {
            index[root] = counter
            low[root] = counter
            counter += 1
            stack.append(Int32(root))
            onStack[root] = true
            walk.append((Int32(root), offsets[root]))
            while let top = walk.last {
                let v = Int(top.node)
                if top.edge < offsets[v + 1] {
                    walk[walk.count - 1].edge += 1
                    let w = Int(targets[Int(top.edge)])
                    if index[w] < 0 {
                        index[w] = counter
                        low[w] = counter
                        counter += 1
                        stack.append(Int32(w))
                        onStack[w] = true
                        walk.append((Int32(w), offsets[w]))
                    } else if onStack[w] {
                        low[v] = min(low[v], index[w])
                    }
                    continue
                }
                walk.removeLast()
                if let parent = walk.last { low[Int(parent.node)] = min(low[Int(parent.node)], low[v]) }
                guard low[v] == index[v] else { continue }
                // v is the root of a component: everything above it on the stack. Most are v
                // alone (no cycle), which needs no list.
                if stack.last == Int32(v) {
                    stack.removeLast()
                    onStack[v] = false
                    continue
                }
                var found: [Int32] = []
                while let x = stack.popLast() {
                    onStack[Int(x)] = false
                    found.append(x)
                    if Int(x) == v { break }
                }
                if found.count > 1 {
                    found.sort()
                    for x in found { component[Int(x)] = Int32(members.count) }
                    members.append(found)
                }
            }
        }
        return (component, members)
    }

    /// A back-to-front order of the nodes with each component (from `cyclicComponents`) drawn as a
    /// whole, its pieces given by `drawn[c]`: a topological order of the graph with the components
    /// contracted, which is acyclic. Among the nodes free to go next, the one with the smallest
    /// index (a component's smallest member) goes, so the result is deterministic and a graph without
    /// edges keeps the input order. Only nodes that become free after the scan passed them wait in a
    /// heap.
    func order(component: [Int32], members: [[Int32]], drawn: [[Int32]]) -> [Int32] {
        @inline(__always) func key(_ t: Int) -> Int {
            let c = component[t]
            return c < 0 ? t : Int(members[Int(c)][0])
        }
        var waiting = [Int32](repeating: 0, count: count) // edges into each key from other keys
        for u in 0..<count {
            let ku = key(u)
            for e in Int(offsets[u])..<Int(offsets[u + 1]) {
                let kv = key(Int(targets[e]))
                if kv != ku { waiting[kv] += 1 }
            }
        }
        var result: [Int32] = []
        result.reserveCapacity(count + drawn.reduce(0) { $0 + $1.count })
        var heap = MinHeap()
        var scan = 0
        while true {
            let next: Int
            if let top = heap.pop() {
                next = top
            } else {
                while scan < count && (key(scan) != scan || waiting[scan] != 0) { scan += 1 }
                guard scan < count else { break }
                next = scan
                scan += 1
            }
            let c = component[next]
            // Frees the nodes that waited only on `from`.
            func release(_ from: Int) {
                for e in Int(offsets[from])..<Int(offsets[from + 1]) {
                    let kv = key(Int(targets[e]))
                    guard kv != next else { continue }
                    waiting[kv] -= 1
                    if waiting[kv] == 0 && kv < scan { heap.push(kv) }
                }
            }
            if c < 0 {
                result.append(Int32(next))
                release(next)
            } else {
                result += drawn[Int(c)]
                for m in members[Int(c)] { release(Int(m)) }
            }
        }
        return result
    }
}

/// A binary min-heap of node indices.
private struct MinHeap {
    private var items: [Int32] = []

    mutating func push(_ x: Int) {
        items.append(Int32(x))
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard items[parent] > items[i] else { break }
            items.swapAt(parent, i)
            i = parent
        }
    }

    mutating func pop() -> Int? {
        guard let first = items.first else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var smallest = i
                if l < items.count && items[l] < items[smallest] { smallest = l }
                if r < items.count && items[r] < items[smallest] { smallest = r }
                guard smallest != i else { break }
                items.swapAt(smallest, i)
                i = smallest
            }
        }
        return Int(first)
    }
}
