/* holo_err and friends (hologram/error.h). */
#include "hologram/error.h"

#include "hologram/fmt.h"

holo_status holo_verr(holo_error *err, holo_status st, const char *fmt, va_list ap) {
  if (err) {
    err->status = st;
    holo_vfmt(err->message, sizeof err->message, fmt, ap);
  }
  return st;
}

holo_status holo_err(holo_error *err, holo_status st, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  holo_verr(err, st, fmt, ap);
  va_end(ap);
  return st;
}

holo_status holo_err_prefix(holo_error *err, holo_status st, const char *prefix) {
  if (!err) return st;
  /* The detail is copied first, bounded: err may never have been
   * NUL-terminated if the callee that failed left it alone. */
  char detail[HOLO_MSG_CAP];
  size_t n = 0;
  while (n + 1 < sizeof detail && err->message[n]) {
    detail[n] = err->message[n];
    n++;
  }
  detail[n] = 0;
  return holo_err(err, st, "%s%s", prefix, detail);
}
