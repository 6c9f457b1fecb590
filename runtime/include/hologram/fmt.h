/* A tiny freestanding message formatter, because error messages must name
 * what is wrong and there is no snprintf without libc.
 * Supports %s %.*s %c %d %u %ld %lu %lld %llu %zu %x and %%. Always
 * NUL-terminates (when cap > 0) and truncates silently. */
#ifndef HOLOGRAM_FMT_H
#define HOLOGRAM_FMT_H

#include <stdarg.h>
#include <stddef.h>

size_t holo_fmt(char *buf, size_t cap, const char *fmt, ...);
size_t holo_vfmt(char *buf, size_t cap, const char *fmt, va_list ap);

#endif
