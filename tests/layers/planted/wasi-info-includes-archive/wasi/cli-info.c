/* Planted: only cli-dump.c may read the archive internals. */
#include "../runtime/archive.h"
