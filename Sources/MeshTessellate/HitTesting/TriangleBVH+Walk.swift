import CSwiftRuntimeShims
import SurfaceKit

extension TriangleBVH.Traversal {
    /// One ray's walk through the hierarchy, a node or a leaf at a time (``step(nodes:traversal:)``),
    /// with its own part of the traversal's stack. A walk is a chain of dependent loads and
    /// comparisons, each node's address coming out of the one before; ``firstHits(_:into:)``
    /// keeps ``TriangleBVH/walksAtOnce`` walks going at once so the processor overlaps their
    /// waits. Both it and
    /// ``firstHit(origin:direction:tmin:tmax:)`` take the same steps, so they give the same answers.
    struct Walk {
        let origin: SIMD3<Double>
        let direction: SIMD3<Double>
        let tmin: Double
        let tmax: Double
        // The ray's single-precision form (see `setup`), each value in all four lanes.
        let nx: SIMD4<Float>, ny: SIMD4<Float>, nz: SIMD4<Float>
        let fx: SIMD4<Float>, fy: SIMD4<Float>, fz: SIMD4<Float>
        let ix: SIMD4<Float>, iy: SIMD4<Float>, iz: SIMD4<Float>
        let lower: SIMD4<Float>
        // Where the near and far bound of each axis lie in a node (the minimum is near along a
        // positive direction), so the slab test needs no minimum and maximum per axis.
        let nearX: Int, farX: Int, nearY: Int, farY: Int, nearZ: Int, farZ: Int
        /// The stack entries this walk may use.
        let bottom: Int
        let limit: Int
        var top: Int
        /// What the walk visits next: a node (`count == 0`) or a leaf.
        var child: Int32 = 0
        var count: Int32 = 0
        /// The nearest hit so far, and its t rounded up (the box tests' upper bound).
        var best: TriangleBVH.Traversal.Best
        var upperBound: Float
        /// The ray's index in a batch, or −1 for no ray (see ``firstHits(_:into:)``).
        var ray: Int
        /// Whether a child had to be left out for want of stack (never with the trees the builds
        /// make; see `TriangleBVH.stackCapacity`).
        var overflowed = false

        /// The walk from the root of the ray with single-precision form `ray` (see `setup`), batch
        /// index `index`.
        @inline(__always)
        init(
            origin o: SIMD3<Double>, direction d: SIMD3<Double>, tmin: Double, tmax: Double,
            ray: TriangleBVH.Traversal.RaySetup, stack: Range<Int>, index: Int = -1
        ) {
            typealias Offset = WideNode.Offset
            origin = o
            direction = d
            self.tmin = tmin
            self.tmax = tmax
            (nearX, farX) = ray.inverse.x < 0 ? (Offset.maxX, Offset.minX) : (Offset.minX, Offset.maxX)
            (nearY, farY) = ray.inverse.y < 0 ? (Offset.maxY, Offset.minY) : (Offset.minY, Offset.maxY)
            (nearZ, farZ) = ray.inverse.z < 0 ? (Offset.maxZ, Offset.minZ) : (Offset.minZ, Offset.maxZ)
            nx = SIMD4(repeating: ray.near.x)
            ny = SIMD4(repeating: ray.near.y)
            nz = SIMD4(repeating: ray.near.z)
            fx = SIMD4(repeating: ray.far.x)
            fy = SIMD4(repeating: ray.far.y)
            fz = SIMD4(repeating: ray.far.z)
            ix = SIMD4(repeating: ray.inverse.x)
            iy = SIMD4(repeating: ray.inverse.y)
            iz = SIMD4(repeating: ray.inverse.z)
            lower = SIMD4(repeating: ray.tmin)
            bottom = stack.lowerBound
            limit = stack.upperBound
            top = stack.lowerBound
            best = TriangleBVH.Traversal.Best(far: tmax)
            upperBound = ray.tmax
            self.ray = index
        }

        /// The answer once ``step(nodes:traversal:)`` has returned `false`: the nearest hit, or, if
        /// the walk had to leave a child out, the nearest over every triangle.
        func answer(traversal: TriangleBVH.Traversal) -> TriangleHit {
            overflowed
                ? traversal.everyTriangle(origin: origin, direction: direction, tmin: tmin, tmax: tmax) : best.hit
        }

