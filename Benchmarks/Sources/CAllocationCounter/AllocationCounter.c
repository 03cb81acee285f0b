// Counts heap allocations by defining malloc and its relatives in the
// executable, which the dynamic linker then prefers over the C library's own
// for every library in the process (the Swift runtime included). Each
// definition counts with a relaxed atomic and forwards to glibc's internal
// entry points. Only Linux with glibc is supported; elsewhere nothing is
// interposed and the counter reports itself unavailable.

#include "AllocationCounter.h"

#if defined(__linux__) && defined(__GLIBC__)

#include <errno.h>
#include <malloc.h>
#include <stdatomic.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

static _Atomic uint64_t counted_calls = 0;
static _Atomic uint64_t counted_bytes = 0;

static inline void record(size_t size) {
  atomic_fetch_add_explicit(&counted_calls, 1, memory_order_relaxed);
  atomic_fetch_add_explicit(&counted_bytes, (uint64_t)size, memory_order_relaxed);
}

void *malloc(size_t size) {
  record(size);
  return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
  record(count * size);
  return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
  record(size);
  return __libc_realloc(pointer, size);
}

void free(void *pointer) {
  __libc_free(pointer);
}

void *memalign(size_t alignment, size_t size) {
  record(size);
  return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
  record(size);
  return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
  if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) {
    return EINVAL;
  }
  record(size);
  void *pointer = __libc_memalign(alignment, size);
  if (pointer == NULL) {
    return ENOMEM;
  }
  *result = pointer;
  return 0;
}

int allocation_counter_is_available(void) { return 1; }

uint64_t allocation_counter_count(void) {
  return atomic_load_explicit(&counted_calls, memory_order_relaxed);
}

uint64_t allocation_counter_bytes(void) {
  return atomic_load_explicit(&counted_bytes, memory_order_relaxed);
}

int64_t allocation_counter_live_heap_bytes(void) {
#if __GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33)
  struct mallinfo2 info = mallinfo2();
  return (int64_t)(info.uordblks + info.hblkhd);
#else
  return -1;
#endif
}

#else

int allocation_counter_is_available(void) { return 0; }
uint64_t allocation_counter_count(void) { return 0; }
uint64_t allocation_counter_bytes(void) { return 0; }
int64_t allocation_counter_live_heap_bytes(void) { return -1; }

#endif
