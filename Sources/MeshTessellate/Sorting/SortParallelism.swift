/// How the sort's passes are cut for the cores.
enum SortParallelism {
    /// Items a core takes at least in a parallel pass: below this, waking a thread costs more than
    /// the work it takes over.
    static let minimumChunk = 65_536
    /// Items a part of the projection or of the ranked order's first passes takes at least: below
    /// this the pass runs as one part.
    static let minimumPart = 32_768
    /// The most parts a pass is cut into, and the ranked order's fixed number of parts: fixed, so
    /// that partial bounds and sums are joined in the same order on any number of cores.
    static let parts = 8
}
