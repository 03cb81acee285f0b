#ifndef VERGE_THREAD_LOCAL_H
#define VERGE_THREAD_LOCAL_H

/// One pointer per thread for Verge's store core: the address of the
/// calling thread's marks (what it is delivering, which commit closure it
/// runs), or NULL before the thread's first commit.
///
/// Swift has no thread-local variables of its own; `pthread_getspecific`
/// is a call into the C library on Linux (about 20 instructions on every
/// commit). A C thread-local read inlined into Swift is one or two
/// instructions. The initial-exec model keeps it so in a shared library
/// too (the variable is one pointer, well within the static TLS space
/// the C library reserves for libraries loaded at start).
extern __thread void *verge_thread_marks
#if defined(__ELF__)
    __attribute__((tls_model("initial-exec")))
#endif
    ;

/// The calling thread's marks pointer, NULL until set.
static inline __attribute__((always_inline)) void *verge_thread_marks_get(void) {
  return verge_thread_marks;
}

/// Sets the calling thread's marks pointer.
static inline __attribute__((always_inline)) void verge_thread_marks_set(void *marks) {
  verge_thread_marks = marks;
}

#endif
