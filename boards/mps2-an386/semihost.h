/* ARM semihosting (the debugger / QEMU host services): console output,
 * host files, the command line, a host clock and exit with a status. */
#ifndef BOARD_SEMIHOST_H
#define BOARD_SEMIHOST_H

#include <stddef.h>
#include <stdint.h>

void sh_write0(const char *s);
/* printf-like on the host console (hologram/fmt.h directives), 512 bytes max. */
void sh_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* mode: "rb" or "wb". Returns a handle >= 0, or -1. */
int sh_open(const char *path, const char *mode);
void sh_close(int fd);
/* Bytes not transferred (0: all of them), as the protocol reports. */
size_t sh_write(int fd, const void *buf, size_t n);
size_t sh_read(int fd, void *buf, size_t n);
long sh_flen(int fd);
/* The command line qemu was given (-semihosting-config arg=...), or 0. */
int sh_cmdline(char *buf, size_t cap);
/* Host nanoseconds since the program started (SYS_ELAPSED / SYS_TICKFREQ). */
uint64_t sh_elapsed_ns(void);
__attribute__((noreturn)) void sh_exit(int status);

#endif
