import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The mappings of finished sorts, kept for the next ones.
///
/// A sort's scratch is tens of megabytes written once, and the first touch of a fresh page costs
/// the kernel a page of zeros: for the 30 MB of W3's depth order about 3.6 ms on a 2-core virtual
/// machine even in huge pages, a third of the sort. An application sorts again and again (a
/// renderer every frame), so a mapping that a sort lets go is kept, its pages in place, and the
/// next sort that needs about as much takes it instead of a fresh one. What is kept is bounded by
/// count and bytes; past either bound the oldest mapping is returned to the system.
enum ScratchReserve {
    /// One anonymous mapping: its start and length as `mmap` gave them.
    struct Mapping: @unchecked Sendable {
        let raw: UnsafeMutableRawPointer
        let length: Int
    }

    /// Mappings kept at most: the exact order takes seven in turn (screen positions when it needs
    /// no pool, turns, residual chain, coverage tables, slots, cells and entries; at most five at
    /// once), so all of them wait for the next exact order; the depth order takes one, and a batch of rays one for each chunk of blocks (a
    /// thread), so on many cores a batch of rays can push out the exact order's, which then maps
    /// its scratch anew.
    static let keptMappings = 7
    /// Bytes kept at most (256 MiB): the scratch of sorts of several million triangles, while a
    /// long-running process never holds more than this for sorts it is no longer doing.
    static let keptBytes = 256 << 20
    /// A kept mapping serves a request of at least this fraction of its length (plus
    /// `reuseSlack`): a small request must not take the mapping a large one will need next.
    static let reuseFraction = 2
    /// Bytes a kept mapping may exceed `reuseFraction` × the request by: the 2 MiB alignment
    /// allowance every mapping has, and some room for sizes that vary from frame to frame.
    static let reuseSlack = 4 << 20

    private static let kept = Mutex<[Mapping]>([])

    /// The smallest kept mapping of at least `length` bytes that is not much larger, taken out of
    /// the reserve; nil when none fits.
    static func take(atLeast length: Int) -> Mapping? {
        kept.withLock { kept in
            var best: Int? = nil
            for (i, m) in kept.enumerated() where serves(m.length, request: length) {
                if best.map({ kept[$0].length > m.length }) ?? true { best = i }
            }
            return best.map { kept.remove(at: $0) }
        }
    }

    /// Whether a kept mapping of `length` bytes serves a request of `request` bytes: large
    /// enough, and not so large that a later, larger request would go without.
    static func serves(_ length: Int, request: Int) -> Bool {
        length >= request && length <= reuseFraction * request + reuseSlack
    }

    /// Keeps `mapping` for a later sort; the oldest kept ones (or this one, when it alone is
    /// larger than `keptBytes`) go back to the system.
    static func give(_ mapping: Mapping) {
        let released: [Mapping] = kept.withLock { kept in
            guard mapping.length <= keptBytes else { return [mapping] }
            kept.append(mapping)
            var released: [Mapping] = []
            var total = kept.reduce(0) { $0 + $1.length }
            while kept.count > keptMappings || total > keptBytes {
                let oldest = kept.removeFirst()
                total -= oldest.length
                released.append(oldest)
            }
            return released
        }
        #if canImport(Glibc)
            for m in released { munmap(m.raw, m.length) }
        #endif
    }
}
