/* Semihosting calls: `bkpt 0xab` with the operation in r0 and a pointer to
 * its parameter block in r1; the result comes back in r0. */
#include "semihost.h"

#include <stdarg.h>

#include "hologram/fmt.h"

enum {
  SYS_OPEN = 0x01,
  SYS_CLOSE = 0x02,
  SYS_WRITE0 = 0x04,
  SYS_WRITE = 0x05,
  SYS_READ = 0x06,
  SYS_FLEN = 0x0c,
  SYS_GET_CMDLINE = 0x15,
  SYS_EXIT_EXTENDED = 0x20,
  SYS_ELAPSED = 0x30,
  SYS_TICKFREQ = 0x31,
  ADP_STOPPED_APPLICATION_EXIT = 0x20026
};

static uintptr_t sh_call(uintptr_t op, const void *arg) {
  register uintptr_t r0 __asm__("r0") = op;
  register const void *r1 __asm__("r1") = arg;
  __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

void sh_write0(const char *s) { sh_call(SYS_WRITE0, s); }

void sh_printf(const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  holo_vfmt(buf, sizeof buf, fmt, ap);
  va_end(ap);
  sh_write0(buf);
}

int sh_open(const char *path, const char *mode) {
  size_t n = 0;
  while (path[n])
    n++;
  /* ISO C fopen modes by index: "rb" is 1, "wb" is 5. */
  uintptr_t m = (mode[0] == 'w') ? 5 : 1;
  uintptr_t blk[3] = {(uintptr_t)path, m, n};
  return (int)sh_call(SYS_OPEN, blk);
}

void sh_close(int fd) {
  uintptr_t blk[1] = {(uintptr_t)fd};
  sh_call(SYS_CLOSE, blk);
}

size_t sh_write(int fd, const void *buf, size_t n) {
  uintptr_t blk[3] = {(uintptr_t)fd, (uintptr_t)buf, n};
  return sh_call(SYS_WRITE, blk);
}

size_t sh_read(int fd, void *buf, size_t n) {
  uintptr_t blk[3] = {(uintptr_t)fd, (uintptr_t)buf, n};
  return sh_call(SYS_READ, blk);
}

long sh_flen(int fd) {
  uintptr_t blk[1] = {(uintptr_t)fd};
  return (long)sh_call(SYS_FLEN, blk);
}

int sh_cmdline(char *buf, size_t cap) {
  uintptr_t blk[2] = {(uintptr_t)buf, cap};
  if (sh_call(SYS_GET_CMDLINE, blk) != 0) return 0;
  return (int)blk[1];
}

uint64_t sh_elapsed_ns(void) {
  uint32_t t[2] = {0, 0};
  if (sh_call(SYS_ELAPSED, t) != 0) return 0;
  uint64_t ticks = (uint64_t)t[1] << 32 | t[0];
  uint64_t freq = sh_call(SYS_TICKFREQ, 0);
  if (freq == 0 || freq == (uint32_t)-1) return 0;
  return freq == 1000000000u ? ticks : ticks * (1000000000u / freq);
}

void sh_exit(int status) {
  uintptr_t blk[2] = {ADP_STOPPED_APPLICATION_EXIT, (uintptr_t)status};
  for (;;)
    sh_call(SYS_EXIT_EXTENDED, blk);
}
