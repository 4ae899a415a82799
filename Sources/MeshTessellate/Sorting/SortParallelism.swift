/// How the sort's passes are cut for the cores.
enum SortParallelism {
    /// Items a core takes at least in a parallel pass: below this, waking a thread costs more than
    /// the work it takes over.
    static let minimumChunk = 65_536
    /// Items a part of the projection or of the ranked order's first passes takes at least: below
    /// this the pass runs as one part.
    static let minimumPart = 32_768
    /// The ranked order's fixed number of parts in its first pass: fixed, so that partial bounds
    /// and sums are joined in the same order on any number of cores. (Passes whose parts are
    /// joined by min, max or "any" take a part per thread instead.)
    static let parts = 8
}
