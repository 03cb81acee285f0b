#ifndef VERGE_BENCHMARKS_ALLOCATION_COUNTER_H
#define VERGE_BENCHMARKS_ALLOCATION_COUNTER_H

#include <stdint.h>

/// Whether this build counts allocations (it interposes malloc on Linux only).
int allocation_counter_is_available(void);

/// Allocation calls (malloc, calloc, realloc, memalign and friends) so far.
uint64_t allocation_counter_count(void);

/// Bytes requested by those calls so far.
uint64_t allocation_counter_bytes(void);

/// Bytes of heap in use now as glibc accounts them (mallinfo2: uordblks, the
/// bytes of chunks in use including their headers, plus hblkhd, the bytes of
/// blocks mapped on their own); -1 where that is not available.
int64_t allocation_counter_live_heap_bytes(void);

#endif
