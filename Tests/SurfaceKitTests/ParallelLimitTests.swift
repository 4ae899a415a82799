import Foundation
import Synchronization
import Testing

@testable import SurfaceKit

/// The thread limit is a scoped value: it holds inside `ParallelLimit.withThreads` (and in the
/// parallel work started there), nests, and is never seen by code outside the scope, on this
/// thread or another. The machine's core count comes from Foundation here, independently of the
/// library's own reading.
@Suite struct ParallelLimitTests {
    static let cores = ProcessInfo.processInfo.activeProcessorCount

    /// A value several threads write, behind a lock.
    final class Shared<Value: Sendable>: Sendable {
        let mutex: Mutex<Value>
        init(_ value: Value) { mutex = Mutex(value) }
        var value: Value { mutex.withLock { $0 } }
        func update(_ body: (inout Value) -> Void) { mutex.withLock { body(&$0) } }
    }

    @Test func theLibraryCountsTheActiveCores() {
        #expect(ParallelLimit.activeCores == Self.cores)
        #expect(ParallelLimit.threads == Self.cores)
    }

    @Test func aScopeLimitsTheThreadsAndEndsWithIt() {
        ParallelLimit.withThreads(1) { #expect(ParallelLimit.threads == 1) }
        // Any positive count is accepted; more threads than cores means all of them.
        ParallelLimit.withThreads(1_000_000) { #expect(ParallelLimit.threads == Self.cores) }
        // Counts below one mean one.
        ParallelLimit.withThreads(0) { #expect(ParallelLimit.threads == 1) }
        ParallelLimit.withThreads(-5) { #expect(ParallelLimit.threads == 1) }
        #expect(ParallelLimit.threads == Self.cores)
    }

    @Test func theInnermostScopeHolds() {
        ParallelLimit.withThreads(1) {
            ParallelLimit.withThreads(1_000) { #expect(ParallelLimit.threads == Self.cores) }
            #expect(ParallelLimit.threads == 1)
        }
    }

    @Test func aScopeEndsWhenItsBodyThrows() {
        struct Stop: Error {}
        #expect(throws: Stop.self) { try ParallelLimit.withThreads(1) { throw Stop() } }
        #expect(ParallelLimit.threads == Self.cores)
    }

    /// A limit set on one thread is not seen by another thread running at the same time: it is
    /// not a process-wide setting.
    @Test func anotherThreadDoesNotSeeTheLimit() {
        let seen = Shared<Int?>(nil)
        ParallelLimit.withThreads(1) {
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                let threads = ParallelLimit.threads
                seen.update { $0 = threads }
                done.signal()
            }
            done.wait()
            #expect(ParallelLimit.threads == 1)
        }
        #expect(seen.value == Self.cores)
    }

    /// Parallel work started inside a scope keeps to its limit in every chunk, also on the
    /// worker threads that run them (the raw scoped value, so that the check does not depend on
    /// this machine's core count).
    @Test func chunksRunUnderTheLimitOfTheirScope() {
        let scoped = Shared<[Int]>([])
        ParallelLimit.withThreads(3) {
            parallelChunks(64, minimumChunk: 1) { _ in
                let limit = ParallelLimit.scopedThreads
                scoped.update { $0.append(limit) }
            }
        }
        let seen = scoped.value
        #expect(!seen.isEmpty && seen.allSatisfy { $0 == 3 })
        #expect(ParallelLimit.scopedThreads == 0)
    }

    /// With one thread every chunk runs on the calling thread, in order.
    @Test func oneThreadRunsEveryChunkOnTheCallingThread() {
        let caller = Thread.current
        let ranges = Shared<[Range<Int>]>([])
        let elsewhere = Shared(false)
        ParallelLimit.withThreads(1) {
            parallelChunks(100_000, minimumChunk: 1) { range in
                let here = Thread.current
                ranges.update { $0.append(range) }
                if here != caller { elsewhere.update { $0 = true } }
            }
        }
        #expect(ranges.value == [0..<100_000])
        #expect(!elsewhere.value)
    }
}
