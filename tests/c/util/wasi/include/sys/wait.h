/* wasi-libc has no <sys/wait.h>: WASI has no processes. waitpid fails the
 * calling test (cmocka-wasi.h); the one test that forks is skipped by name
 * in tests/wasm-tests.mk. */
#ifndef HOLO_WASI_SYS_WAIT_H
#define HOLO_WASI_SYS_WAIT_H
#include <cmocka.h>
#define waitpid(p, s, o)                                                                                     \
  ((void)(p), (void)(s), (void)(o), holo_cm_no_posix("waitpid", __FILE__, __LINE__), -1)
#define WIFEXITED(s) ((void)(s), 0)
#define WEXITSTATUS(s) ((void)(s), 1)
#endif
