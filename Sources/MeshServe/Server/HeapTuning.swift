import CSwiftRuntimeShims

/// How the server asks the C allocator to keep memory it frees.
///
/// An edit of a large mesh allocates the same few big arrays on every request (at 50 × 50 faces
/// and steps 3: the points, normals, layer points, triangles and the 9 MB answer, tens of MB in
/// all). By default glibc serves each block over 128 KiB with fresh pages from the kernel and
/// returns them on free, so every request pays for faulting in and zeroing all of them again,
/// which costs more than evaluating the surface. Kept in the heap, the next request's arrays reuse
/// the same pages. The price is that the server's memory stays at its largest request's size.
enum HeapTuning {
    /// Blocks up to this size come from the heap: glibc's largest allowed value on 64-bit systems
    /// (32 MiB), which covers every array of an edit up to about a million triangles; larger
    /// ones still map pages of their own.
    static let mmapThreshold: Int32 = 32 << 20
    /// Free memory at the top of the heap is returned to the kernel only past this much, so a
    /// request's arrays freed at its end remain for the next one.
    static let trimThreshold: Int32 = 1 << 30

    /// Applies the settings, once, before serving (a no-op where the C library is not glibc).
    static func apply() {
        _ = shims_keep_freed_memory(mmapThreshold, trimThreshold)
    }
}
