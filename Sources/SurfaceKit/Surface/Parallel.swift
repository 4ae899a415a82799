import Dispatch
import Synchronization

/// Runs `body` over `0..<count` split into contiguous chunks, on all cores when the work is large
/// enough to pay for the threads. Chunks are disjoint, so bodies that write only their own range of
/// an output buffer do not race.
@inline(__always)
package func parallelChunks(_ count: Int, minimumChunk: Int = 16_384, _ body: (Range<Int>) -> Void) {
    let cores = ProcessInfoCores.count
    let chunks = Swift.min(cores * 4, Swift.max(1, count / minimumChunk))
    if chunks <= 1 || cores == 1 {
        body(0..<count)
        return
    }
    // The caller promises the chunks touch disjoint state; the box lets the non-Sendable closure
    // cross into Dispatch's worker threads, which all finish before this returns.
    withoutActuallyEscaping(body) { body in
        let box = UncheckedSendable(body)
        DispatchQueue.concurrentPerform(iterations: chunks) { c in
            let lo = count * c / chunks, hi = count * (c + 1) / chunks
            box.value(lo..<hi)
        }
    }
}

/// `body(0)`, …, `body(count − 1)`, each part on its own (on all cores when there are several),
/// the results in part order: for work cut into a few parts that each make their own result.
package func parallelParts<Result>(_ count: Int, _ body: (Int) -> Result) -> [Result] {
    [Result](unsafeUninitializedCapacity: count) { results, initialized in
        guard let base = results.baseAddress else { return }
        // Each part initializes only its own slot, so the parts do not race.
        let out = SharedMutableBuffer(base: base)
        parallelChunks(count, minimumChunk: 1) { parts in
            for part in parts { (out.base + part).initialize(to: body(part)) }
        }
        initialized = count
    }
}

package enum ProcessInfoCores {
    /// The cores the parallel helpers use: the active processors, or fewer while
    /// ``threadLimit`` is set (benchmarks measure one thread this way).
    package static var count: Int {
        let limit = threadLimit.load(ordering: .relaxed)
        return limit > 0 ? Swift.min(limit, hardware) : hardware
    }

    /// The most threads parallel work may use; 0 means no limit.
    package static let threadLimit = Atomic<Int>(0)

    /// Active processor count, read once.
    package static let hardware: Int = {
        #if canImport(Glibc)
            let n = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
            return n > 0 ? n : 1
        #else
            return 2
        #endif
    }()
}

package struct UncheckedSendable<Value>: @unchecked Sendable {
    package let value: Value
    package init(_ value: Value) { self.value = value }
}

/// A pointer to a buffer that parallel chunks write disjoint ranges of.
package struct SharedMutableBuffer<Element>: @unchecked Sendable {
    package let base: UnsafeMutablePointer<Element>
    package init(base: UnsafeMutablePointer<Element>) { self.base = base }
}

#if canImport(Glibc)
    import Glibc
#endif

/// Fills three arrays of `count` elements in parallel: element i of each comes from `body(i)`.
func parallelFill<A, B, C>(
    count: Int, _ zero: (A, B, C), minimumChunk: Int = 8192, _ body: (Int) -> (A, B, C)
) -> ([A], [B], [C]) {
    var a = [A](repeating: zero.0, count: count)
    var b = [B](repeating: zero.1, count: count)
    var c = [C](repeating: zero.2, count: count)
    a.withUnsafeMutableBufferPointer { pa in
        b.withUnsafeMutableBufferPointer { pb in
            c.withUnsafeMutableBufferPointer { pc in
                guard let ba = pa.baseAddress, let bb = pb.baseAddress, let bc = pc.baseAddress else { return }
                let oa = SharedMutableBuffer(base: ba), ob = SharedMutableBuffer(base: bb)
                let oc = SharedMutableBuffer(base: bc)
                parallelChunks(count, minimumChunk: minimumChunk) { range in
                    for i in range {
                        let (x, y, z) = body(i)
                        oa.base[i] = x
                        ob.base[i] = y
                        oc.base[i] = z
                    }
                }
            }
        }
    }
    return (a, b, c)
}
