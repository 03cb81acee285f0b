// Wraps valgrind's callgrind client requests, which are C macros that Swift
// cannot call. Without Debian's `valgrind` package (valgrind/callgrind.h),
// every function compiles to a no-op and `callgrind_is_running()` is 0.

#include "CallgrindControl.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define HAVE_CALLGRIND 1
#endif
#endif

int callgrind_is_running(void) {
#ifdef HAVE_CALLGRIND
  return RUNNING_ON_VALGRIND ? 1 : 0;
#else
  return 0;
#endif
}

void callgrind_begin(void) {
#ifdef HAVE_CALLGRIND
  CALLGRIND_ZERO_STATS;
  CALLGRIND_START_INSTRUMENTATION;
  CALLGRIND_TOGGLE_COLLECT;
#endif
}

void callgrind_end(const char *label) {
#ifdef HAVE_CALLGRIND
  CALLGRIND_TOGGLE_COLLECT;
  CALLGRIND_STOP_INSTRUMENTATION;
  CALLGRIND_DUMP_STATS_AT(label);
#else
  (void)label;
#endif
}
