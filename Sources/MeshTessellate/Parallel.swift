import Dispatch

/// Lets a closure that writes disjoint slots cross into Dispatch's worker threads. Every use
/// finishes before the call that created it returns.
struct UncheckedWriter: @unchecked Sendable {
    let write: (Int, inout [UInt8]) -> Void
    init(_ write: @escaping (Int, inout [UInt8]) -> Void) { self.write = write }
}

struct UncheckedPointer<Element>: @unchecked Sendable {
    let base: UnsafeMutablePointer<Element>
}

enum DispatchQueueShim {
    static func parallelFor(_ count: Int, _ body: @Sendable (Int) -> Void) {
        if count <= 1 {
            for i in 0..<count { body(i) }
        } else {
            DispatchQueue.concurrentPerform(iterations: count, execute: body)
        }
    }
}
