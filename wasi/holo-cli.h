#ifndef HOLO_CLI_H
#define HOLO_CLI_H

#include "hologram/holo.h"

/* Prints "holo: WHAT: message" to stderr and returns code. */
int holo_cli_fail(const char *what, const holo_error *err, int code);
int holo_cli_dump(const char *path);

#endif