        /// Tests the current node or leaf and moves on to the next; `false` when nothing is left
        /// (the answer is then `best`).
        @inline(__always)
        mutating func step(nodes: UnsafeRawPointer, traversal: TriangleBVH.Traversal) -> Bool {
            if count > 0 {
                traversal.testLeaf(
                    first: Int(child), count: Int(count), origin: origin, direction: direction, tmin: tmin, best: &best)
                upperBound = best.farFloat
            } else {
                let node = nodes + Int(child) * WideNode.size
                let x0 = (node.load(fromByteOffset: nearX, as: SIMD4<Float>.self) - nx) * ix
                let x1 = (node.load(fromByteOffset: farX, as: SIMD4<Float>.self) - fx) * ix
                let y0 = (node.load(fromByteOffset: nearY, as: SIMD4<Float>.self) - ny) * iy
                let y1 = (node.load(fromByteOffset: farY, as: SIMD4<Float>.self) - fy) * iy
                let z0 = (node.load(fromByteOffset: nearZ, as: SIMD4<Float>.self) - nz) * iz
                let z1 = (node.load(fromByteOffset: farZ, as: SIMD4<Float>.self) - fz) * iz
                // NaN (a ray in a bounding plane it does not move across) must lose: it is the
                // first operand of each, and an axis's NaN never reaches a comparison with another
                // axis's value.
                let near = shims_larger(x0, shims_larger(y0, shims_larger(z0, lower)))
                let far = shims_smaller(x1, shims_smaller(y1, shims_smaller(z1, SIMD4(repeating: upperBound))))
                // Bit k set when the ray enters child k.
                var bits = shims_lanes_at_most(near, far)
                if bits != 0 {
                    @inline(__always) func children(_ lane: Int) -> (child: Int32, count: Int32) {
                        (
                            node.load(fromByteOffset: WideNode.Offset.child + 4 * lane, as: Int32.self),
                            node.load(fromByteOffset: WideNode.Offset.count + 4 * lane, as: Int32.self)
                        )
                    }
                    let first = Int(bits.trailingZeroBitCount)
                    bits &= bits - 1
                    if bits == 0 {
                        (child, count) = children(first)
                        return true
                    }
                    // Two or more: all go on the stack, farthest deepest, and the nearest is taken
                    // off again.
                    let stack = traversal.stack
                    let base = top
                    var lane = first
                    while true {
                        if top < limit {
                            var k = top
                            let (c, n) = children(lane)
                            let entry = TriangleBVH.StackEntry(child: c, count: n, near: near[lane])
                            // Insertion: nearer entries end up on top.
                            while k > base, stack[k - 1].near < entry.near {
                                stack[k] = stack[k - 1]
                                k -= 1
                            }
                            stack[k] = entry
                            top += 1
                        } else {
                            // A child left out: this walk's answer cannot be trusted (see `answer`).
                            overflowed = true
                        }
                        if bits == 0 { break }
                        lane = Int(bits.trailingZeroBitCount)
                        bits &= bits - 1
                    }
                    top -= 1
                    child = stack[top].child
                    count = stack[top].count
                    return true
                }
            }
            // Pop, skipping children that now lie beyond the nearest hit.
            let stack = traversal.stack
            while top > bottom {
                top -= 1
                let entry = stack[top]
                if entry.near <= upperBound {
                    child = entry.child
                    count = entry.count
                    return true
                }
            }
            return false
        }
    }

    /// The first hit of each of `rays`, into `hits[0..<rays.count]`: each the answer
    /// ``firstHit(origin:direction:tmin:tmax:)`` gives, found ``TriangleBVH/walksAtOnce`` walks
    /// at a time, a step of each in turn.
    func firstHits(_ rays: UnsafeBufferPointer<Ray>, into hits: UnsafeMutablePointer<TriangleHit>) {
        guard let nodes else {
            for i in rays.indices { (hits + i).initialize(to: .noHit) }
            return
        }
        let lanes = TriangleBVH.walksAtOnce
        let part = TriangleBVH.stackPart
        withUnsafeTemporaryAllocation(of: Walk.self, capacity: lanes) { walks in
            guard let walks = walks.baseAddress else { return }
            var next = 0
            var running = 0
            for lane in 0..<lanes where start(walks + lane, stack: lane * part..<(lane + 1) * part, rays, &next, hits) {
                running += 1
            }
            // Lanes are started in order; the ones left over hold no ray.
            guard running > 0 else { return }
            for lane in running..<lanes {
                (walks + lane).initialize(to: walks[0])
                walks[lane].ray = -1
            }
            var lane = 0
            while running > 0 {
                let walk = walks + lane
                if walk.pointee.ray >= 0, !walk.pointee.step(nodes: nodes, traversal: self) {
                    (hits + walk.pointee.ray).initialize(to: walk.pointee.answer(traversal: self))
                    if !start(walk, stack: lane * part..<(lane + 1) * part, rays, &next, hits) {
                        walk.pointee.ray = -1
                        running -= 1
                    }
                }
                lane = lane + 1 == lanes ? 0 : lane + 1
            }
        }
    }

    /// Puts the walk of the next ray that needs one at `walk` and returns `true`, or returns
    /// `false` when no ray is left; rays that need no walk are answered on the way.
    private func start(
        _ walk: UnsafeMutablePointer<Walk>, stack part: Range<Int>, _ rays: UnsafeBufferPointer<Ray>, _ next: inout Int,
        _ hits: UnsafeMutablePointer<TriangleHit>
    ) -> Bool {
        while next < rays.count {
            let i = next
            next += 1
            let ray = rays[i]
            switch prepare(origin: ray.origin, direction: ray.direction, tmin: ray.tmin, tmax: ray.tmax) {
            case .answered(let hit):
                (hits + i).initialize(to: hit)
            case .walk(let setup):
                walk.initialize(
                    to: Walk(
                        origin: ray.origin, direction: ray.direction, tmin: ray.tmin, tmax: ray.tmax, ray: setup, stack: part, index: i))
                return true
            }
        }
        return false
    }
}
