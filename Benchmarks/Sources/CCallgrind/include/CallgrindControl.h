#ifndef CALLGRIND_CONTROL_H
#define CALLGRIND_CONTROL_H

/// Whether the process runs under valgrind and valgrind's client-request
/// header was found at build time; 0 otherwise.
int callgrind_is_running(void);

/// Zeroes the counters, turns instrumentation and event collection on.
/// A no-op outside valgrind or without its header.
void callgrind_begin(void);

/// Turns event collection and instrumentation off, then writes the counts
/// since `callgrind_begin()` to the next dump file, described by `label`.
/// A no-op outside valgrind or without its header.
void callgrind_end(const char *label);

#endif
