import SurfaceKit

#if canImport(Glibc)
    import Glibc
#endif

/// Scratch memory for one sort, handed back when the last reference goes.
///
/// On Linux it is an anonymous mapping aligned to 2 MiB and advised for transparent huge pages:
/// the sort's scratch is tens of megabytes written once, and on a virtual machine faulting it in
/// at 4 KiB a page costs about as much as the sort itself (2 µs a page measured here, 5 ms per
/// 10 MB), while huge pages also keep the scattered writes of the radix pass inside the TLB. A
/// mapping an earlier sort handed back (`ScratchReserve`) is taken when one fits, so its pages need
/// no faulting at all. Elsewhere, or when the mapping fails, it is ordinary allocated memory.
final class SortScratch: @unchecked Sendable {
    /// Start of the usable memory, 64-byte aligned (2 MiB aligned when mapped).
    let base: UnsafeMutableRawPointer
    private let mapping: UnsafeMutableRawPointer?
    private let mappedBytes: Int

    /// `zeroed`: the memory reads as zero before it is written (a fresh mapping already does; a
    /// reused one and the fallback are cleared).
    convenience init(bytes: Int, zeroed: Bool = false) {
        self.init(bytes: bytes, zeroedBytes: zeroed ? bytes : 0)
    }

    /// The first `zeroedBytes` read as zero before they are written, the rest is undefined: a
    /// reused mapping then clears only what must read as zero, not pages the sort may never touch.
    init(bytes: Int, zeroedBytes: Int) {
        let count = Swift.max(bytes, 64)
        let zeroed = Swift.min(Swift.max(zeroedBytes, 0), count)
        #if canImport(Glibc)
            let huge = 2 << 20
            let length = count + huge
            if let reused = ScratchReserve.take(atLeast: length),
                let aligned = UnsafeMutableRawPointer(bitPattern: (UInt(bitPattern: reused.raw) + UInt(huge) - 1) & ~UInt(huge - 1))
            {
                // Written by an earlier sort: cleared when asked to read as zero.
                Self.clear(aligned, bytes: zeroed)
                base = aligned
                mapping = reused.raw
                mappedBytes = reused.length
                return
            }
            if let raw = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
                raw != UnsafeMutableRawPointer(bitPattern: -1),
                let aligned = UnsafeMutableRawPointer(bitPattern: (UInt(bitPattern: raw) + UInt(huge) - 1) & ~UInt(huge - 1))
            {
                // Only advice: a refusal leaves ordinary pages.
                // Whole huge pages from `aligned` to the end of the mapping, none beyond it.
                let inside = aligned.distance(to: raw + length)
                _ = madvise(aligned, inside & ~(huge - 1), MADV_HUGEPAGE)
                base = aligned
                mapping = raw
                mappedBytes = length
                return
            }
        #endif
        base = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 64)
        Self.clear(base, bytes: zeroed)
        mapping = nil
        mappedBytes = 0
    }

    /// Bytes a core clears at least: a few tens of microseconds of stores.
    static let clearedTogether = 256 << 10

    /// Clears `bytes` from `start` on all cores, in pieces of at least `clearedTogether` bytes: a
    /// reused scratch's tables that must read as zero (3 MB of the exact order's on W3) are
    /// cleared on all cores, like the passes around them.
    private static func clear(_ start: UnsafeMutableRawPointer, bytes: Int) {
        guard bytes > 0 else { return }
        let out = UncheckedSendable(start)
        parallelChunks(bytes, minimumChunk: clearedTogether) { range in
            (out.value + range.lowerBound).initializeMemory(as: UInt8.self, repeating: 0, count: range.count)
        }
    }

    deinit {
        #if canImport(Glibc)
            if let mapping {
                ScratchReserve.give(ScratchReserve.Mapping(raw: mapping, length: mappedBytes))
                return
            }
        #endif
        base.deallocate()
    }

    /// `count` elements of `T` from the start, or from byte `offset` (one reserved by a `Layout`),
    /// uninitialized until written unless the scratch was made zeroed.
    func buffer<T>(of _: T.Type, count: Int, at offset: Int = 0) -> UnsafeMutableBufferPointer<T> {
        UnsafeMutableBufferPointer(start: (base + offset).bindMemory(to: T.self, capacity: count), count: count)
    }

    /// `buffer(of:count:at:)`'s start, for tables read through plain pointers.
    func pointer<T>(to _: T.Type, count: Int, at offset: Int) -> UnsafeMutablePointer<T> {
        (base + offset).bindMemory(to: T.self, capacity: count)
    }

    /// Consecutive regions of one scratch, each 64-byte aligned.
    struct Layout {
        private(set) var bytes = 0

        /// Reserves `count` elements of `T` and returns their byte offset.
        mutating func reserve<T>(_ type: T.Type, count: Int) -> Int {
            let offset = bytes
            bytes = (offset + count * MemoryLayout<T>.stride + 63) & ~63
            return offset
        }
    }
}
