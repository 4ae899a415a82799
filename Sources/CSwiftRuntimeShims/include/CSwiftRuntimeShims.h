#ifndef CSWIFTRUNTIMESHIMS_H
#define CSWIFTRUNTIMESHIMS_H
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

// The Swift runtime's shortest round-trip Double formatter, the one behind Double.description.
// It is exported by libswiftCore as part of its stable ABI. Writes at most bufferLength bytes
// (no terminator is promised) and returns the length written.
uint64_t swift_float64ToString(char *buffer, size_t bufferLength, double value, bool debug);

// A hint to start loading the cache line at p (no fault if p is not mapped), for gathers whose
// addresses are known a few iterations ahead.
static inline void shims_prefetch(const void *p) { __builtin_prefetch(p, 0, 3); }

/// Sets `bits` in the byte at p atomically (relaxed) and returns the byte before: parts of a sort
/// on several cores marking the same vertex.
static inline uint8_t shims_fetch_or_u8(uint8_t *p, uint8_t bits) { return __atomic_fetch_or(p, bits, __ATOMIC_RELAXED); }

// Four-lane float helpers for the BVH walk's box tests. Swift's SIMD has no lane-mask
// extraction, and its select-based minimum and maximum do not always become single
// instructions; these are single SSE instructions where SSE exists, with the same answers
// (lane by lane, NaN included) written out elsewhere.
typedef float shims_float4 __attribute__((ext_vector_type(4)));
#if defined(__SSE__)
#include <xmmintrin.h>
#endif

// Lane by lane a > b ? a : b: b wherever either is NaN.
static inline shims_float4 shims_larger(shims_float4 a, shims_float4 b) {
#if defined(__SSE__)
    return (shims_float4)_mm_max_ps((__m128)a, (__m128)b);
#else
    shims_float4 r;
    for (int i = 0; i < 4; i++) r[i] = a[i] > b[i] ? a[i] : b[i];
    return r;
#endif
}

// Lane by lane a < b ? a : b: b wherever either is NaN.
static inline shims_float4 shims_smaller(shims_float4 a, shims_float4 b) {
#if defined(__SSE__)
    return (shims_float4)_mm_min_ps((__m128)a, (__m128)b);
#else
    shims_float4 r;
    for (int i = 0; i < 4; i++) r[i] = a[i] < b[i] ? a[i] : b[i];
    return r;
#endif
}

// Bit k set where a[k] <= b[k] (clear where either is NaN).
static inline uint32_t shims_lanes_at_most(shims_float4 a, shims_float4 b) {
#if defined(__SSE__)
    return (uint32_t)_mm_movemask_ps(_mm_cmple_ps((__m128)a, (__m128)b));
#else
    uint32_t bits = 0;
    for (int i = 0; i < 4; i++) bits |= (a[i] <= b[i] ? 1u : 0u) << i;
    return bits;
#endif
}

// Asks glibc to serve blocks up to mmapThreshold bytes from its heap and to return free memory at
// the heap's top to the kernel only past trimThreshold bytes, so that a server's large arrays
// reuse the pages of the previous request's. Returns false where the C library is not glibc or a
// setting is refused.
#if defined(__GLIBC__)
#include <malloc.h>
#endif
static inline bool shims_keep_freed_memory(int mmapThreshold, int trimThreshold) {
#if defined(__GLIBC__)
    int trimmed = mallopt(M_TRIM_THRESHOLD, trimThreshold);
    int mapped = mallopt(M_MMAP_THRESHOLD, mmapThreshold);
    return trimmed == 1 && mapped == 1;
#else
    (void)mmapThreshold;
    (void)trimThreshold;
    return false;
#endif
}

#endif
