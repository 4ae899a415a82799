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

#endif
