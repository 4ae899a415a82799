/// How the sort's passes are cut for the cores.
enum SortParallelism {
    /// Items a core takes at least in a parallel pass: below this, waking a thread costs more than
    /// the work it takes over (a few microseconds against some 20 of work). Small enough that
    /// W3's passes over its 175,000 candidates and 641,601 vertices allow 21 and 78 chunks, so
    /// that 16 cores all take some.
    static let minimumChunk = 8_192
    /// Items a part of the projection or of the ranked order's first passes takes at least: below
    /// this the pass runs as one part.
    static let minimumPart = 32_768
    /// The ranked order's fixed number of parts in its first pass: fixed, so that partial bounds
    /// and sums are joined in the same order on any number of cores (passes whose parts are
    /// joined by min, max or "any" take a part per thread instead); 32, so that 16 cores take two
    /// each.
    static let parts = 32
}
