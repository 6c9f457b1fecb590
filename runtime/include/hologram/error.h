/* Errors as values: a status plus a message naming what is wrong. The
 * session, the arena, the archive reader, refinement and generation all
 * report through these, so they live apart from any one of them (a kernel
 * writes its refusal into holo_kernel_call.msg instead, backend.h).
 * Freestanding: messages are formatted by holo_vfmt (fmt.h), which supports
 * %s %.*s %c %d %u %ld %lu %lld %llu %zu %x and %%. */
#ifndef HOLOGRAM_ERROR_H
#define HOLOGRAM_ERROR_H

#include <stdarg.h>

#include "hologram/types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct holo_error {
  holo_status status;
  char message[HOLO_MSG_CAP];
} holo_error;

/* Sets err (if non-NULL) to st and the formatted message, truncated to
 * HOLO_MSG_CAP - 1 bytes; returns st, so a failure is `return holo_err(...)`. */
holo_status holo_err(holo_error *err, holo_status st, const char *fmt, ...);
/* The same with a va_list, for a layer's own variadic reporting helper. */
holo_status holo_verr(holo_error *err, holo_status st, const char *fmt, va_list ap);
/* Prepends prefix to the message already in err and sets st. Never pass
 * err->message to holo_err as an argument: the formatter writes the
 * buffer it would read. */
holo_status holo_err_prefix(holo_error *err, holo_status st, const char *prefix);

#ifdef __cplusplus
}
#endif
#endif
