import Dispatch

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
    // cross into Dispatch's worker threads, which all finish before this returns. A worker thread
    // does not see the caller's scoped limit, so each chunk runs under it again (when there is
    // one): work nested in a chunk keeps to the same limit.
    let limit = ParallelLimit.scopedThreads
    withoutActuallyEscaping(body) { body in
        let box = UncheckedSendable(body)
        DispatchQueue.concurrentPerform(iterations: chunks) { c in
            let lo = count * c / chunks, hi = count * (c + 1) / chunks
            if limit == 0 {
                box.value(lo..<hi)
            } else {
                ParallelLimit.$scopedThreads.withValue(limit) { box.value(lo..<hi) }
            }
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

/// How many threads the libraries' parallel work (tessellation, sorting, hit-testing batches,
/// fitting, rendering) may use: every active core, unless a caller limits it for a scope with
/// ``withThreads(_:_:)``.
///
/// The limit is scoped, not process-wide: it holds for the work started inside the closure, on the
/// calling thread and in the parallel work it starts (and, in async code, in the current task and
/// its child tasks), and nowhere else. Two callers with different limits on two threads do not see
/// each other's. Results never depend on the limit: the parallel stages cut their work into a fixed
/// number of parts or combine parts in a fixed order.
public enum ParallelLimit {
    /// Runs `body` with the libraries' parallel work limited to `threads` threads (counts below 1
    /// mean 1; counts above the active cores mean all of them). With one thread, all work stays on
    /// the calling thread. Scopes nest: the innermost one holds.
    public static func withThreads<R>(_ threads: Int, _ body: () throws -> R) rethrows -> R {
        try $scopedThreads.withValue(Swift.max(1, threads), operation: body)
    }

    /// The threads parallel work started here would use: the innermost scope's limit, at most the
    /// active cores.
    public static var threads: Int { ProcessInfoCores.count }

    /// The active cores of this machine (read once).
    public static var activeCores: Int { ProcessInfoCores.hardware }

    /// The limit of the innermost ``withThreads(_:_:)`` around the current code; 0 outside any.
    @TaskLocal package static var scopedThreads = 0
}

package enum ProcessInfoCores {
    /// The cores the parallel helpers use: the active processors, or fewer inside a
    /// ``ParallelLimit/withThreads(_:_:)`` scope.
    package static var count: Int {
        let limit = ParallelLimit.scopedThreads
        return limit > 0 ? Swift.min(limit, hardware) : hardware
    }

    /// Active processor count, read once. Linux is the platform this package is built and tested
    /// on; the Darwin branch is the same POSIX call, and anywhere else parallel work runs on one
    /// thread rather than on a guessed count.
    package static let hardware: Int = {
        #if canImport(Glibc) || canImport(Darwin)
            let n = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
            return n > 0 ? n : 1
        #else
            return 1
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
#elseif canImport(Darwin)
    import Darwin
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
