/* Fixture: a runtime file. A comment may say "MatMul". */
#include <stddef.h>

#include "archive.h"
#include "hologram/holo.h"

static const char *why(void) { return "MatMul budget: not an op name, a message"; }
