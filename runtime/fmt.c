#include "hologram/fmt.h"

#include <stdint.h>

typedef struct sink {
  char *buf;
  size_t cap, len;
} sink;

static void put(sink *s, char c) {
  if (s->len + 1 < s->cap) s->buf[s->len] = c;
  s->len++;
}

static void put_u(sink *s, unsigned long long v, unsigned base) {
  char tmp[24];
  int n = 0;
  do {
    unsigned d = (unsigned)(v % base);
    tmp[n++] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
    v /= base;
  } while (v);
  while (n) put(s, tmp[--n]);
}

static void put_i(sink *s, long long v) {
  if (v < 0) {
    put(s, '-');
    put_u(s, (unsigned long long)(-(v + 1)) + 1u, 10);
  } else {
    put_u(s, (unsigned long long)v, 10);
  }
}

size_t holo_vfmt(char *buf, size_t cap, const char *f, va_list ap) {
  sink s = {buf, cap, 0};
  for (; *f; f++) {
    if (*f != '%') {
      put(&s, *f);
      continue;
    }
    f++;
    int lng = 0, prec = -1, size_t_arg = 0;
    if (f[0] == '.' && f[1] == '*') {
      prec = va_arg(ap, int);
      f += 2;
    }
    while (*f == 'l') {
      lng++;
      f++;
    }
    if (*f == 'z') {
      size_t_arg = 1;
      f++;
    }
    switch (*f) {
    case 's': {
      const char *p = va_arg(ap, const char *);
      if (!p) p = "(null)";
      for (int i = 0; p[i] && (prec < 0 || i < prec); i++) put(&s, p[i]);
      break;
    }
    case 'c': put(&s, (char)va_arg(ap, int)); break;
    case 'd':
      if (lng >= 2) put_i(&s, va_arg(ap, long long));
      else if (lng == 1) put_i(&s, va_arg(ap, long));
      else put_i(&s, va_arg(ap, int));
      break;
    case 'u':
    case 'x': {
      unsigned base = *f == 'x' ? 16 : 10;
      if (size_t_arg) put_u(&s, va_arg(ap, size_t), base);
      else if (lng >= 2) put_u(&s, va_arg(ap, unsigned long long), base);
      else if (lng == 1) put_u(&s, va_arg(ap, unsigned long), base);
      else put_u(&s, va_arg(ap, unsigned), base);
      break;
    }
    case '%': put(&s, '%'); break;
    case 0: f--; break;
    default: put(&s, '%'); put(&s, *f); break;
    }
  }
  if (cap) buf[s.len < cap ? s.len : cap - 1] = 0;
  return s.len;
}

size_t holo_fmt(char *buf, size_t cap, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  size_t n = holo_vfmt(buf, cap, fmt, ap);
  va_end(ap);
  return n;
}
